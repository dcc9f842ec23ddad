import AudioFile
import FileAccess
import Foundation
import Vocabulary

/// One clip to render, as handed to a worker process.
public struct RenderJob: Codable, Sendable {
    public var entry: EntryReference
    public var word: String
    public var accent: Accent
    public var references: AudioReferences?
    public var format: AudioFormat
    public var reading: String?
    public var spoken: String?
    public var isFirstReading: Bool
    /// The fingerprint of the inputs, as the planner computed it (`Pronouncer.inputs`).
    public var inputs: String

    public init(entry: EntryReference, word: String, accent: Accent, references: AudioReferences?, format: AudioFormat,
                reading: String? = nil, spoken: String? = nil, isFirstReading: Bool = true, inputs: String = "") {
        self.entry = entry
        self.word = word
        self.accent = accent
        self.references = references
        self.format = format
        self.reading = reading
        self.spoken = spoken
        self.isFirstReading = isFirstReading
        self.inputs = inputs
    }

    public var request: ClipRequest {
        ClipRequest(word: word, accent: accent, references: references, entry: entry, reading: reading, spoken: spoken,
                    isFirstReading: isFirstReading)
    }
    public var key: ClipKey { request.key(format: format) }
    var identity: String { "\(entry.description)\u{0}\(accent.rawValue)\u{0}\(reading ?? "")" }
}

/// One line of the manifest.
public struct RenderResult: Codable, Sendable {
    public enum Status: String, Codable, Sendable { case rendered, kept, failed }
    public var word: String
    public var entry: String
    public var accent: Accent
    public var reading: String?
    public var status: Status
    public var tier: Tier?
    public var source: String?
    public var duration: Double?
    public var path: String
    public var error: String?
    public var skipped: [TierSkip]?

    public init(job: RenderJob, status: Status, path: String, tier: Tier? = nil, source: String? = nil, duration: Double? = nil,
                error: String? = nil, skipped: [TierSkip]? = nil) {
        word = job.word
        entry = job.entry.description
        accent = job.accent
        reading = job.reading
        self.status = status
        self.tier = tier
        self.source = source
        self.duration = duration
        self.path = path
        self.error = error
        self.skipped = skipped
    }

    /// The tiers that had a clip to try for this entry but could not use it (a missing or
    /// broken file, a failing URL): what a teacher has to repair.
    public var brokenSkips: [TierSkip] { (skipped ?? []).filter { !$0.isAbsence } }
    var identity: String { "\(entry)\u{0}\(accent.rawValue)\u{0}\(reading ?? "")" }
}

/// Renders many clips into a clip store, sharing the work among worker processes (one
/// synthesizer each: libespeak-ng keeps one per process), and gathers their results as they
/// stream back, one line per clip. Clips already in the store, made from the same inputs and
/// readable, are kept with the tier and source recorded beside them.
///
/// Jobs and results cross the pipe as tab-separated lines (`RenderWire`), not JSON: encoding
/// and decoding JSON cost as much per clip as writing the clip.
public struct BatchRenderer: Sendable {
    public let store: ClipStore
    public let workers: Int
    /// The worker program and its leading arguments; the renderer adds `--jobs-file FILE`.
    public let workerCommand: [String]
    /// The tiers, for fingerprints only (no synthesizer is needed to plan).
    public let planner: Pronouncer

    public init(store: ClipStore, workers: Int, workerCommand: [String], planner: Pronouncer) {
        self.store = store
        self.workers = workers
        self.workerCommand = workerCommand
        self.planner = planner
    }

    /// Splits the jobs into those whose clip is already there (kept) and those to render, and
    /// stamps each job with the fingerprint of its inputs.
    public func plan(_ jobs: [RenderJob], force: Bool) -> (kept: [RenderResult], pending: [RenderJob]) {
        var kept: [RenderResult] = [], pending: [RenderJob] = []
        for var job in jobs {
            job.inputs = planner.inputs(of: job.request)
            if !force, let stored = store.stored(job.key, inputs: job.inputs), let info = try? AudioFile.inspect(stored.path) {
                kept.append(RenderResult(job: job, status: .kept, path: stored.path, tier: stored.record.tier, source: stored.record.source,
                                         duration: (info.duration * 1000).rounded() / 1000))
            } else {
                pending.append(job)
            }
        }
        return (kept, pending)
    }

