import Foundation
import TestSupport
import Testing

/// What a killed or dead process leaves behind, and what the next run does about it (issue 32,
/// item 7): the built program, real processes, real signals, a real zombie.
@Suite("Killed runs leave nothing a later run does not clean: speech data folders, render workers, clips of unreaped workers", .serialized)
struct KilledRunTests {
    @Test(
        "a speech data folder left half made by a killed process is removed by the next speech; one a running process is making is kept, and links in it are not followed"
    )
    func speechDataOfAKilledFirstUseIsRemoved() async throws {
        let vocab = try EditableCatalog()
        defer { vocab.dir.remove() }
        let speech = vocab.home + "/speech"
        let outside = vocab.dir.file("outside")
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try Data("not ours".utf8).write(to: URL(fileURLWithPath: outside + "/kept.txt"))
        let dead = try deadProcessID()
        let live = try liveProcess()
        defer { live.stop() }
        // What `SteadyVoiceData.build` had made when its process was killed: links to the
        // system's data (here to a folder of the test's) and the variant folder.
        let stale = speech + "/espeak-ng-data-0123abcd.\(dead).tmp"
        let making = speech + "/espeak-ng-data-0123abcd.\(live.pid).tmp"
        for folder in [stale, making] {
            try FileManager.default.createDirectory(atPath: folder + "/voices/!v", withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: folder + "/lang", withDestinationPath: outside)
        }
        let say = try await vocab.run("say", "cat", "--tier", "tts", "-o", vocab.dir.file("cat.wav"))
        #expect(say.status == 0, "\(say.stderr)")
        #expect(!fileExists(stale), "the folder of the dead process is gone: \(contents(of: speech))")
        #expect(fileExists(making), "the folder a running process is making is kept")
        #expect(fileExists(outside + "/kept.txt"), "what a link inside pointed to is untouched")
    }

    @Test("render workers end when the render that started them is killed with SIGKILL, even in the middle of a slow clip")
    func workersDieWithTheirRender() async throws {
        let vocab = try EditableCatalog()
        defer { vocab.dir.remove() }
        // Recorded clips behind a server that answers only after 30 s: every worker is in the
        // middle of a fetch (5 s timeout each, several clips held) when the render is killed.
        let remote = try LoopbackHTTPServer { _ in LoopbackHTTPServer.Response(contentType: "audio/wav", body: [], delay: 30) }
        defer { remote.stop() }
        try vocab.edit("colours.json") {
            $0.replacingOccurrences(
                of: #""word": "([a-z]+)","#,
                with: #""word": "$1", "audio": {"british": {"recorded": "\#(remote.baseURL)/$1.wav"}},"#,
                options: .regularExpression)
        }
        #expect(try await vocab.run("index").status == 0)
        let category = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: vocab.categories + "/colours.json"))) as? [String: Any])
        let words = (category["words"] as? [[String: Any]] ?? []).compactMap { $0["word"] as? String }
        let out = vocab.dir.file("clips")
        var env = ProcessInfo.processInfo.environment
        env["VOCAB_NEURAL_VOICE"] = "off"
        for (k, v) in vocab.environment { env[k] = v }
        let process = try ChildProcess.start(
            Repository.vocabExecutable, arguments: ["render", "--category", "colours", "--accent", "british", "--out", out, "--jobs", "2"],
            environment: env)
        defer { process.signal(SIGKILL) }
        var workers: [Int32] = []
        for _ in 0..<600 where process.isRunning {
            workers = renderWorkers(writingInto: out)
            if workers.count == 2 && words.contains(where: { remote.requests(to: "/\($0).wav") > 0 }) { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(workers.count == 2, "two workers were rendering")
        process.signal(SIGKILL)
        while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }

        // How soon a killed render's workers are gone depends on how busy the machine is (3 s
        // was missed once in CI on 2 cores), so the wait is long and ends as soon as they are.
        let killed = Date()
        var alive = workers
        while !alive.isEmpty, Date().timeIntervalSince(killed) < 60 {
            alive = workers.filter(isAlive)
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(alive.isEmpty, "workers \(alive) were still running 60 s after their render was killed")
        await waitForProcesses(mentioning: out)
    }

    @Test("a half-written clip of a worker that died but is not yet reaped (a zombie) is removed by the next render")
    func clipOfAnUnreapedWorkerIsRemoved() async throws {
        let vocab = try EditableCatalog()
        defer { vocab.dir.remove() }
        let out = vocab.dir.file("clips")
        let args = ["render", "--category", "colours", "--level", "starters", "--accent", "british", "--out", out]
        #expect(try await vocab.run(args).status == 0)
        let zombie = try unreapedProcess()
        defer { zombie.stop() }
        #expect(processState(zombie.pid) == "Z", "the process has exited and nobody has collected it")
        let stale = out + "/british/catalog/colours/red.wav.writing-\(zombie.pid)-88bb"
        try Data("partial".utf8).write(to: URL(fileURLWithPath: stale))
        let again = try await vocab.run(args)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!fileExists(stale), "the clip of a process that writes no more is gone")
    }
}

/// The state letter of /proc/PID/stat (R, S, Z…), nil when there is no such process. The name
/// in parentheses may hold spaces, so the state is the field after the last ')'.
func processState(_ pid: Int32) -> Character? {
    guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return nil }
    let line = String(decoding: data, as: UTF8.self)
    guard let end = line.lastIndex(of: ")") else { return nil }
    return line[line.index(after: end)...].first { $0 != " " }
}

/// Running: it exists and has not exited (a zombie has).
func isAlive(_ pid: Int32) -> Bool {
    guard let state = processState(pid) else { return false }
    return state != "Z" && state != "X"
}

/// The `vocab render-worker` processes writing into `out`.
func renderWorkers(writingInto out: String) -> [Int32] {
    contents(of: "/proc").compactMap(Int32.init).filter { pid in
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
        let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        return arguments.contains("render-worker") && arguments.contains(out)
    }
}

/// A process that has exited and that its parent never waits for: Python forks a child that
/// exits at once and then sleeps without collecting it (a shell may collect a background job
/// before it becomes `sleep`, when SIGCHLD reaches it). `stop` ends the parent (and with it the
/// zombie).
func unreapedProcess() throws -> (pid: Int32, stop: () -> Void) {
    let pipe = try ChildPipe()
    let parent = try ChildProcess.start(
        "/usr/bin/python3",
        arguments: ["-c", "import os, time\npid = os.fork()\nif pid == 0: os._exit(0)\nprint(pid, flush=True)\ntime.sleep(600)"],
        output: pipe.writing.fileDescriptor)
    try pipe.writing.close()
    var line = Data()
    while !line.contains(UInt8(ascii: "\n")) {
        let chunk = pipe.reading.availableData
        if chunk.isEmpty { break }
        line += chunk
    }
    let stop = {
        parent.signal(SIGKILL)
        parent.waitUntilExit()
    }
    guard let pid = Int32(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
        stop()
        throw UnexpectedOutput(text: String(decoding: line, as: UTF8.self))
    }
    for _ in 0..<100 where processState(pid) != "Z" { usleep(50_000) }
    return (pid, stop)
}

struct UnexpectedOutput: Error { let text: String }
