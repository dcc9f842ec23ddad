import Foundation

/// A client connection the test drives byte by byte, to be slow, silent, or one of many, as an
/// idle or hostile client would. Calls block: run them off Swift's cooperative threads
/// (`onThread`), which the server under test needs.
final class ClientSocket: @unchecked Sendable {
    let fd: Int32
    private var open = true

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClientError("socket failed: errno \(errno)") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = UInt16(port).bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let error = errno
            Glibc.close(fd)
            throw ClientError("cannot connect to 127.0.0.1:\(port): errno \(error)")
        }
    }

    deinit { close() }

    func close() {
        guard open else { return }
        open = false
        Glibc.close(fd)
    }

    /// Sends bytes; false once the server has closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    /// Whether the server has closed the connection (end of stream or reset), looking without
    /// waiting; bytes that arrived first are read and kept in `received`.
    func isClosedByServer(waiting milliseconds: Int32 = 0) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, milliseconds) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if n > 0 {
            received += buffer[0..<n]
            return isClosedByServer(waiting: 0)
        }
        return n == 0 || (errno != EAGAIN && errno != EINTR)
    }

    private(set) var received: [UInt8] = []

    /// Reads until the server closes the connection, giving up after `seconds` (then false).
    func readToEnd(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if isClosedByServer(waiting: 100) { return true }
        }
        return false
    }

    /// What arrived, as a response (the server's 503 closes the connection after it).
    func response() throws -> RawResponse { try RawHTTP.parse(received, head: false) }
}

/// Runs blocking work on a thread of its own and waits for it without holding a cooperative thread.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
