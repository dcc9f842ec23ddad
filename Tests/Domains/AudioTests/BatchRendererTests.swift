import Audio
import Foundation
import TestSupport
import Testing
import Vocabulary

/// The renderer's side of the worker protocol, with real processes: small shell workers that
/// read job lines on their input and answer result lines (`RenderWire`), or die on purpose.
@Suite("Batch renderer: jobs handed to worker processes as they answer")
struct BatchRendererTests {
    /// Answers each job line with a rendered result for it; with `dieAfter`, exits with status 3
    /// on reading that many jobs, without answering the last.
    static func worker(dieAfter: Int? = nil) -> [String] {
        let script = """
            n=0
            while IFS= read -r line; do
              n=$((n + 1))
              \(dieAfter.map { "[ $n -ge \($0) ] && exit 3" } ?? ":")
              printf '%s\\t%s\\t%s\\trendered\\ttts\\ttest worker\\t0.5\\t\\\\0\\n' \
                "$(printf '%s' "$line" | cut -f1)" "$(printf '%s' "$line" | cut -f3)" "$(printf '%s' "$line" | cut -f7)"
            done
            """
        return ["/bin/sh", "-c", script, "worker"]
    }

    static func jobs(_ count: Int) -> [RenderJob] {
        (0..<count).map { i in
            RenderJob(
                entry: EntryReference(.catalog, "animals/word\(i)"), word: "word\(i)", accent: i % 2 == 0 ? .british : .american,
                references: nil, format: .wav)
        }
    }

    static func renderer(_ dir: TemporaryDirectory, workers: Int, command: [String]) -> BatchRenderer {
        BatchRenderer(store: ClipStore(root: dir.file("out")), workers: workers, workerCommand: command, planner: Pronouncer(sources: []))
    }

    @Test("every job is answered exactly once, whichever worker took it")
    func everyJobOnce() throws {
        let dir = try TemporaryDirectory("batch-renderer")
        defer { dir.remove() }
        let jobs = Self.jobs(60)
        let results = try Self.renderer(dir, workers: 3, command: Self.worker()).render(jobs) { _ in }
        #expect(results.count == 60)
        #expect(Set(results.map(\.entry)) == Set(jobs.map(\.entry.description)))
        #expect(results.allSatisfy { $0.status == .rendered && $0.source == "test worker" && $0.path.hasPrefix(dir.file("out")) })
    }

    @Test("a worker that dies has its unanswered jobs reported as failed; the others take the rest")
    func aDyingWorkerLosesNothing() throws {
        let dir = try TemporaryDirectory("batch-renderer")
        defer { dir.remove() }
        let jobs = Self.jobs(40)
        // Every worker dies on its fifth job: four answered each, then what they held fails,
        // and what none of them took is reported too.
        let results = try Self.renderer(dir, workers: 2, command: Self.worker(dieAfter: 5)).render(jobs) { _ in }
        #expect(results.count == 40)
        #expect(Set(results.map(\.entry)).count == 40, "one result per job")
        #expect(results.filter { $0.status == .rendered }.count == 8)
        let failed = results.filter { $0.status == .failed }
        #expect(failed.contains { $0.error == "worker ended (exit status 3) before this clip" })
        #expect(failed.contains { $0.error == "no worker was left to render this clip" })
    }

    @Test("workers started early and given nothing exit at once")
    func nothingToRender() throws {
        let dir = try TemporaryDirectory("batch-renderer")
        defer { dir.remove() }
        let renderer = Self.renderer(dir, workers: 2, command: Self.worker())
        let workers = try renderer.startWorkers()
        #expect(try renderer.render([], with: workers) { _ in }.isEmpty)
    }
}
