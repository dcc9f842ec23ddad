import AppCore
import Foundation
import Testing

@testable import HTTPAPI

@Suite("vocab serve: hostile and malformed input gets a 4xx, never a crash")
struct InputSafetyTests {
    @Test(
        "path traversal in word names is a 400",
        arguments: [
            "/v1/words/..%2F..%2Fetc%2Fpasswd",
            "/v1/words/%2e%2e",
            "/v1/words/..",
            "/v1/words/../../etc/passwd",
            "/v1/words/a%2Fb",
            "/v1/words/a%5Cb",
            "/v1/words/cat%00",
            "/v1/words/%00",
            "/v1/words/ca%0At",
            "/v1/words/ca%0D%0At",
            "/v1/words/%1B%5B31m",
            "/v1/audio/..%2F..%2Fcatalog.sqlite",
            "/v1/audio/%2e%2e%2fetc",
            "/v1/audio/cat%00.wav",
            "/v1/categories/..%2Fanimals/words",
            "/v1/categories/./words",
            "/v1/moe/..%2F..",
            "/v1/words/%E2%80%AEtac",
            "/v1/words/%ZZ",
            "/v1/words/%C3%28",
        ])
    func traversal(target: String) async throws {
        try await withServer { s in
            let r = try await s.get(target)
            #expect(r.status == 400, "\(target) → \(r.status) \(r.text)")
            let code = try r.error()["code"] as? String
            #expect(["path_traversal", "invalid_text"].contains(code ?? ""), "\(target) → \(code ?? "nil")")
        }
    }

    @Test("over-long input: 400 for long words and searches, 414 for huge targets")
    func overLong() async throws {
        try await withServer { s in
            let long = String(repeating: "a", count: 101)
            for target in [
                "/v1/words/\(long)", "/v1/audio/\(long)", "/v1/search?q=\(long)", "/v1/categories/\(long)/words",
                "/v1/moe/\(String(repeating: "%E8%A1%8C", count: 101))",
            ] {
                let r = try await s.get(target)
                #expect(r.status == 400, "\(target.prefix(40))")
                #expect(try r.error()["code"] as? String == "too_long")
            }
            let ok = try await s.get("/v1/search?q=\(String(repeating: "a", count: 100))")
            #expect(ok.status == 200)
            let huge = try await s.get("/v1/words/\(String(repeating: "b", count: 3000))")
            #expect(huge.status == 414)
            #expect(try huge.error()["code"] as? String == "uri_too_long")
            let hugeQuery = try await s.get("/v1/search?q=cat&pad=\(String(repeating: "x", count: 5000))")
            #expect(hugeQuery.status == 414)
        }
    }

