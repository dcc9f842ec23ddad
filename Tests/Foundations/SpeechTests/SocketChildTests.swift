import Foundation
import Glibc
import Spawning
import Testing

@testable import Speech

/// The long-lived children (the neural voice, render workers) hold nothing of their parent's
/// but their input and output, and signals the parent ignores are theirs to receive.
@Suite("Children started on a socket")
struct SocketChildTests {
    /// Runs `command` with `sh -c` and returns what it printed and how it ended.
    func run(_ command: String) throws -> (output: String, ended: ChildProcess.Termination) {
        let child = try SocketChild.start("/bin/sh", arguments: ["-c", command])
        child.endInput()
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(child.output, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            output.append(contentsOf: buffer[0..<n])
        }
        close(child.output)
        close(child.input)
        return (String(decoding: output, as: UTF8.self), child.process.waitUntilExit())
    }

    @Test("a descriptor the parent holds open without close-on-exec is not inherited")
    func inheritsOnlyItsInputAndOutput() throws {
        // No O_CLOEXEC, as Foundation's Pipe makes them; F_DUPFD takes a free number of 100 or
        // more (dup2 to a fixed number would close whatever another test holds there).
        let leaked = open("/dev/null", O_RDONLY)
        let high = fcntl(leaked, F_DUPFD, 100)
        defer {
            close(leaked)
            close(high)
        }
        try #require(leaked >= 0 && high >= 100)
        let (output, ended) = try run("ls /proc/$$/fd")
        #expect(ended == .exited(0))
        let inherited = Set(output.split(whereSeparator: \.isNewline).map(String.init))
        #expect(inherited.isSuperset(of: ["0", "1", "2"]))
        #expect(!inherited.contains(String(high)) && !inherited.contains(String(leaked)), "\(inherited.sorted())")
    }

    @Test("a signal the parent ignores ends the child: the dispositions a server sets are not its children's")
    func signalsAreTheChildsOwn() throws {
        // SIGHUP, which no test sends: ignoring SIGTERM here would reach the programs other
        // tests start meanwhile. The shim restores SIGHUP, SIGTERM, SIGINT, SIGPIPE and SIGCHLD alike.
        let before = signal(SIGHUP, SIG_IGN)
        defer { signal(SIGHUP, before) }
        // A shell cannot catch a signal ignored when it started: it would print "alive".
        let (output, ended) = try run("kill -HUP $$; echo alive")
        #expect(output == "")
        #expect(ended == .killed(signal: SIGHUP))
    }

    @Test("how a child ended: its exit status, or the signal that killed it")
    func termination() throws {
        #expect(try run("exit 3").ended == .exited(3))
        #expect(try run("kill -KILL $$").ended == .killed(signal: SIGKILL))
        #expect(ChildProcess.Termination.exited(3).description == "exit status 3")
        #expect(ChildProcess.Termination.killed(signal: 9).description == "killed by signal 9")
    }

    @Test("a program that cannot be started is an error, not a child")
    func missingProgram() {
        #expect(throws: SocketChild.StartError.self) { try SocketChild.start("/nonexistent/program", arguments: []) }
    }
}
