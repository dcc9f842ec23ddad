import Hummingbird

/// A response body ready to send many times: its bytes, a gzip copy when that is smaller, and
/// a strong ETag. Turning it into a response answers conditional requests (304) and picks
/// the encoding the client accepts.
public struct Representation: Sendable, ResponseGenerator {
    public let body: ByteBuffer
    public let gzipped: ByteBuffer?
    /// The opaque part of the ETag (a content hash); the gzip copy's tag adds "-gz".
    public let tag: String
    /// Headers added to every response of this representation (e.g. the audio tier).
    public var headers: HTTPFields {
        didSet {
            (plainFields, gzipFields, notModifiedFields, notModifiedGzipFields) = Self.fields(self)
            wire = WireHeads(self)
        }
    }
    public let contentType: String
    public let cacheControl: String
    /// For answers that can change while the server runs (a clip whose recording is replaced):
    /// the moment, in `DispatchTime` nanoseconds, after which a cache must ask the route again.
    /// Nil: valid as long as the process runs (the catalog's answers).
    public var freshUntil: UInt64?
    // The response headers, built once: per request only the choice among them is made.
    private var plainFields: HTTPFields = [:]
    private var gzipFields: HTTPFields = [:]
    private var notModifiedFields: HTTPFields = [:]
    private var notModifiedGzipFields: HTTPFields = [:]
    private var wire = WireHeads()

    /// Bodies smaller than this are sent as they are: gzip would save less than its headers cost.
    public static let compressionThreshold = 256

    public init(bytes: [UInt8], contentType: String, cacheControl: String, compressible: Bool, headers: HTTPFields = [:]) {
        body = ByteBuffer(bytes: bytes)
        tag = ETag.hash(bytes)
        if compressible, bytes.count >= Self.compressionThreshold, let packed = Gzip.compress(bytes), packed.readableBytes < bytes.count {
            gzipped = packed
        } else {
            gzipped = nil
        }
        self.contentType = contentType
        self.cacheControl = cacheControl
        self.headers = headers
        (plainFields, gzipFields, notModifiedFields, notModifiedGzipFields) = Self.fields(self)
        wire = WireHeads(self)
    }

    /// The four response heads again as HTTP/1.1 bytes, status line to Content-Length, in the
    /// order Hummingbird writes them; RepeatedRequestLane adds the Date line and sends them as
    /// they are.
    private struct WireHeads {
        var plain = ByteBuffer(), gzip = ByteBuffer(), notModified = ByteBuffer(), notModifiedGzip = ByteBuffer()
        init() {}
        init(_ r: Representation) {
            func bytes(_ status: String, _ fields: HTTPFields, length: Int?) -> ByteBuffer {
                var text = "HTTP/1.1 \(status)\r\n"
                for field in fields { text += "\(field.name.rawName): \(field.value)\r\n" }
                if let length { text += "Content-Length: \(length)\r\n" }
                return ByteBuffer(string: text)
            }
            plain = bytes("200 OK", r.plainFields, length: r.body.readableBytes)
            gzip = bytes("200 OK", r.gzipFields, length: r.gzipped?.readableBytes ?? 0)
            notModified = bytes("304 Not Modified", r.notModifiedFields, length: nil)
            notModifiedGzip = bytes("304 Not Modified", r.notModifiedGzipFields, length: nil)
        }
    }

    private static func fields(_ r: Representation) -> (HTTPFields, HTTPFields, HTTPFields, HTTPFields) {
        func make(gzip: Bool, full: Bool) -> HTTPFields {
            var f = r.headers
            f[.eTag] = gzip ? "\"\(r.tag)-gz\"" : "\"\(r.tag)\""
            f[.cacheControl] = r.cacheControl
            if r.gzipped != nil { f[.vary] = "Accept-Encoding" }
            if full {
                f[.contentType] = r.contentType
                if gzip { f[.contentEncoding] = "gzip" }
            }
            return f
        }
        return (make(gzip: false, full: true), make(gzip: true, full: true), make(gzip: false, full: false), make(gzip: true, full: false))
    }

