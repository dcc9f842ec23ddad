import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A child process that reads requests on its standard input, a socket (so that writing to a
/// child that died is an error, not SIGPIPE), and answers on its standard output, a pipe. Render
/// workers and the neural voice's processes are started this way. It lives here, beside speech,
/// rather than in Offloading: Foundation's Process must stay out of the static launcher, which
/// links only FoundationEssentials.
public struct SocketChild: @unchecked Sendable {
    public let process: Process
    /// Our end of the child's standard input.
    public let input: Int32
    /// The read end of the child's standard output.
    public let output: Int32

    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts `executable`; its standard error goes nowhere.
    public static func start(_ executable: String, arguments: [String], environment: [String: String]? = nil) throws -> SocketChild {
        var pair: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw StartError(description: "cannot make a socket pair: \(String(cString: strerror(errno)))")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let theirs = FileHandle(fileDescriptor: pair[1], closeOnDealloc: true)
        process.standardInput = theirs
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            close(pair[0])
            throw error
        }
        try? theirs.close()
        let output = dup(out.fileHandleForReading.fileDescriptor)
        try? out.fileHandleForReading.close()
        return SocketChild(process: process, input: pair[0], output: output)
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
    /// Neither a signal nor the input's end can do this. A child Foundation's Process starts is
    /// the leader of a process group of its own, so killing the parent's group misses it, and
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
