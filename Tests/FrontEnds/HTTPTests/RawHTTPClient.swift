import Foundation

/// A deliberately plain HTTP/1.1 client over a loopback socket: it sends the request target
/// byte for byte (no normalisation of "..", no encoding), so tests can send what a hostile
/// client would, and it shows the raw response (headers, gzip bytes) without decoding.
struct RawResponse: Sendable {
    var status: Int
    /// Header names lower-cased; the last value of a repeated header wins.
    var headers: [String: String]
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }
    func header(_ name: String) -> String? { headers[name.lowercased()] }

    func json() throws -> Any { try JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) }
    func object() throws -> [String: Any] {
        guard let o = try json() as? [String: Any] else { throw ClientError("body is not a JSON object: \(text.prefix(200))") }
        return o
    }
    /// The `error` object of an error body.
    func error() throws -> [String: Any] {
        guard let e = try object()["error"] as? [String: Any] else { throw ClientError("no error object in \(text.prefix(200))") }
        return e
    }
}

struct ClientError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

enum RawHTTP {
    /// `source` picks the client's own address (any of 127.0.0.0/8 reaches the server), so one
    /// test can be several clients.
    static func get(
        port: Int, _ target: String, method: String = "GET", headers: [String: String] = [:], body: [UInt8]? = nil,
        from source: String? = nil
    ) async throws -> RawResponse {
        // A thread of its own: blocking socket calls on Dispatch's global queue would take
        // the threads Swift concurrency (and so the server under test) runs on.
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try send(port: port, target: target, method: method, headers: headers, body: body, from: source) })
            }
        }
    }

    /// One request on a connection of its own; a body goes with its Content-Length.
    static func send(
        port: Int, target: String, method: String, headers: [String: String], body: [UInt8]? = nil,
        from source: String? = nil
    ) throws -> RawResponse {
        let fd = try connectLoopback(port: port, from: source)
        defer { close(fd) }
        var request = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        if let body { request += "Content-Length: \(body.count)\r\n" }
        request += "\r\n"
        try writeAll(fd, Array(request.utf8) + (body ?? []))
        var raw: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                raw.append(contentsOf: buffer[0..<n])
                continue
            }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw ClientError("read failed: errno \(errno)") }
            break
        }
        return try parse(raw, head: method == "HEAD")
    }

    /// Several requests on one keep-alive connection, the way browsers and apps send them:
    /// one after another, or all written at once (HTTP/1.1 pipelining). Responses are read
    /// in order, framed by their Content-Length.
    static func exchange(
        port: Int, _ requests: [(method: String, target: String, headers: [String: String])],
        pipelined: Bool = false
    ) async throws -> [RawResponse] {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try exchangeBlocking(port: port, requests, pipelined: pipelined) })
            }
        }
    }

    private static func exchangeBlocking(
        port: Int, _ requests: [(method: String, target: String, headers: [String: String])],
        pipelined: Bool
    ) throws -> [RawResponse] {
        let fd = try connectLoopback(port: port)
        defer { close(fd) }
        func text(_ r: (method: String, target: String, headers: [String: String])) -> String {
            var request = "\(r.method) \(r.target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
            for (name, value) in r.headers { request += "\(name): \(value)\r\n" }
            return request + "\r\n"
        }
        var pending: [UInt8] = []
        var responses: [RawResponse] = []
        if pipelined { try writeAll(fd, Array(requests.map(text).joined().utf8)) }
        for r in requests {
            if !pipelined { try writeAll(fd, Array(text(r).utf8)) }
            responses.append(try readOne(fd, &pending, head: r.method == "HEAD"))
        }
        return responses
    }

    private static func readOne(_ fd: Int32, _ pending: inout [UInt8], head: Bool) throws -> RawResponse {
        let separator: [UInt8] = [13, 10, 13, 10]
        var buffer = [UInt8](repeating: 0, count: 65536)
        func more() throws {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 {
                pending += buffer[0..<n]
                return
            }
            if n < 0 && errno == EINTR { return }
            throw ClientError("connection ended after \(pending.count) unread bytes (errno \(errno))")
        }
        while true {
            if let end = pending.indices.first(where: { $0 + 4 <= pending.count && Array(pending[$0..<$0 + 4]) == separator }) {
                let headText = String(decoding: pending[..<end], as: UTF8.self).lowercased()
                let status = Int(headText.split(separator: " ").dropFirst().first ?? "") ?? 0
                let length =
                    headText.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                let bodyLength = head || status == 304 ? 0 : length
                while pending.count < end + 4 + bodyLength { try more() }
                let raw = Array(pending[..<(end + 4 + bodyLength)])
                pending.removeFirst(end + 4 + bodyLength)
                return try parse(raw, head: head)
            }
            try more()
        }
    }

    private static func connectLoopback(port: Int, from source: String? = nil) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClientError("socket failed") }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                close(fd)
                throw ClientError("cannot bind to \(source): errno \(errno)")
            }
        }
        // Generous: with every suite running at once on two cores, a sign-in queued behind others'
        // password checks (a quarter second each on a free core) once took longer than 20 s.
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = UInt16(port).bigEndian
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw ClientError("cannot connect to 127.0.0.1:\(port): errno \(errno)")
        }
        return fd
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw ClientError("write failed: errno \(errno)") }
            sent += n
        }
    }

    static func parse(_ raw: [UInt8], head: Bool) throws -> RawResponse {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = raw.indices.first(where: { i in i + 4 <= raw.count && Array(raw[i..<i + 4]) == separator }) else {
            throw ClientError("no complete response head in \(raw.count) bytes")
        }
        let lines = String(decoding: raw[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw ClientError("bad status line \(lines[0])") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(raw[(end + 4)...])
        if head || status == 304 { body = [] }
        if headers["transfer-encoding"]?.lowercased() == "chunked" { body = try dechunk(body) }
        if let length = headers["content-length"].flatMap(Int.init), !head, status != 304, body.count != length {
            throw ClientError("body has \(body.count) bytes, Content-Length says \(length)")
        }
        return RawResponse(status: status, headers: headers, body: body)
    }

    static func dechunk(_ data: [UInt8]) throws -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < data.count {
            guard let lineEnd = (i..<data.count - 1).first(where: { data[$0] == 13 && data[$0 + 1] == 10 }) else { break }
            let sizeText = String(decoding: data[i..<lineEnd], as: UTF8.self).split(separator: ";")[0]
            guard let size = Int(sizeText, radix: 16) else { throw ClientError("bad chunk size") }
            if size == 0 { break }
            let start = lineEnd + 2
            out += data[start..<start + size]
            i = start + size + 2
        }
        return out
    }
}
