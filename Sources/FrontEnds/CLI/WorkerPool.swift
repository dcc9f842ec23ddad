import CLICore
import ArgumentParser
import AudioFile
import Audio
import Foundation

/// Shares render jobs among worker processes (`vocab render-worker`), one synthesizer each,
/// and gathers their results as they stream back, one JSON line per clip.
struct WorkerPool {
    let workers: Int
    let environment: VocabEnvironment
    /// Where job files are written for the workers (removed afterwards).
    let scratch: String

    func run(_ jobs: [RenderJob], onResult: @escaping @Sendable (RenderResult) -> Void) throws -> [RenderResult] {
        guard !jobs.isEmpty else { return [] }
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let collected = Collected()
        let group = DispatchGroup()
        var processes: [(Process, [RenderJob], String)] = []
        let encoder = JSONEncoder()
        for index in 0..<workers {
            // Round-robin keeps alphabetical neighbours (often similar lengths) on different workers.
            let shard = stride(from: index, to: jobs.count, by: workers).map { jobs[$0] }
            guard !shard.isEmpty else { continue }
            let jobFile = "\(scratch)/.render-jobs-\(getpid())-\(index).jsonl"
            var lines = Data()
            for job in shard { lines.append(try encoder.encode(job)); lines.append(0x0A) }
            try lines.write(to: URL(fileURLWithPath: jobFile))

            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["render-worker", "--jobs-file", jobFile, "--audio", environment.audioDirectory,
                                 "--cache", environment.clipCacheDirectory]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
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
            let answered = Set(results.map(\.path))
            for job in shard where !answered.contains(job.path) {
                let failure = RenderResult(word: job.word, accent: job.accent, status: .failed, path: job.path,
                                           error: "worker exited with status \(process.terminationStatus) before this clip")
                results.append(failure)
                onResult(failure)
            }
        }
        return results
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

/// The worker side of `vocab render`: renders the jobs in a file and streams one JSON result
/// line per clip on standard output.
struct RenderWorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render-worker", abstract: "Internal: one worker process of 'vocab render'.", shouldDisplay: false)

    @Option(name: .long) var jobsFile: String
    @Option(name: .long) var audio: String
    @Option(name: .long) var cache: String

    func run() async throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: jobsFile))
        let decoder = JSONDecoder(), encoder = JSONEncoder()
        let pronouncer = try AudioSetup(environment: VocabEnvironment(categories: nil, home: nil)).pronouncer(audioRoot: audio, cacheDirectory: cache)
        for line in data.split(separator: 0x0A) where !line.isEmpty {
            let job = try decoder.decode(RenderJob.self, from: line)
            var result: RenderResult
            do {
                let p = try await pronouncer.pronounce(ClipRequest(word: job.word, accent: job.accent, references: job.references))
                try AudioFile.write(p.clip.pcm, to: job.path, format: job.format)
                result = RenderResult(word: job.word, accent: job.accent, status: .rendered, tier: p.clip.tier, source: p.clip.source,
                                      duration: (p.clip.pcm.duration * 1000).rounded() / 1000, path: job.path,
                                      skipped: p.skipped.isEmpty ? nil : p.skipped)
            } catch {
                result = RenderResult(word: job.word, accent: job.accent, status: .failed, path: job.path, error: String(describing: error))
            }
            var out = try encoder.encode(result)
            out.append(0x0A)
            FileHandle.standardOutput.write(out)
        }
    }
}
