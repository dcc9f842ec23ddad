import Foundation
import TestSupport
import Testing

/// `vocab say` and `vocab render` with the neural voice the project installs, found the way an
/// installed vocab finds it (`VOCAB_NEURAL_VOICE` unset: `neural-voice/` beside the checkout).
@Suite("The neural voice from the command line: say, render, pace, a voice that dies mid-batch", .serialized)
struct NeuralVoiceCommandTests {
    let vocab: EditableCatalog
    var environment: [String: String] { vocab.environment.merging(["VOCAB_NEURAL_VOICE": ""]) { _, new in new } }

    init() throws { vocab = try EditableCatalog() }

    func run(_ args: [String], environment extra: [String: String] = [:]) async throws -> ProcessResult {
        try await runProcessOnThread(Repository.vocabExecutable, args, environment: environment.merging(extra) { _, new in new })
    }

    @Test func sayUsesTheNeuralVoiceAndSaysSoHonestly() async throws {
        defer { vocab.dir.remove() }
        let british = try await run(["say", "elephant"])
        #expect(british.status == 0, "\(british.stderr)")
        #expect(
            british.stdout.contains("elephant (british): neural from hibari-tts 0.2.1 heart (neural, American voice, British pronunciation)"),
            "\(british.stdout)")
        let american = try await run(["say", "elephant", "--accent", "us", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(american.stdout.utf8)) as? [String: Any])
        #expect(report["tier"] as? String == "neural")
        #expect(report["source"] as? String == "hibari-tts 0.2.1 heart (neural, American voice)")

        let slow = try await run(["say", "elephant", "--speed", "0.75"])
        #expect(slow.status == 0, "\(slow.stderr)")
        #expect(slow.stdout.contains("catalog/animals/elephant@0.75.wav"), "\(slow.stdout)")
        for bad in ["0", "2", "slow", "0.333"] {
            let refused = try await run(["say", "elephant", "--speed", bad])
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("speed"), "\(refused.stderr)")
        }

        let off = try await run(["say", "elephant"], environment: ["VOCAB_NEURAL_VOICE": "off"])
        #expect(off.stdout.contains("skipped neural: the neural voice is switched off"), "\(off.stdout)")
        #expect(off.stdout.contains("tts from espeak-ng en-gb"))
        let missing = try await run(["say", "elephant"], environment: ["VOCAB_NEURAL_VOICE": vocab.dir.file("no-voice")])
        #expect(missing.stdout.contains("skipped neural: the neural voice is not installed"), "\(missing.stdout)")
        #expect(missing.status == 0)
    }

    @Test func renderSpeaksEveryEnglishWordWithTheVoiceAndResumes() async throws {
        defer { vocab.dir.remove() }
        let out = vocab.dir.file("clips")
        let args = ["render", "--category", "colours", "--accent", "both", "--out", out, "--jobs", "2"]
        let first = try await run(args + ["--json"])
        #expect(first.status == 0, "\(first.stderr)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))) as? [[String: Any]])
        #expect(!manifest.isEmpty)
        for row in manifest {
            #expect(row["tier"] as? String == "neural", "\(row)")
            #expect(row["status"] as? String == "rendered")
        }
        // The same inputs: every clip is kept, and the bytes are the same when rendered again.
        let again = try await run(args)
        #expect(again.stdout.contains("Rendered 0, kept \(manifest.count), failed 0"), "\(again.stdout)")
        let red = out + "/british/catalog/colours/red.wav"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: red))
        let forced = try await run(args + ["--force"])
        #expect(forced.status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: red)) == bytes, "deterministic bytes")
        // Switching the voice off makes every clip stale: espeak-ng renders them all.
        let off = try await run(args, environment: ["VOCAB_NEURAL_VOICE": "off"])
        #expect(off.stdout.contains("Rendered \(manifest.count), kept 0, failed 0 (tts \(manifest.count))"), "\(off.stdout)")
        // A slower pace is a set of clips of its own beside these.
        let slow = try await run(args + ["--speed", "0.75"])
        #expect(slow.stdout.contains("Rendered \(manifest.count), kept 0, failed 0 (neural \(manifest.count))"), "\(slow.stdout)")
        #expect(FileManager.default.fileExists(atPath: out + "/british/catalog/colours/red@0.75.wav"))
    }

    @Test func aVoiceProcessKilledMidRenderCostsOneClipNotTheBatch() async throws {
        defer { vocab.dir.remove() }
        let out = vocab.dir.file("clips")
        let args = ["render", "--category", "everyday-words", "--accent", "american", "--out", out, "--jobs", "1", "--json"]
        let render = Task { try await run(args) }
        // Once some clips are written, kill the worker's Python process (the render's grandchild).
        var killed: Int32?
        for _ in 0..<6000 where killed == nil {
            if recordCount(out) >= 10, let pid = neuralProcesses(under: out).first {
                kill(pid, SIGKILL)
                killed = pid
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        let result = try await render.value
        #expect(killed != nil, "the voice's process was found and killed")
        #expect(result.status == 0, "no clip failed: \(result.stderr)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))) as? [[String: Any]])
        let tiers = manifest.map { $0["tier"] as? String ?? "?" }
        let fellBack = tiers.filter { $0 == "tts" }.count
        #expect(fellBack >= 1 && fellBack <= 3, "the clip in hand when the voice died fell back to espeak-ng: \(fellBack)")
        #expect(tiers.filter { $0 == "neural" }.count == tiers.count - fellBack, "the voice started again for the rest")
        // The stand-in clips are rendered again with the voice next time; the others are kept.
        let resumed = try await run(Array(args.dropLast()))
        #expect(resumed.stdout.contains("Rendered \(fellBack), kept \(tiers.count - fellBack), failed 0 (neural \(fellBack))"), "\(resumed.stdout)")
    }
}

/// Python processes of the neural voice whose parent is a render worker writing into `out`.
private func neuralProcesses(under out: String) -> [Int32] {
    let pids = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { Int32($0) }
    func commandLine(_ pid: Int32) -> String {
        (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))).map { String(decoding: $0.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self) } ?? ""
    }
    func parent(_ pid: Int32) -> Int32? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ").dropFirst().first.flatMap { Int32($0) }
    }
    let workers = Set(pids.filter { commandLine($0).contains("render-worker") && commandLine($0).contains(out) })
    return pids.filter { pid in parent(pid).map(workers.contains) == true && commandLine(pid).contains("import hibari") }
}
