import Foundation
import SpawnShim
import Spawning
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A child process that reads requests on its standard input, a socket (so that writing to a
/// child that died is an error, not SIGPIPE), and answers on its standard output, a pipe. Render
/// workers, the neural voice's and the listener's processes are started this way, each the
/// leader of a process group of its own. It lives here, beside speech, rather than in
/// Offloading: Foundation must stay out of the static launcher, which links only
/// FoundationEssentials.
public struct SocketChild: Sendable {
    public let process: ChildProcess
    /// Our end of the child's standard input.
    public let input: Int32
    /// The read end of the child's standard output.
    public let output: Int32

    public typealias StartError = ChildProcess.StartError

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
        let process: ChildProcess
        do {
            process = try ChildProcess.start(executable, arguments: arguments, environment: environment, input: pair[1], output: pipe[1], ownGroup: true)
        } catch {
            for fd in [pair[0], pair[1], pipe[0], pipe[1]] { close(fd) }
            throw error
        }
        close(pair[1])
        close(pipe[1])
        return SocketChild(process: process, input: pair[0], output: pipe[0])
    }

    /// Tells the child there is nothing more to read: it finishes what it holds, then exits.
    public func endInput() { shutdown(input, Int32(SHUT_WR)) }

    /// Writes all of `bytes`; false when the child is gone.
    public func send(_ bytes: UnsafeRawBufferPointer) -> Bool { sendAll(bytes, to: input) }
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