    /// Renders `jobs` with up to `workers` processes; `onResult` sees each result as it arrives.
    public func render(_ jobs: [RenderJob], onResult: @escaping @Sendable (RenderResult) -> Void) throws -> [RenderResult] {
        // What a killed render left (job files, half-written clips, records and manifests) is of
        // no use to anyone; cleaned even when nothing is left to render.
        // Only the folders the store owns are searched: the output folder may be anybody's.
        TemporaryFile.removeStale(in: store.root, tags: ["writing"] + Self.workerTags)
        for accent in Accent.allCases {
            TemporaryFile.removeStale(in: store.root + "/" + accent.rawValue, tags: ["writing"], recursive: true)
        }
        guard !jobs.isEmpty else { return [] }
        try DurableFile.createDirectory(store.root)
        let jobBase = store.root + "/.render-jobs"
        let collected = Collected()
        let group = DispatchGroup()
        var processes: [(Process, [RenderJob], String)] = []
        let count = min(workers, jobs.count)
        // Each worker gets one voice's jobs where it can (a voice change reloads espeak-ng's
        // dictionary), and alternate jobs within it, so similar neighbours spread evenly.
        let ordered = jobs.enumerated().sorted { ($0.element.accent.rawValue, $0.offset) < ($1.element.accent.rawValue, $1.offset) }.map(\.element)
        let per = (ordered.count + count - 1) / count
        for index in 0..<count {
            let shard = Array(ordered[min(ordered.count, index * per)..<min(ordered.count, (index + 1) * per)])
            guard !shard.isEmpty else { continue }
            let jobFile = TemporaryFile.path(beside: jobBase, tag: "worker\(index)")
            var text = ""
            for job in shard { text += RenderWire.line(job) }
            try DurableFile.write(Array(text.utf8), to: jobFile, durable: false)

            let process = Process()
            process.executableURL = URL(fileURLWithPath: workerCommand[0])
            process.arguments = Array(workerCommand.dropFirst()) + ["--jobs-file", jobFile, "--out", store.root]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            do {
                try process.run()
            } catch {
                try? FileManager.default.removeItem(atPath: jobFile)
                throw error
            }
            processes.append((process, shard, jobFile))
            group.enter()
            let fd = out.fileHandleForReading.fileDescriptor
            let byIdentity = Dictionary(shard.map { ($0.identity, $0) }, uniquingKeysWith: { a, _ in a })
            let store = self.store
            Thread.detachNewThread {
                Self.readLines(fd) { line in
                    guard var result = RenderWire.result(line, jobs: byIdentity) else { return }
                    if let job = byIdentity[result.identity] { result.path = store.path(for: job.key) }
                    collected.add(result)
                    onResult(result)
                }
                group.leave()
            }
        }
        group.wait()
        var results = collected.all
        var answered = Set(results.map(\.identity))
        for (process, shard, jobFile) in processes {
            process.waitUntilExit()
            try? FileManager.default.removeItem(atPath: jobFile)
            // A worker that died leaves jobs without results: report them, do not lose them.
            for job in shard where !answered.contains(job.identity) {
                let failure = RenderResult(job: job, status: .failed, path: store.path(for: job.key),
                                           error: "worker exited with status \(process.terminationStatus) before this clip")
                results.append(failure)
                answered.insert(job.identity)
                onResult(failure)
            }
        }
        return results
    }

    /// Job files are named for their worker: `.render-jobs.worker<N>-<pid>-<random>`.
    static let workerTags = (0..<64).map { "worker\($0)" }

    /// The worker side: renders each job into the store and emits one result per job.
    ///
    /// Two clips at a time: espeak-ng (one synthesizer per process) speaks one while the other is
    /// trimmed, measured and written on another thread. A worker then keeps more than one core
    /// busy, which fills the cores a worker that finished its share early leaves idle. Results
    /// are emitted from this task only, in the order they finish.
    public static func work(_ jobs: [RenderJob], store: ClipStore, pronouncer: Pronouncer, emit: (RenderResult) -> Void) async {
        await withTaskGroup(of: RenderResult.self) { group in
            var next = 0
            while next < min(pipelineDepth, jobs.count) {
                let job = jobs[next]
                group.addTask { await render(job, store: store, pronouncer: pronouncer) }
                next += 1
            }
            while let result = await group.next() {
                emit(result)
                if next < jobs.count {
                    let job = jobs[next]
                    group.addTask { await render(job, store: store, pronouncer: pronouncer) }
                    next += 1
                }
            }
        }
    }