    @Test("every documented path refuses the methods it does not answer with 405 and an Allow header read from the router's own table")
    func allowFollowsTheRouter() async throws {
        let byPath = Dictionary(grouping: try OpenAPITests.document().operations, by: \.path).mapValues { Set($0.map(\.method)) }
        let order = ["GET", "HEAD", "POST", "PATCH", "DELETE"]
        try await withServer { s in
            for (path, documented) in byPath {
                // A plausible value for each parameter: the guard answers before any lookup.
                let target = path.replacingOccurrences(of: #"\{[^}]+\}"#, with: "1", options: .regularExpression)
                let methods = documented.union(documented.contains("GET") ? ["HEAD"] : [])
                for method in ["PUT"] + order where !methods.contains(method) {
                    let r = try await s.request(method, target)
                    #expect(r.status == 405, "\(method) \(target)")
                    #expect(r.header("allow") == order.filter(methods.contains).joined(separator: ", "), "\(method) \(target)")
                }
            }
        }
    }

    @Test("other methods get 405 with Allow; unknown paths a JSON 404; HEAD works")
    func methodsAndRoutes() async throws {
        try await withServer { s in
            for method in ["POST", "PUT", "DELETE", "PATCH", "OPTIONS"] {
                let r = try await s.request(method, "/v1/categories")
                #expect(r.status == 405, "\(method)")
                #expect(r.header("allow") == "GET, HEAD")
                #expect(try r.error()["code"] as? String == "method_not_allowed")
            }
            // `/` is the web app (WebAppServingTests); other paths outside the API are 404s.
            for target in ["/nothing.html", "/v1", "/v1/nothing", "/v2/categories", "/v1/categories/animals/words/extra", "/v1/moe/strokes/6/x"] {
                let r = try await s.get(target)
                #expect(r.status == 404, "\(target)")
                #expect(try r.error()["code"] as? String == "not_found", "\(target)")
            }
            let head = try await s.request("HEAD", "/v1/categories")
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            let get = try await s.get("/v1/categories")
            #expect(head.header("content-length") == String(get.body.count))
            #expect(head.header("etag") == get.header("etag"))
        }
    }

    @Test("bad query strings are answered, not crashed on")
    func oddQueries() async throws {
        try await withServer { s in
            let targets = [
                "/v1/categories?level", "/v1/categories?=&&=&level=starters&level=movers", "/v1/categories?level=%", "/v1/categories?level=%FF",
                "/v1/search?q=%", "/v1/search?q=%00", "/v1/search?q=%E2%80%8B", "/v1/search?q=a/b", "/v1/search?q=..", "/v1/search?q=%F0%9F%90%B1",
                "/v1/search?q=cat&q=dog", "/v1/categories/animals/words?limit=&offset=", "/v1/categories/animals/words?limit=%2B3",
                "/v1/audio/cat?accent=", "/v1/audio/cat?format=", "/v1/audio/cat?accent=british&format=mp3",
                "/v1/moe/strokes/0", "/v1/moe/strokes/-1", "/v1/moe/strokes/65", "/v1/moe/strokes/abc", "/v1/moe/strokes/99999999999999999999",
                "/v1/moe/strokes/6?radical=ab", "/v1/moe/strokes/6?radical=a", "/v1/moe/strokes/6?limit=0",
                "/healthz?x=1", "/v1/categories?level=movers#frag", "/v1/words/%20", "/v1/words/%09",
            ]
            for target in targets {
                let r = try await s.get(target)
                #expect((200..<500).contains(r.status), "\(target) → \(r.status)")
                if r.status >= 400 {
                    #expect(try r.error()["message"] is String, "\(target)")
                    #expect(try r.error()["suggestions"] is [Any], "\(target)")
                }
            }
            #expect(try await s.get("/v1/categories?level=%FF").status == 400)
            #expect(try await s.get("/v1/search?q=%00").status == 400)
            #expect(try await s.get("/v1/audio/cat?format=mp3").status == 400)
            #expect(try await s.get("/v1/audio/cat?accent=scottish").status == 400)
            let twice = try await s.get("/v1/search?q=cat&q=dog")
            #expect(twice.status == 400)
            #expect(try twice.error()["code"] as? String == "repeated_parameter")
            #expect(try await s.get("/v1/categories/animals/words?limit=1&limit=2").status == 400)
        }
    }

    @Test(
        "an escape that is not percent-encoded UTF-8 is a 400, in a query as in a path",
        arguments: [
            "/v1/search?q=%ff%fe", "/v1/search?q=%zz", "/v1/search?q=ca%t", "/v1/search?q=%C3", "/v1/categories?level=%zz",
            "/v1/categories/animals/words?level=%ff", "/v1/audio/cat?accent=%ff%fe", "/v1/words/%zz", "/v1/words/ca%ff",
            "/v1/audio/%zz", "/v1/categories/%zz/words",
        ])
    func invalidEscapes(target: String) async throws {
        try await withServer { s in
            let r = try await s.get(target)
            #expect(r.status == 400, "\(target) → \(r.status) \(r.text.prefix(200))")
            #expect(r.header("content-type")?.hasPrefix("application/json") == true)
            #expect(try r.error()["code"] as? String == "invalid_text", "\(target)")
        }
    }

    @Test("random bytes in paths and queries never give a 5xx and the server stays up")
    func randomInput() async throws {
        try await withServer { (s: TestServer) async throws in
            var rng = SplitMix(seed: 20_260_520)
            let prefixes = [
                "/v1/words/", "/v1/audio/", "/v1/categories/", "/v1/moe/", "/v1/moe/strokes/", "/v1/search?q=",
                "/v1/categories?level=", "/v1/audio/cat?accent=", "/v1/categories/animals/words?limit=",
            ]
            let alphabet = Array("abcxyz019 .%/\\?&=#+-_~!$'()*,;:@[]{}|^`\"<>".utf8)
            for i in 0..<300 {
                var tail = ""
                for _ in 0..<Int(rng.next() % 24) {
                    if rng.next() % 4 == 0 {
                        tail += String(format: "%%%02X", Int(rng.next() % 256))
                    } else {
                        let c = alphabet[Int(rng.next() % UInt64(alphabet.count))]
                        // Bytes a request line cannot carry raw are sent escaped, as a client would.
                        tail +=
                            (c == 32 || c == 35 || c == 34 || c == 60 || c == 62 || c == 92 || c == 94 || c == 96 || c == 123 || c == 124 || c == 125)
                            ? String(format: "%%%02X", Int(c)) : String(UnicodeScalar(c))
                    }
                }
                let target = prefixes[i % prefixes.count] + tail
                do {
                    let r = try await s.get(target)
                    #expect(r.status < 500, "\(target) → \(r.status) \(r.text.prefix(200))")
                } catch {
                    Issue.record("\(target): \(error)")
                }
            }
            #expect(try await s.get("/healthz").status == 200)
        }
    }
}

/// A small deterministic generator, so a failure can be replayed.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Query strings")
struct QueryStringTests {
    @Test("decode as forms; a repeated name or an invalid escape is refused when asked for")
    func query() throws {
        let q = QueryParameters("q=ice+cream&limit=5&q=other&flag&x=%E2%9C%93&=empty&bad=%G1&worse=%ff%fe")
        #expect(throws: Failure.self) { try q["q"] }
        #expect(try q["limit"] == "5")
        #expect(try q["flag"] == "")
        #expect(try q["x"] == "✓")
        #expect(throws: Failure.self) { try q["bad"] }
        #expect(throws: Failure.self) { try q["worse"] }
        #expect(try q["missing"] == nil)
        #expect(try QueryParameters("q=ice+cream")["q"] == "ice cream")
        #expect(try QueryParameters(nil)["q"] == nil)
    }
}
