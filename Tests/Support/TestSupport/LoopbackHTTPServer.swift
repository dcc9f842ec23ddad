import Foundation

/// A tiny HTTP/1.1 server on 127.0.0.1 for tests: real sockets, real bytes, routes in code.
public final class LoopbackHTTPServer: @unchecked Sendable {
    public struct Response: Sendable {
        public var status: Int
        public var contentType: String
        public var body: [UInt8]
        /// Seconds to wait before answering (to provoke client timeouts).
        public var delay: Double
        public var headers: [String: String]

        public init(
            status: Int = 200, contentType: String = "application/octet-stream", body: [UInt8] = [],
            delay: Double = 0, headers: [String: String] = [:]
        ) {
            self.status = status
            self.contentType = contentType
            self.body = body
            self.delay = delay
            self.headers = headers
        }

        public static func text(_ s: String, status: Int = 200, type: String = "text/plain") -> Response {
            Response(status: status, contentType: type, body: Array(s.utf8))
        }
    }

    public typealias Handler = @Sendable (_ path: String) -> Response

    private let socketFD: Int32
    public let port: Int
    private let handler: Handler
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    private var running = true

    public init(handler: @escaping Handler) throws {
        self.handler = handler
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = 0
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var actual = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        socketFD = fd
        port = Int(UInt16(bigEndian: actual.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// How many requests asked for `path`.
    public func requests(to path: String) -> Int { lock.withLock { counts[path] ?? 0 } }

    /// Stops listening; later connections are refused. Safe to call more than once: closing
    /// the socket twice could close an unrelated descriptor that reused its number.
    public func stop() {
        let wasRunning = lock.withLock { () -> Bool in
            defer { running = false }
            return running
        }
        guard wasRunning else { return }
        shutdown(socketFD, Int32(SHUT_RDWR))
        close(socketFD)
    }

    deinit { stop() }

    private func acceptLoop() {
        while lock.withLock({ running }) {
            let client = accept(socketFD, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            Thread.detachNewThread { [self] in serve(client) }
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var request = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !request.containsHeaderEnd {
            let n = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return }
            request.append(contentsOf: buffer[0..<n])
        }
        let line = String(decoding: request.prefix { $0 != 13 && $0 != 10 }, as: UTF8.self)
        let path = line.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        lock.withLock { counts[path, default: 0] += 1 }
        let response = handler(path)
        if response.delay > 0 { Thread.sleep(forTimeInterval: response.delay) }
        var head = "HTTP/1.1 \(response.status) \(response.status < 400 ? "OK" : "Error")\r\n"
        head += "Content-Type: \(response.contentType)\r\nContent-Length: \(response.body.count)\r\nConnection: close\r\n"
        for (k, v) in response.headers { head += "\(k): \(v)\r\n" }
        head += "\r\n"
        let bytes = Array(head.utf8) + response.body
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }
}

extension Array where Element == UInt8 {
    var containsHeaderEnd: Bool {
        guard count >= 4 else { return false }
        for i in 0...(count - 4) where self[i] == 13 && self[i + 1] == 10 && self[i + 2] == 13 && self[i + 3] == 10 { return true }
        return false
    }
}