    /// Clips a worker has in hand at once (see `work`).
    static let pipelineDepth = 2

    static func render(_ job: RenderJob, store: ClipStore, pronouncer: Pronouncer) async -> RenderResult {
        let path = store.path(for: job.key)
        do {
            let p = try await pronouncer.pronounce(job.request)
            let stored = try store.save(p, key: job.key, word: job.word, inputs: job.inputs)
            return RenderResult(job: job, status: .rendered, path: path, tier: p.clip.tier, source: p.clip.source,
                                duration: stored.record.duration, skipped: p.skipped.isEmpty ? nil : p.skipped)
        } catch {
            return RenderResult(job: job, status: .failed, path: path, error: String(describing: error))
        }
    }

    static func readLines(_ fd: Int32, _ body: (Substring) -> Void) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            pending.append(contentsOf: buffer[0..<n])
            var start = 0
            while let newline = pending[start...].firstIndex(of: 0x0A) {
                body(Substring(decoding: pending[start..<newline], as: UTF8.self))
                start = newline + 1
            }
            pending.removeFirst(start)
        }
        if !pending.isEmpty { body(Substring(decoding: pending, as: UTF8.self)) }
    }

    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var results: [RenderResult] = []
        func add(_ r: RenderResult) { lock.withLock { results.append(r) } }
        var all: [RenderResult] { lock.withLock { results } }
    }
}

