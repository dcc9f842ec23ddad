import Foundation
import SpawnShim
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A child process that reads requests on its standard input, a socket (so that writing to a
/// child that died is an error, not SIGPIPE), and answers on its standard output, a pipe. Render
/// workers and the neural voice's processes are started this way. They live long, so they are
/// started with `vocab_spawn`, which lets them inherit no descriptor but these two: Foundation's
/// Process closes a list of descriptors made before it forks, and a pipe another thread opened
/// meanwhile (a test's, a recording's) stayed open in the neural voice until the server ended,
/// so its reader never saw the end. It lives here, beside speech, rather than in Offloading:
/// Foundation must stay out of the static launcher, which links only FoundationEssentials.
public struct SocketChild: Sendable {
    public let process: ChildProcess
    /// Our end of the child's standard input.
    public let input: Int32
    /// The read end of the child's standard output.
    public let output: Int32

    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts `executable` (a path); its standard error goes nowhere. `environment` replaces
    /// this process's own when given.
    public static func start(_ executable: String, arguments: [String], environment: [String: String]? = nil) throws -> SocketChild {
        var pair: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw StartError(description: "cannot make a socket pair: \(String(cString: strerror(errno)))")
        }
        var pipe: [Int32] = [0, 0]
        let pipeError = vocab_pipe_cloexec(&pipe)
        guard pipeError == 0 else {
            close(pair[0])
            close(pair[1])
            throw StartError(description: "cannot make a pipe: \(String(cString: strerror(pipeError)))")
        }
        let environment = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        var spawnError: Int32 = 0
        // ETXTBSY: a program written a moment ago may still be open for writing in a child
        // another thread is starting (until that child's exec closes it); it passes at once.
        for attempt in 0..<50 {
            if attempt > 0 { usleep(10_000) }
            spawnError = withCStrings([executable] + arguments) { argv in
                withCStrings(environment) { envp in vocab_spawn(&pid, executable, argv, envp, pair[1], pipe[1]) }
            }
            if spawnError != ETXTBSY { break }
        }
        close(pair[1])
        close(pipe[1])
        guard spawnError == 0 else {
            close(pair[0])
            close(pipe[0])
            throw StartError(description: "cannot start \(executable): \(String(cString: strerror(spawnError)))")
        }
        return SocketChild(process: ChildProcess(pid: pid), input: pair[0], output: pipe[0])
    }

    /// Tells the child there is nothing more to read: it finishes what it holds, then exits.
    public func endInput() { shutdown(input, Int32(SHUT_WR)) }

    /// Writes all of `bytes`; false when the child is gone.
    public func send(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.send(input, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }
}

extension SocketChild {
    /// The child's side: ends this process as soon as `parent`, the process that started it,
    /// is gone, so that a render killed with SIGKILL does not leave its workers running.
    ///
    /// Neither a signal nor the input's end can do this. A child is started as the leader of a
    /// process group of its own, so killing the parent's group misses it, and
    /// a parent killed with SIGKILL forwards nothing. The input ends both when the parent dies and
    /// when it has no more work, after which the child must finish what it holds.
    /// PR_SET_PDEATHSIG fires when the *thread* that started the child exits, not its process,
    /// and the threads that start children come and go. So a thread looks every 100 ms
    /// whether this process's parent is still `parent` (an orphan is adopted by init or a
    /// subreaper). The parent's id is passed in rather than read at start: it may already have
    /// died by then.
    public static func exitWhenOrphaned(parent: Int32) {
        guard getppid() == parent else { _exit(1) }
        Thread.detachNewThread {
            while getppid() == parent { usleep(100_000) }
            _exit(1)
        }
    }
}

/// A child started by `SocketChild`: whether it still runs, and how it ended.
public final class ChildProcess: Sendable {
    public enum Termination: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case killed(signal: Int32)

        public var description: String {
            switch self {
            case .exited(let status): "exit status \(status)"
            case .killed(let signal): "killed by signal \(signal)"
            }
        }
    }

    public let pid: Int32
    private let termination = Mutex<Termination?>(nil)

    init(pid: Int32) { self.pid = pid }

    /// How it ended; nil while it runs. Reaps it once it has ended.
    public var ended: Termination? {
        termination.withLock { known in
            if known == nil { known = Self.reap(pid) }
            return known
        }
    }

    public var isRunning: Bool { ended == nil }

    /// Waits for it to end. Waits stay short (a child whose input has ended, or that was killed),
    /// so the lock is never held across a blocking wait: another thread may ask meanwhile.
    @discardableResult
    public func waitUntilExit() -> Termination {
        var pause: UInt32 = 1_000
        while true {
            if let ended { return ended }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
    }

    /// Its termination if it has ended, without waiting.
    private static func reap(_ pid: Int32) -> Termination? {
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            if result == 0 { return nil }
            if errno == EINTR { continue }
            // ECHILD: reaped elsewhere (SIGCHLD ignored); it has ended, how is unknown.
            return .exited(-1)
        }
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .killed(signal: signal)
    }
}

/// Calls `body` with `strings` as a NULL-terminated array of C strings.
private func withCStrings<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result) -> Result {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
