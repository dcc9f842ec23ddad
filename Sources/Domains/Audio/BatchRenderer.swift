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

    public init(entry: EntryReference, word: String, accent: Accent, references: AudioReferences?, format: AudioFormat) {
        self.entry = entry
        self.word = word
        self.accent = accent
        self.references = references
        self.format = format
    }

    public var key: ClipKey { ClipKey(entry: entry, accent: accent, format: format) }
    public var request: ClipRequest { ClipRequest(word: word, accent: accent, references: references) }
}

/// One line of the manifest.
public struct RenderResult: Codable, Sendable {
    public enum Status: String, Codable, Sendable { case rendered, kept, failed }
    public var word: String
    public var entry: String
    public var accent: Accent
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
        self.status = status
        self.tier = tier
        self.source = source
        self.duration = duration
        self.path = path
        self.error = error
        self.skipped = skipped
    }
}

/// Renders many clips into a clip store, sharing the work among worker processes (one
/// synthesizer each: libespeak-ng keeps one per process), and gathers their results as they
/// stream back, one JSON line per clip. Clips already in the store, made from the same inputs
/// and readable, are kept with the tier and source recorded beside them.
public struct BatchRenderer: Sendable {
    public let store: ClipStore
    public let workers: Int
    /// The worker program and its leading arguments; the renderer adds `--jobs-file FILE`.
    public let workerCommand: [String]

    public init(store: ClipStore, workers: Int, workerCommand: [String]) {
        self.store = store
        self.workers = workers
        self.workerCommand = workerCommand
    }

    /// Splits the jobs into those whose clip is already there (kept) and those to render.
    public func plan(_ jobs: [RenderJob], force: Bool) -> (kept: [RenderResult], pending: [RenderJob]) {
        var kept: [RenderResult] = [], pending: [RenderJob] = []
        for job in jobs {
            if !force, let stored = store.stored(job.key, inputs: ClipStore.inputs(of: job.request)),
               let info = try? AudioFile.inspect(stored.path) {
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
        let encoder = JSONEncoder()
        let count = min(workers, jobs.count)
        for index in 0..<count {
            // Round-robin keeps alphabetical neighbours (often similar lengths) on different workers.
            let shard = stride(from: index, to: jobs.count, by: count).map { jobs[$0] }
            let jobFile = TemporaryFile.path(beside: jobBase, tag: "worker\(index)")
            var lines = Data()
            for job in shard { lines.append(try encoder.encode(job)); lines.append(0x0A) }
            try lines.write(to: URL(fileURLWithPath: jobFile))

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
            Thread.detachNewThread {
                Self.readLines(fd) { line in
                    guard let result = try? JSONDecoder().decode(RenderResult.self, from: line) else { return }
                    collected.add(result)
                    onResult(result)
                }
                group.leave()
            }
        }
        group.wait()
        var results = collected.all
        for (process, shard, jobFile) in processes {
            process.waitUntilExit()
            try? FileManager.default.removeItem(atPath: jobFile)
            // A worker that died leaves jobs without results: report them, do not lose them.
            let answered = Set(results.map { "\($0.entry)\u{0}\($0.accent.rawValue)" })
            for job in shard where !answered.contains("\(job.entry.description)\u{0}\(job.accent.rawValue)") {
                let failure = RenderResult(job: job, status: .failed, path: store.path(for: job.key),
                                           error: "worker exited with status \(process.terminationStatus) before this clip")
                results.append(failure)
                onResult(failure)
            }
        }
        return results
    }

    /// Job files are named for their worker: `.render-jobs.worker<N>-<pid>-<random>`.
    static let workerTags = (0..<64).map { "worker\($0)" }

    /// The worker side: renders each job into the store and emits one result per job.
    public static func work(_ jobs: [RenderJob], store: ClipStore, pronouncer: Pronouncer, emit: (RenderResult) -> Void) async {
        for job in jobs {
            let path = store.path(for: job.key)
            do {
                let p = try await pronouncer.pronounce(job.request)
                let stored = try store.save(p, key: job.key, word: job.word, inputs: ClipStore.inputs(of: job.request))
                emit(RenderResult(job: job, status: .rendered, path: path, tier: p.clip.tier, source: p.clip.source,
                                  duration: stored.record.duration, skipped: p.skipped.isEmpty ? nil : p.skipped))
            } catch {
                emit(RenderResult(job: job, status: .failed, path: path, error: String(describing: error)))
            }
        }
    }

    static func readLines(_ fd: Int32, _ body: (Data) -> Void) {
        var pending = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            pending.append(contentsOf: buffer[0..<n])
            while let newline = pending.firstIndex(of: 0x0A) {
                body(pending[pending.startIndex..<newline])
                pending.removeSubrange(pending.startIndex...newline)
            }
        }
        if !pending.isEmpty { body(pending) }
    }

    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var results: [RenderResult] = []
        func add(_ r: RenderResult) { lock.withLock { results.append(r) } }
        var all: [RenderResult] { lock.withLock { results } }
    }
}

/// The manifest of a render: every clip with word, entry, accent, status, tier, source,
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
            var text = "word,entry,accent,status,tier,source,duration,path,error\n"
            for r in results {
                text += [field(r.word), field(r.entry), r.accent.rawValue, r.status.rawValue, r.tier?.rawValue ?? "", field(r.source),
                         r.duration.map { String(format: "%.3f", $0) } ?? "", field(r.path), field(r.error)].joined(separator: ",") + "\n"
            }
            bytes = Array(text.utf8)
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            bytes = Array(try encoder.encode(results))
        }
        try DurableFile.write(bytes, to: path, durable: false)
    }
}