/// Jobs and results as tab-separated lines, for the pipe between `render` and its workers.
/// Fields escape `\`, tab and newline; an absent value is `\0`. Both ends are this file.
public enum RenderWire {
    static func escape(_ s: String?) -> String {
        guard let s else { return "\\0" }
        guard s.utf8.contains(where: { $0 == 0x5C || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else { return s }
        var out = ""
        for ch in s {
            switch ch {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.append(ch)
            }
        }
        return out
    }

    static func unescape(_ s: Substring) -> String? {
        if s == "\\0" { return nil }
        guard s.utf8.contains(0x5C) else { return String(s) }
        var out = ""
        var escaping = false
        for ch in s {
            if escaping {
                switch ch {
                case "t": out.append("\t")
                case "n": out.append("\n")
                case "r": out.append("\r")
                default: out.append(ch)
                }
                escaping = false
            } else if ch == "\\" {
                escaping = true
            } else {
                out.append(ch)
            }
        }
        return out
    }

    static func fields(_ line: Substring) -> [Substring] { line.split(separator: "\t", omittingEmptySubsequences: false) }

    public static func line(_ job: RenderJob) -> String {
        [job.entry.description, job.word, job.accent.rawValue, job.references?.recorded, job.references?.legacy,
         job.format.rawValue, job.reading, job.spoken, job.isFirstReading ? "1" : "0", job.inputs]
            .map(escape).joined(separator: "\t") + "\n"
    }

    public static func job(_ line: Substring) -> RenderJob? {
        let f = fields(line)
        guard f.count == 10, let entryText = unescape(f[0]), let entry = EntryReference(entryText), let word = unescape(f[1]),
              let accent = unescape(f[2]).flatMap(Accent.init(rawValue:)), let format = unescape(f[5]).flatMap(AudioFormat.init(rawValue:))
        else { return nil }
        let recorded = unescape(f[3]), legacy = unescape(f[4])
        return RenderJob(entry: entry, word: word, accent: accent,
                         references: recorded == nil && legacy == nil ? nil : AudioReferences(recorded: recorded, legacy: legacy),
                         format: format, reading: unescape(f[6]), spoken: unescape(f[7]), isFirstReading: f[8] == "1",
                         inputs: unescape(f[9]) ?? "")
    }

    /// A result line: the job's identity, status, tier, source, duration, error, then the skips
    /// as tier, absence flag and reason, three fields each.
    public static func line(_ result: RenderResult) -> String {
        var fields: [String?] = [result.entry, result.accent.rawValue, result.reading, result.status.rawValue, result.tier?.rawValue,
                                 result.source, result.duration.map { String($0) }, result.error]
        for skip in result.skipped ?? [] { fields += [skip.tier.rawValue, skip.isAbsence ? "1" : "0", skip.reason] }
        return fields.map(escape).joined(separator: "\t") + "\n"
    }

    static func result(_ line: Substring, jobs: [String: RenderJob]) -> RenderResult? {
        let f = fields(line)
        guard f.count >= 8, (f.count - 8) % 3 == 0, let entry = unescape(f[0]), let accent = unescape(f[1]),
              let job = jobs["\(entry)\u{0}\(accent)\u{0}\(unescape(f[2]) ?? "")"],
              let status = unescape(f[3]).flatMap(RenderResult.Status.init(rawValue:)) else { return nil }
        var skipped: [TierSkip] = []
        var i = 8
        while i + 2 < f.count {
            if let tier = unescape(f[i]).flatMap(Tier.init(rawValue:)) {
                skipped.append(TierSkip(tier: tier, reason: unescape(f[i + 2]) ?? "", isAbsence: f[i + 1] == "1"))
            }
            i += 3
        }
        return RenderResult(job: job, status: status, path: "", tier: unescape(f[4]).flatMap(Tier.init(rawValue:)), source: unescape(f[5]),
                            duration: unescape(f[6]).flatMap(Double.init), error: unescape(f[7]), skipped: skipped.isEmpty ? nil : skipped)
    }
}

/// The manifest of a render: every clip with word, entry, accent, reading, status, tier, source,
/// duration and path, as JSON or CSV.
public enum RenderManifest {
    public enum Format: String, CaseIterable, Sendable { case json, csv }

    public static func write(_ results: [RenderResult], to path: String, format: Format) throws {
        let bytes: [UInt8]
        switch format {
        case .csv:
            func field(_ s: String?) -> String {
                let s = s ?? ""
                return s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
                    ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
            }
            var text = "word,entry,accent,reading,status,tier,source,duration,path,error\n"
            for r in results {
                text += [field(r.word), field(r.entry), r.accent.rawValue, field(r.reading), r.status.rawValue, r.tier?.rawValue ?? "",
                         field(r.source), r.duration.map { String(format: "%.3f", $0) } ?? "", field(r.path), field(r.error)]
                    .joined(separator: ",") + "\n"
            }
            bytes = Array(text.utf8)
        case .json:
            bytes = Array(json(results).utf8)
        }
        try DurableFile.write(bytes, to: path, durable: false)
    }

    /// The JSON manifest, as JSONEncoder writes it with `.prettyPrinted, .sortedKeys,
    /// .withoutEscapingSlashes` (a test holds them to the same bytes), written by hand: encoding
    /// thousands of results took a tenth of a second of the render's serial part.
    static func json(_ results: [RenderResult]) -> String {
        guard !results.isEmpty else { return "[\n\n]" }
        var out = "[\n"
        for (index, r) in results.enumerated() {
            var fields: [(String, String)] = [("accent", ClipRecord.quoted(r.accent.rawValue))]
            if let duration = r.duration { fields.append(("duration", String(duration))) }
            fields.append(("entry", ClipRecord.quoted(r.entry)))
            if let error = r.error { fields.append(("error", ClipRecord.quoted(error))) }
            fields.append(("path", ClipRecord.quoted(r.path)))
            if let reading = r.reading { fields.append(("reading", ClipRecord.quoted(reading))) }
            if let skipped = r.skipped {
                let items = skipped.map { skip -> String in
                    var inner: [(String, String)] = []
                    if !skip.isAbsence { inner.append(("broken", "true")) }
                    inner += [("reason", ClipRecord.quoted(skip.reason)), ("tier", ClipRecord.quoted(skip.tier.rawValue))]
                    return "      {\n" + inner.map { "        \"\($0.0)\" : \($0.1)" }.joined(separator: ",\n") + "\n      }"
                }
                fields.append(("skipped", items.isEmpty ? "[\n\n    ]" : "[\n" + items.joined(separator: ",\n") + "\n    ]"))
            }
            if let source = r.source { fields.append(("source", ClipRecord.quoted(source))) }
            fields.append(("status", ClipRecord.quoted(r.status.rawValue)))
            if let tier = r.tier { fields.append(("tier", ClipRecord.quoted(tier.rawValue))) }
            fields.append(("word", ClipRecord.quoted(r.word)))
            out += "  {\n" + fields.map { "    \"\($0.0)\" : \($0.1)" }.joined(separator: ",\n") + "\n  }"
            out += index == results.count - 1 ? "\n" : ",\n"
        }
        return out + "]"
    }
}
