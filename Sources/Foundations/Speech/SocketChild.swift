#if canImport(Glibc)
import Glibc
#endif
import Foundation

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