    /// JSON for a value, compressible.
    public static func json<T: Encodable>(_ value: T, cacheControl: String = CachePolicy.catalog) throws -> Representation {
        Representation(bytes: try JSONCoding.encode(value), contentType: MediaType.json, cacheControl: cacheControl, compressible: true)
    }

    /// What to send for a request with these headers: 304 when the client has it, else the
    /// body in the encoding it accepts.
    public struct Answer {
        let status: HTTPResponse.Status
        let fields: HTTPFields
        /// Status line and the same fields as HTTP/1.1 bytes, with Content-Length, without Date
        /// and the blank line (see RepeatedRequestLane).
        let wireHead: ByteBuffer
        let body: ByteBuffer?
    }

    public func answer(acceptEncoding: String?, ifNoneMatch: String?) -> Answer {
        let useGzip = gzipped != nil && ContentNegotiation.acceptsGzip(acceptEncoding)
        if let ifNoneMatch, ETag.matches(ifNoneMatch, tag: tag) {
            return useGzip
                ? Answer(status: .notModified, fields: notModifiedGzipFields, wireHead: wire.notModifiedGzip, body: nil)
                : Answer(status: .notModified, fields: notModifiedFields, wireHead: wire.notModified, body: nil)
        }
        if useGzip, let gzipped { return Answer(status: .ok, fields: gzipFields, wireHead: wire.gzip, body: gzipped) }
        return Answer(status: .ok, fields: plainFields, wireHead: wire.plain, body: body)
    }

    public func response(from request: Request, context: some RequestContext) -> Response {
        let answer = answer(acceptEncoding: request.headers[.acceptEncoding], ifNoneMatch: request.headers[.ifNoneMatch])
        guard let body = answer.body else { return Response(status: answer.status, headers: answer.fields) }
        return Response(status: answer.status, headers: answer.fields, body: ResponseBody(byteBuffer: body))
    }
}

public enum CachePolicy {
    /// The catalog only changes when the service restarts on new data; clients revalidate
    /// with If-None-Match after five minutes.
    public static let catalog = "public, max-age=300"
    /// A rendered clip for a word does not change.
    public static let audio = "public, max-age=86400"
    public static let none = "no-store"
}

public enum ETag {
    /// FNV-1a over the bytes, as 16 hex digits.
    public static func hash(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Whether an If-None-Match value names this representation (either encoding of it), by the
    /// weak comparison RFC 9110 asks for: `W/` prefixes are ignored.
    public static func matches(_ header: String, tag: String) -> Bool {
        for item in header.split(separator: ",") {
            var t = item.trimmingWhitespace()
            if t == "*" { return true }
            if t.hasPrefix("W/") { t = t.dropFirst(2) }
            guard t.count >= 2, t.first == "\"", t.last == "\"" else { continue }
            t = t.dropFirst().dropLast()
            if t.hasSuffix("-gz") { t = t.dropLast(3) }
            if t == tag { return true }
        }
        return false
    }
}

public enum ContentNegotiation {
    /// Whether Accept-Encoding allows gzip: named (or `*`) with a q-value above zero.
    public static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        var gzip: Double?
        var star: Double?
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";")
            guard let first = parts.first else { continue }
            let coding = first.trimmingWhitespace().lowercased()
            var q = 1.0
            for parameter in parts.dropFirst() {
                let p = parameter.trimmingWhitespace()
                if p.lowercased().hasPrefix("q=") { q = Double(p.dropFirst(2)) ?? 0 }
            }
            if coding == "gzip" || coding == "x-gzip" { gzip = max(gzip ?? 0, q) } else if coding == "*" { star = q }
        }
        if let gzip { return gzip > 0 }
        return (star ?? 0) > 0
    }
}

extension Substring {
    public func trimmingWhitespace() -> Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" { s = s.dropFirst() }
        while let c = s.last, c == " " || c == "\t" { s = s.dropLast() }
        return s
    }
}
