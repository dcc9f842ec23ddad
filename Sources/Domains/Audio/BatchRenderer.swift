import AudioFile
import FileAccess
import Foundation
import JSONReading
import Spawning
import Speech
import Vocabulary

#if canImport(Glibc)
    import Glibc
#endif

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
    /// The pace (1: the voice's own).
    public var speed: Double

    public init(
        entry: EntryReference, word: String, accent: Accent, references: AudioReferences?, format: AudioFormat,
        reading: String? = nil, spoken: String? = nil, isFirstReading: Bool = true, inputs: String = "", speed: Double = 1
    ) {
        self.entry = entry
        self.word = word
        self.accent = accent
        self.references = references
        self.format = format
        self.reading = reading
        self.spoken = spoken
        self.isFirstReading = isFirstReading
        self.inputs = inputs
        self.speed = speed
    }

    public var request: ClipRequest {
        ClipRequest(
            word: word, accent: accent, references: references, entry: entry, reading: reading, spoken: spoken,
            isFirstReading: isFirstReading, speed: speed)
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

    public init(
        job: RenderJob, status: Status, path: String, tier: Tier? = nil, source: String? = nil, duration: Double? = nil,
        error: String? = nil, skipped: [TierSkip]? = nil
    ) {
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
/// synthesizer each: libespeak-ng keeps one per process): each is handed a few jobs at a time
/// and a new one for each result that streams back, so none runs out of work while another
/// still has a queue. Clips already in the store, made from the same inputs and
/// readable, are kept with the tier and source recorded beside them.
///
/// Jobs and results cross as tab-separated lines (`RenderWire`), not JSON: encoding
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
    /// stamps each job with the fingerprint of its inputs. Jobs are planned on every core (each
    /// looks at the files of its tiers and its stored clip), in the order given.
    public func plan(_ jobs: [RenderJob], force: Bool) -> (kept: [RenderResult], pending: [RenderJob]) {
        let chunk = 64
        let chunks = (jobs.count + chunk - 1) / chunk
        let planned = PlannedJobs(count: jobs.count)
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
            for i in c * chunk..<min(jobs.count, (c + 1) * chunk) {
                var job = jobs[i]
                job.inputs = planner.inputs(of: job.request)
                if !force, let stored = store.stored(job.key, inputs: job.inputs), let info = try? AudioFile.inspect(stored.path) {
                    planned.set(
                        i,
                        .kept(
                            RenderResult(
                                job: job, status: .kept, path: stored.path, tier: stored.record.tier,
                                source: stored.record.source, duration: (info.duration * 1000).rounded() / 1000)))
                } else {
                    planned.set(i, .pending(job))
                }
            }
        }
        var kept: [RenderResult] = []
        var pending: [RenderJob] = []
        for outcome in planned.all {
            switch outcome {
            case .kept(let result): kept.append(result)
            case .pending(let job): pending.append(job)
            case nil: break
            }
        }
        return (kept, pending)
    }

    /// Each slot written by one planning thread only.
    private final class PlannedJobs: @unchecked Sendable {
        enum Outcome {
            case kept(RenderResult)
            case pending(RenderJob)
        }
        private let lock = NSLock()
        private var outcomes: [Outcome?]
        init(count: Int) { outcomes = Array(repeating: nil, count: count) }
        func set(_ index: Int, _ outcome: Outcome) { lock.withLock { outcomes[index] = outcome } }
        var all: [Outcome?] { lock.withLock { outcomes } }
    }

    /// Starts the worker processes, before the jobs are known: their start-up (a process, a
    /// synthesizer) then overlaps the loading and planning. They wait for jobs on their input.
    /// With a `count` (the jobs, when they are known), no more than that: none for no jobs.
    public func startWorkers(count: Int? = nil) throws -> RenderWorkers {
        try RenderWorkers(command: workerCommand + ["--out", store.root], count: max(0, min(count ?? workers, workers)))
    }

    /// Renders `jobs` with up to `workers` processes; `onResult` sees each result as it arrives.
    public func render(_ jobs: [RenderJob], onResult: @escaping @Sendable (RenderResult) -> Void) throws -> [RenderResult] {
        try render(jobs, with: startWorkers(count: jobs.count), onResult: onResult)
    }

    /// Renders `jobs` on `workers` (which this ends), handing each worker a job whenever one of
    /// its few outstanding ones comes back: a worker that speaks faster, or got shorter words,
    /// takes more, so all finish together. A worker takes one voice's jobs while there are any
    /// (a change of voice reloads espeak-ng's dictionary), then the other's.
    public func render(
        _ jobs: [RenderJob], with workers: RenderWorkers,
        onResult: @escaping @Sendable (RenderResult) -> Void
    ) throws -> [RenderResult] {
        defer { workers.finish() }
        // What a killed render left (half-written clips, records and manifests, the job files of
        // earlier versions) is of no use to anyone; cleaned even when nothing is left to render.
        // Only the folders the store owns are searched: the output folder may be anybody's.
        TemporaryFile.removeStale(in: store.root, tags: ["writing"] + Self.workerTags)
        for accent in Accent.allCases {
            TemporaryFile.removeStale(in: store.root + "/" + accent.rawValue, tags: ["writing"], recursive: true)
        }
        guard !jobs.isEmpty else { return [] }
        try DurableFile.createDirectory(store.root)
        let queue = JobQueue(jobs)
        let collected = Collected()
        let group = DispatchGroup()
        let store = self.store
        for (index, worker) in workers.all.enumerated() {
            group.enter()
            Thread.detachNewThread {
                Self.serve(worker, index: index, queue: queue, store: store) { result in
                    collected.add(result)
                    onResult(result)
                }
                group.leave()
            }
        }
        group.wait()
        // Every worker died: what none of them took is reported, not lost.
        for job in queue.takeAll() {
            let failure = RenderResult(job: job, status: .failed, path: store.path(for: job.key), error: "no worker was left to render this clip")
            collected.add(failure)
            onResult(failure)
        }
        return collected.all
    }

    /// Jobs a worker has been handed and not yet answered: enough that it never waits for the
    /// next one (it works on `pipelineDepth` at once), few enough to share out the last ones.
    static let outstandingPerWorker = 4

    /// One worker's conversation, on a thread of its own: hands it jobs, reads its results,
    /// and reports the jobs it was holding if it dies.
    private static func serve(
        _ worker: RenderWorkers.Worker, index: Int, queue: JobQueue, store: ClipStore,
        report: (RenderResult) -> Void
    ) {
        var outstanding: [String: RenderJob] = [:]
        var open = true
        func handOver() {
            guard open else { return }
            guard let job = queue.next(for: index) else {
                worker.endInput()
                open = false
                return
            }
            if worker.send(RenderWire.line(job)) {
                outstanding[job.identity] = job
            } else {
                queue.putBack(job)
                worker.endInput()
                open = false
            }
        }
        for _ in 0..<outstandingPerWorker { handOver() }
        readLines(worker.output) { line in
            guard var result = RenderWire.result(line, jobs: outstanding) else { return }
            guard let job = outstanding.removeValue(forKey: result.identity) else { return }
            result.path = store.path(for: job.key)
            report(result)
            handOver()
        }
        let status = worker.wait()
        // A worker that died leaves jobs without results: report them, do not lose them.
        for job in outstanding.values.sorted(by: { $0.identity < $1.identity }) {
            report(
                RenderResult(
                    job: job, status: .failed, path: store.path(for: job.key),
                    error: "worker ended (\(status)) before this clip"))
        }
    }

    /// Job files of earlier versions were named for their worker: `.render-jobs.worker<N>-<pid>-<random>`.
    static let workerTags = (0..<64).map { "worker\($0)" }

    /// The worker side: renders each job that arrives on `input` (one `RenderWire` line each)
    /// into the store and emits one result per job, until the input ends.
    public static func work(input: Int32, store: ClipStore, pronouncer: Pronouncer, emit: (RenderResult) -> Void) async {
        let (jobs, arriving) = AsyncStream<RenderJob>.makeStream()
        Thread.detachNewThread {
            readLines(input) { line in
                if let job = RenderWire.job(line) { arriving.yield(job) }
            }
            arriving.finish()
        }
        await work(jobs, store: store, pronouncer: pronouncer, emit: emit)
    }

    /// Two clips at a time: espeak-ng (one synthesizer per process) speaks one while the other is
    /// trimmed, measured and written on another thread. Results are emitted from this task
    /// only, in the order they finish.
    static func work(_ jobs: AsyncStream<RenderJob>, store: ClipStore, pronouncer: Pronouncer, emit: (RenderResult) -> Void) async {
        await withTaskGroup(of: RenderResult.self) { group in
            var next = jobs.makeAsyncIterator()
            var running = 0
            while running < pipelineDepth, let job = await next.next() {
                group.addTask { await render(job, store: store, pronouncer: pronouncer) }
                running += 1
            }
            while let result = await group.next() {
                emit(result)
                if let job = await next.next() {
                    group.addTask { await render(job, store: store, pronouncer: pronouncer) }
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
            return RenderResult(
                job: job, status: .rendered, path: path, tier: p.clip.tier, source: p.clip.source,
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

    /// The jobs not yet handed out, one queue per voice, in the order given.
    final class JobQueue: @unchecked Sendable {
        private let lock = NSLock()
        /// Reversed, so that the next job is the last.
        private var queues: [[RenderJob]]

        init(_ jobs: [RenderJob]) {
            var byVoice: [Accent: [RenderJob]] = [:]
            for job in jobs { byVoice[job.accent, default: []].append(job) }
            queues = byVoice.sorted { $0.key.rawValue < $1.key.rawValue }.map { $0.value.reversed() }
        }

        /// The next job for worker `index`: from its own voice's queue while it has jobs.
        func next(for index: Int) -> RenderJob? {
            lock.withLock {
                for offset in 0..<queues.count {
                    if let job = queues[(index + offset) % queues.count].popLast() { return job }
                }
                return nil
            }
        }

        func putBack(_ job: RenderJob) { lock.withLock { queues.append([job]) } }

        func takeAll() -> [RenderJob] {
            lock.withLock {
                defer { queues = [] }
                return queues.flatMap { $0.reversed() }
            }
        }
    }
}

/// The worker processes of a render: each reads jobs on its standard input (a socket, so that
/// writing to a worker that died is an error, not SIGPIPE) and writes results on its output.
public final class RenderWorkers: @unchecked Sendable {
    struct Worker: @unchecked Sendable {
        let child: SocketChild
        var process: ChildProcess { child.process }
        /// The renderer's end of the worker's standard input.
        var input: Int32 { child.input }
        /// The read end of the worker's standard output.
        var output: Int32 { child.output }

        func send(_ line: String) -> Bool {
            var line = line
            return line.withUTF8 { child.send(UnsafeRawBufferPointer($0)) }
        }

        /// The worker finishes what it holds, then exits.
        func endInput() { child.endInput() }

        func wait() -> ChildProcess.Termination { process.waitUntilExit() }
    }

    let all: [Worker]
    private let finished = NSLock()
    private var isFinished = false

    init(command: [String], count: Int) throws {
        var started: [Worker] = []
        do {
            for _ in 0..<count {
                let child = try SocketChild.start(command[0], arguments: Array(command.dropFirst()))
                started.append(Worker(child: child))
            }
        } catch {
            all = started
            finish()
            throw error
        }
        all = started
    }

    /// Ends every worker's input and waits for them; what they were given is theirs to finish.
    public func finish() {
        let first = finished.withLock {
            defer { isFinished = true }
            return !isFinished
        }
        guard first else { return }
        for worker in all {
            worker.endInput()
            _ = worker.wait()
            close(worker.input)
            close(worker.output)
        }
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
        [
            job.entry.description, job.word, job.accent.rawValue, job.references?.recorded, job.references?.legacy,
            job.format.rawValue, job.reading, job.spoken, job.isFirstReading ? "1" : "0", job.inputs, ClipKey.speedLabel(job.speed),
        ]
        .map(escape).joined(separator: "\t") + "\n"
    }

    public static func job(_ line: Substring) -> RenderJob? {
        let f = fields(line)
        guard f.count == 11, let speed = unescape(f[10]).flatMap(Double.init), let entryText = unescape(f[0]), let entry = EntryReference(entryText),
            let word = unescape(f[1]),
            let accent = unescape(f[2]).flatMap(Accent.init(rawValue:)), let format = unescape(f[5]).flatMap(AudioFormat.init(rawValue:))
        else { return nil }
        let recorded = unescape(f[3])
        let legacy = unescape(f[4])
        return RenderJob(
            entry: entry, word: word, accent: accent,
            references: recorded == nil && legacy == nil ? nil : AudioReferences(recorded: recorded, legacy: legacy),
            format: format, reading: unescape(f[6]), spoken: unescape(f[7]), isFirstReading: f[8] == "1",
            inputs: unescape(f[9]) ?? "", speed: speed)
    }

    /// A result line: the job's identity, status, tier, source, duration, error, then the skips
    /// as tier, absence flag and reason, three fields each.
    public static func line(_ result: RenderResult) -> String {
        var fields: [String?] = [
            result.entry, result.accent.rawValue, result.reading, result.status.rawValue, result.tier?.rawValue,
            result.source, result.duration.map { String($0) }, result.error,
        ]
        for skip in result.skipped ?? [] { fields += [skip.tier.rawValue, skip.isAbsence ? "1" : "0", skip.reason] }
        return fields.map(escape).joined(separator: "\t") + "\n"
    }

    static func result(_ line: Substring, jobs: [String: RenderJob]) -> RenderResult? {
        let f = fields(line)
        guard f.count >= 8, (f.count - 8) % 3 == 0, let entry = unescape(f[0]), let accent = unescape(f[1]),
            let job = jobs["\(entry)\u{0}\(accent)\u{0}\(unescape(f[2]) ?? "")"],
            let status = unescape(f[3]).flatMap(RenderResult.Status.init(rawValue:))
        else { return nil }
        var skipped: [TierSkip] = []
        var i = 8
        while i + 2 < f.count {
            if let tier = unescape(f[i]).flatMap(Tier.init(rawValue:)) {
                skipped.append(TierSkip(tier: tier, reason: unescape(f[i + 2]) ?? "", isAbsence: f[i + 1] == "1"))
            }
            i += 3
        }
        return RenderResult(
            job: job, status: status, path: "", tier: unescape(f[4]).flatMap(Tier.init(rawValue:)), source: unescape(f[5]),
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
                text +=
                    [
                        field(r.word), field(r.entry), r.accent.rawValue, field(r.reading), r.status.rawValue, r.tier?.rawValue ?? "",
                        field(r.source), r.duration.map { String(format: "%.3f", $0) } ?? "", field(r.path), field(r.error),
                    ]
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
        out.reserveCapacity(results.count * 400)
        // Keys in sorted order, as the encoder writes them; the first of an object has no comma.
        func key(_ name: String, first: Bool = false) {
            out += first ? "    \"" : ",\n    \""
            out += name
            out += "\" : "
        }
        func string(_ name: String, _ value: String, first: Bool = false) {
            key(name, first: first)
            JSONQuoting.append(value, to: &out)
        }
        for (index, r) in results.enumerated() {
            out += "  {\n"
            string("accent", r.accent.rawValue, first: true)
            if let duration = r.duration {
                key("duration")
                out += JSONQuoting.number(duration) ?? "null" // a clip's length is always finite
            }
            string("entry", r.entry)
            if let error = r.error { string("error", error) }
            string("path", r.path)
            if let reading = r.reading { string("reading", reading) }
            if let skipped = r.skipped {
                key("skipped")
                if skipped.isEmpty {
                    out += "[\n\n    ]"
                } else {
                    out += "[\n"
                    for (i, skip) in skipped.enumerated() {
                        out += "      {\n"
                        if !skip.isAbsence { out += "        \"broken\" : true,\n" }
                        out += "        \"reason\" : "
                        JSONQuoting.append(skip.reason, to: &out)
                        out += ",\n        \"tier\" : "
                        JSONQuoting.append(skip.tier.rawValue, to: &out)
                        out += i == skipped.count - 1 ? "\n      }" : "\n      },\n"
                    }
                    out += "\n    ]"
                }
            }
            if let source = r.source { string("source", source) }
            string("status", r.status.rawValue)
            if let tier = r.tier { string("tier", tier.rawValue) }
            string("word", r.word)
            out += index == results.count - 1 ? "\n  }\n" : "\n  },\n"
        }
        return out + "]"
    }
}
