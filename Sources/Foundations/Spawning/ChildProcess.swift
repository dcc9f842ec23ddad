import Foundation
import SpawnShim
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A child process started with `vocab_spawn`: whether it still runs, and how it ended.
///
/// Every child vocab and its tests start comes through here, not through Foundation's Process.
/// Process closes a list of descriptors made before it forks, so a pipe another thread opened
/// meanwhile stayed open in the child (its reader never saw the end), and under a full test run
/// its `run()` crashed inside `memcpy` about once in seven runs. posix_spawn with a closefrom
/// action does neither.
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

        /// A shell's `$?`: the exit status, or 128 and the signal.
        public var status: Int32 {
            switch self {
            case .exited(let status): status
            case .killed(let signal): 128 + signal
            }
        }
    }

    public struct StartError: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    public let pid: Int32
    private let termination = Mutex<Termination?>(nil)

    init(pid: Int32) { self.pid = pid }

    /// Starts `executable` (a path). Its standard input, output and error are the descriptors
    /// given (they stay open here; the caller closes its copies), /dev/null where none is.
    /// `environment` replaces this process's own when given. `ownGroup` makes it the leader of a
    /// process group of its own, out of reach of a signal sent to this one's group.
    public static func start(
        _ executable: String, arguments: [String], environment: [String: String]? = nil, input: Int32? = nil, output: Int32? = nil,
        error: Int32? = nil, directory: String? = nil, ownGroup: Bool = false
    ) throws -> ChildProcess {
        let environment = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        var spawnError: Int32 = 0
        // ETXTBSY: a program written a moment ago may still be open for writing in a child
        // another thread is starting (until that child's exec closes it); it passes at once.
        for attempt in 0..<50 {
            if attempt > 0 { usleep(10_000) }
            spawnError = withCStrings([executable] + arguments) { argv in
                withCStrings(environment) { envp in
                    if let directory {
                        directory.withCString {
                            vocab_spawn(&pid, executable, argv, envp, input ?? -1, output ?? -1, error ?? -1, $0, ownGroup ? 1 : 0)
                        }
                    } else {
                        vocab_spawn(&pid, executable, argv, envp, input ?? -1, output ?? -1, error ?? -1, nil, ownGroup ? 1 : 0)
                    }
                }
            }
            if spawnError != ETXTBSY { break }
        }
        guard spawnError == 0 else {
            throw StartError(description: "cannot start \(executable): \(String(cString: strerror(spawnError)))")
        }
        return ChildProcess(pid: pid)
    }

    /// How it ended; nil while it runs. Reaps it once it has ended.
    public var ended: Termination? {
        termination.withLock { known in
            if known == nil { known = Self.reap(pid) }
            return known
        }
    }

    public var isRunning: Bool { ended == nil }

    /// Sends `signal` unless it has already been reaped (its number may then be another's).
    public func signal(_ signal: Int32) {
        termination.withLock { known in
            if known == nil { _ = kill(pid, signal) }
        }
    }

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

extension ChildProcess {
    /// What a program run to its end printed, and how it ended.
    public struct Finished: Sendable {
        public let termination: Termination
        public let output: Data
        public let error: Data
    }

    /// Runs `executable` to its end, with `input` as its standard input, and collects both its
    /// outputs (read at once, so a chatty child never blocks on a full pipe). This blocks: call it
    /// off the event loops and Swift's cooperative threads.
    public static func run(
        _ executable: String, arguments: [String], environment: [String: String]? = nil, input: Data? = nil, directory: String? = nil
    ) throws -> Finished {
        // The input is a socket, so that writing to a child that exits without reading it is an
        // error here, not SIGPIPE.
        let inPipe = try Pipe(socket: true)
        let outPipe = try Pipe()
        let errPipe = try Pipe()
        let child: ChildProcess
        do {
            child = try start(
                executable, arguments: arguments, environment: environment, input: inPipe.reading, output: outPipe.writing,
                error: errPipe.writing, directory: directory)
        } catch {
            for fd in [inPipe.reading, inPipe.writing, outPipe.reading, outPipe.writing, errPipe.reading, errPipe.writing] { close(fd) }
            throw error
        }
        // The child has its copies: these close here, so its output ends when it exits.
        close(inPipe.reading)
        close(outPipe.writing)
        close(errPipe.writing)
        let errorText = Reader(errPipe.reading)
        if let input { _ = input.withUnsafeBytes { sendAll($0, to: inPipe.writing) } }
        close(inPipe.writing)
        let output = readAll(outPipe.reading)
        close(outPipe.reading)
        let termination = child.waitUntilExit()
        return Finished(termination: termination, output: output, error: errorText.finish())
    }
}

/// Both ends of a pipe, or of a socket pair, that close on exec.
private struct Pipe {
    let reading: Int32
    let writing: Int32

    init(socket: Bool = false) throws {
        var fds: [Int32] = [0, 0]
        let error =
            socket
            ? (socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 ? 0 : errno)
            : vocab_pipe_cloexec(&fds)
        guard error == 0 else { throw ChildProcess.StartError(description: "cannot make a pipe: \(String(cString: strerror(error)))") }
        reading = fds[0]
        writing = fds[1]
    }
}

/// Reads a descriptor to its end on a thread of its own, then closes it.
private final class Reader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    init(_ fd: Int32) {
        Thread.detachNewThread { [self] in
            data = readAll(fd)
            close(fd)
            done.signal()
        }
    }

    func finish() -> Data {
        done.wait()
        return data
    }
}

/// Reads a descriptor to its end, retrying reads a signal interrupted (FileHandle traps on EINTR).
public func readAll(_ fd: Int32) -> Data {
    var data = Data()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n > 0 {
            data.append(contentsOf: buffer[0..<n])
            continue
        }
        if n < 0 && errno == EINTR { continue }
        return data
    }
}

/// Writes all of `bytes` to a socket; false when its reader is gone (MSG_NOSIGNAL: no SIGPIPE).
public func sendAll(_ bytes: UnsafeRawBufferPointer, to socket: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
        let n = Glibc.send(socket, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
        if n < 0 && errno == EINTR { continue }
        if n <= 0 { return false }
        offset += n
    }
    return true
}

/// Calls `body` with `strings` as a NULL-terminated array of C strings.
private func withCStrings<Result>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result) -> Result {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
