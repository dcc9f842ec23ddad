import Foundation
import Glibc
import Spawning
import Testing

/// Programs run to their end: what they were given, what they printed, how they ended.
@Suite("Child processes")
struct ChildProcessTests {
    @Test("input goes in, both outputs come back apart, in the folder and environment given")
    func runsInTheFolderAndEnvironmentGiven() throws {
        let folder = NSTemporaryDirectory() + "spawning-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let finished = try ChildProcess.run(
            "/bin/sh", arguments: ["-c", "read line; echo \"$line $GREETING\"; pwd; echo oops >&2; exit 4"],
            environment: ["GREETING": "hello", "PATH": "/usr/bin:/bin"], input: Data("cat\n".utf8), directory: folder)
        #expect(String(decoding: finished.output, as: UTF8.self) == "cat hello\n\(folder)\n")
        #expect(String(decoding: finished.error, as: UTF8.self) == "oops\n")
        #expect(finished.termination == .exited(4))
        #expect(finished.termination.status == 4)
    }

    @Test("a child that reads none of a large input ends normally, and so does this process")
    func aChildThatIgnoresItsInput() throws {
        let finished = try ChildProcess.run("/bin/true", arguments: [], input: Data(repeating: 65, count: 4 << 20))
        #expect(finished.termination == .exited(0))
    }

    @Test("more output than a pipe holds, on both outputs at once, does not stall")
    func chattyChild() throws {
        let finished = try ChildProcess.run("/bin/sh", arguments: ["-c", "head -c 300000 /dev/zero; head -c 300000 /dev/zero >&2"])
        #expect(finished.output.count == 300_000 && finished.error.count == 300_000)
    }

    @Test("a child killed by a signal has the status a shell gives it")
    func killed() throws {
        let child = try ChildProcess.start("/bin/sleep", arguments: ["600"])
        #expect(child.isRunning)
        child.signal(SIGKILL)
        #expect(child.waitUntilExit() == .killed(signal: SIGKILL))
        #expect(child.waitUntilExit().status == 137)
    }

    @Test("a folder that does not exist or a missing program is an error, not a child")
    func cannotStart() {
        #expect(throws: ChildProcess.StartError.self) { try ChildProcess.run("/nonexistent/program", arguments: []) }
        #expect(throws: ChildProcess.StartError.self) { try ChildProcess.run("/bin/true", arguments: [], directory: "/nonexistent/folder") }
    }
}
