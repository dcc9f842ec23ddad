import AppCore
import Audio
import Catalog
import Foundation
import HTTPAPI
import TestSupport
import Testing

/// openapi.json at the repository root is the contract; these tests keep the server and the
/// document in step: the same routes, and real responses that fit the documented schemas.
@Suite("openapi.json matches the server")
struct OpenAPITests {
    static func document() throws -> OpenAPIDocument {
        try OpenAPIDocument(path: Repository.root + "/openapi.json")
    }

    @Test("every registered route is documented, and every documented path is registered")
    func routesMatch() async throws {
        let doc = try Self.document()
        let dir = try TemporaryDirectory("vocab-routes")
        defer { dir.remove() }
        try ServerFixture.write(in: dir)
        let server = try await VocabServer.make(environment: TestServer.environment(dir), settings: ServerSettings(port: 0), logSink: { _ in })
        let registered = Set(try await server.routeList())
        let documented = Set(doc.operations.map { "\($0.method) \($0.path)" })
        #expect(registered == documented, "only in server: \(registered.subtracting(documented)); only in document: \(documented.subtracting(registered))")
        #expect(registered.count == 47)
    }

    @Test("the error codes openapi.json lists are exactly those an HTTP body can carry")
    func errorCodesMatch() throws {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Repository.root + "/openapi.json"))) as? [String: Any]
        let error =
            ((((object?["components"] as? [String: Any])?["schemas"] as? [String: Any])?["Error"] as? [String: Any])?["properties"] as? [String: Any])?["error"]
            as? [String: Any]
        let documented = Set(((error?["properties"] as? [String: Any])?["code"] as? [String: Any])?["enum"] as? [String] ?? [])
        let served = Set(FailureCode.allCases.filter(\.reachesHTTP).map(\.rawValue))
        #expect(documented == served, "only documented: \(documented.subtracting(served)); only served: \(served.subtracting(documented))")
    }

    @Test("examples and schemas in the document are well formed; /v1/me asks for the bearer token or the session cookie, the rest is public")
    func documentIsConsistent() throws {
        let doc = try Self.document()
        #expect(doc.version.hasPrefix("3."))
        for problem in doc.danglingReferences() { Issue.record("dangling $ref \(problem)") }
        let examples = doc.examples()
        #expect(examples.count >= 8)
        for (name, example, schema) in examples {
            for problem in doc.validate(example, against: schema) { Issue.record("example \(name): \(problem)") }
        }
        // The validator does catch a body that breaks the contract.
        let broken = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"error":{"code":1,"extra":true}}"#.utf8))
        let problems = doc.validate(broken, against: ["$ref": "#/components/schemas/Error"])
        #expect(problems.count == 4, "\(problems)") // code not a string; message, suggestions missing; extra undocumented
        let scheme = try #require((doc.root["components"] as? [String: Any])?["securitySchemes"] as? [String: Any])["bearer"] as? [String: Any]
        #expect(scheme?["type"] as? String == "http" && scheme?["scheme"] as? String == "bearer")
        for op in doc.operations {
            let label = "\(op.method) \(op.path)"
            #expect(op.responses.keys.contains { $0.hasPrefix("2") }, "\(label) documents no success")
            if !op.parameters.filter({ $0["in"] as? String != "header" }).isEmpty || op.hasBody {
                #expect(op.responses.keys.contains("400"), "\(label) takes input but documents no 400")
            }
            if op.path == "/v1/session" {
                #expect(op.security == (op.method == "POST" ? [] : ["session"]), "\(label): \(op.security)")
                for status in ["401", "429"] { #expect(op.responses[status] != nil, "\(label) documents no \(status)") }
                if op.method == "DELETE" { #expect(op.responses["403"] != nil, "\(label): no 403 for a missing CSRF token") }
            } else if op.path.hasPrefix("/v1/me") || op.path.hasPrefix("/v1/classes") {
                #expect(op.security == ["bearer", "session"], "\(label) does not ask for the bearer token or the session")
                if op.method == "POST" || op.method == "DELETE" {
                    #expect(op.responses["403"] != nil, "\(label): no 403 for a missing CSRF token")
                }
                for status in ["401", "414", "429"] { #expect(op.responses[status] != nil, "\(label) documents no \(status)") }
                let challenge = (op.responses["401"]?["headers"] as? [String: Any])?["WWW-Authenticate"] as? [String: Any]
                #expect(challenge?["required"] as? Bool == true, "\(label): 401 without WWW-Authenticate")
                let retry = (op.responses["429"]?["headers"] as? [String: Any])?["Retry-After"] as? [String: Any]
                #expect(retry?["required"] as? Bool == true, "\(label): 429 without Retry-After")
            } else {
                #expect(op.security.isEmpty, "\(label) is public but asks for a token")
            }
        }
        // On PostgreSQL every route that reads the database may answer 503 database_unavailable;
        // the dictionary (a local file on each instance) and /healthz never do.
        for op in doc.operations {
            let label = "\(op.method) \(op.path)"
            let description = op.responses["503"]?["description"] as? String ?? ""
            if op.path == "/healthz" || op.path.hasPrefix("/v1/moe") || op.path == "/v1/pictures" {
                #expect(!description.contains("database_unavailable"), "\(label) does not use the database")
            } else {
                #expect(description.contains("database_unavailable"), "\(label) documents no 503 database_unavailable")
                let schema = ((op.responses["503"]?["content"] as? [String: Any])?["application/json"] as? [String: Any])?["schema"] as? [String: Any]
                #expect(schema?["$ref"] as? String == "#/components/schemas/Error", "\(label): 503 is not the JSON error")
            }
        }
        let rate = try #require(doc.operations.first { $0.method == "POST" && $0.path == "/v1/me/reviews" })
        let conflict = try #require((rate.responses["409"]?["content"] as? [String: Any])?["application/json"] as? [String: Any])
        #expect((conflict["schema"] as? [String: Any])?["$ref"] as? String == "#/components/schemas/StaleCard")
    }

    /// Checks a live response against the operation's documented status, headers and body.
    static func check(_ r: RawResponse, against op: OpenAPIDocument.Operation, in doc: OpenAPIDocument, label: String) throws {
        let status = String(r.status)
        guard let response = op.responses[status] else {
            Issue.record("\(label.prefix(70)): status \(status) is not documented for \(op.method) \(op.path)")
            return
        }
        for (name, header) in (response["headers"] as? [String: Any]) ?? [:] {
            guard let header = header as? [String: Any], header["required"] as? Bool == true else { continue }
            guard let value = r.header(name) else {
                Issue.record("\(label.prefix(70)) (\(status)): required header \(name) missing")
                continue
            }
            if let allowed = (header["schema"] as? [String: Any])?["enum"] as? [String], !allowed.contains(value) {
                Issue.record("\(label.prefix(70)) (\(status)): \(name): \(value) not in \(allowed)")
            }
        }
        let type = (r.header("content-type") ?? "").split(separator: ";").first.map(String.init) ?? ""
        guard let content = response["content"] as? [String: Any] else {
            #expect(r.body.isEmpty, "\(label): undocumented body")
            return
        }
        let media = try #require(content[type] as? [String: Any], "\(label.prefix(70)): \(type) not documented for \(status)")
        guard type == "application/json" else { return }
        let schema = try #require(media["schema"] as? [String: Any])
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(r.body))
        for problem in doc.validate(value, against: schema) { Issue.record("\(label.prefix(70)) (\(status)): \(problem)") }
    }

    @Test("live responses of every public endpoint fit the documented schema and status codes")
    func responsesFitSchemas() async throws {
        let doc = try Self.document()
        try await withServer(moe: true) { s in
            let requests: [(path: String, target: String)] = [
                ("/healthz", "/healthz"),
                ("/v1/categories", "/v1/categories"),
                ("/v1/categories", "/v1/categories?level=movers"),
                ("/v1/categories", "/v1/categories?level=nope"),
                ("/v1/categories/{id}/words", "/v1/categories/animals/words?level=starters"),
                ("/v1/categories/{id}/words", "/v1/categories/food/words?limit=1&offset=1"),
                ("/v1/categories/{id}/words", "/v1/categories/zoo/words"),
                ("/v1/categories/{id}/words", "/v1/categories/animals/words?limit=0"),
                ("/v1/words", "/v1/words?pos=noun&level=starters"),
                ("/v1/words", "/v1/words?pos=Verb&limit=1&offset=1"),
                ("/v1/words", "/v1/words?pos=thing"),
                ("/v1/words", "/v1/words"),
                ("/v1/words/{word}", "/v1/words/cat"),
                ("/v1/words/{word}", "/v1/words/zebra"),
                ("/v1/words/{word}", "/v1/words/..%2Fx"),
                ("/v1/words/{word}", "/v1/words/\(String(repeating: "w", count: 2100))"),
                ("/v1/search", "/v1/search?q=a"),
                ("/v1/search", "/v1/search?q=a&limit=500"),
                ("/v1/audio/{word}", "/v1/audio/cat?accent=british&format=wav"),
                ("/v1/audio/{word}", "/v1/audio/dog?format=ogg"),
                ("/v1/audio/{word}", "/v1/audio/fish"),
                ("/v1/audio/{word}", "/v1/audio/cat?accent=klingon"),
                ("/v1/audio/{word}", "/v1/audio/zebra"),
                ("/v1/moe/{title}", "/v1/moe/%E5%A5%BD"),
                ("/v1/moe/{title}", "/v1/moe/%E8%A1%8C%E6%98%9F"),
                ("/v1/moe/{title}/audio", "/v1/moe/%E8%A1%8C/audio"),
                ("/v1/moe/{title}/audio", "/v1/moe/%E8%A1%8C/audio?reading=hang2&format=ogg"),
                ("/v1/moe/{title}/audio", "/v1/moe/%E8%A1%8C/audio?reading=hang7"),
                ("/v1/moe/{title}/audio", "/v1/moe/%E8%A1%8C/audio?format=mp3"),
                ("/v1/moe/{title}/audio", "/v1/moe/%E8%A1%8C%E8%A1%8C%E8%A1%8C/audio"),
                ("/v1/moe/strokes/{n}", "/v1/moe/strokes/9"),
                ("/v1/moe/strokes/{n}", "/v1/moe/strokes/0"),
                ("/v1/moe/strokes/{n}", "/v1/moe/strokes/6?limit=2&offset=2"),
                ("/v1/moe/radical/{radical}", "/v1/moe/radical/%E6%B0%B4?limit=2&offset=1"),
                ("/v1/moe/radical/{radical}", "/v1/moe/radical/%E9%BE%9C"),
                ("/v1/moe/radical/{radical}", "/v1/moe/radical/ab"),
                ("/v1/moe/search", "/v1/moe/search?pinyin=xing2&tones=exact&limit=3&offset=1"),
                ("/v1/moe/search", "/v1/moe/search?bopomofo=%E3%84%92%E3%84%A7%E3%84%A5"),
                ("/v1/moe/search", "/v1/moe/search?pinyin=xing&tones=maybe"),
                ("/v1/moe/random", "/v1/moe/random?seed=7&count=2"),
                ("/v1/moe/random", "/v1/moe/random?seed=x"),
                ("/v1/moe/today", "/v1/moe/today"),
                ("/v1/moe/today", "/v1/moe/today?date=2026-03-01"),
                ("/v1/moe/today", "/v1/moe/today?date=2026-02-30"),
                ("/v1/moe/{title}/compounds", "/v1/moe/%E8%A1%8C/compounds?limit=2"),
                ("/v1/moe/{title}/compounds", "/v1/moe/%E8%A1%8C/compounds?offset=-1"),
            ]
            var seen: Set<String> = []
            for (path, target) in requests {
                let op = try #require(doc.operations.first { $0.method == "GET" && $0.path == path }, "\(path) not documented")
                seen.insert(path)
                try Self.check(try await s.get(target), against: op, in: doc, label: target)
            }
            // Learner, session and class operations: learnerResponsesFitSchemas and ClassAPITests.
            #expect(
                seen == Set(doc.operations.filter { !ClassAPITests.covers($0.path) && !$0.path.hasPrefix("/v1/me") && $0.path != "/v1/session" }.map(\.path)))
        }
    }

    @Test(
        "live responses of every /v1/me and /v1/session operation, with a real token and a real session, fit the documented schemas; every documented status is seen"
    )
    func learnerResponsesFitSchemas() async throws {
        let doc = try Self.document()
        try await withServer(moe: true) { s in
            let data = try await LearnerData.open(s)
            let anna = try await data.add("anna")
            var seen: [String: Set<String>] = [:]
            func call(
                _ method: String, _ path: String, _ target: String? = nil, token: String?, json: String? = nil,
                headers: [String: String] = [:]
            ) async throws -> RawResponse {
                let op = try #require(doc.operations.first { $0.method == method && $0.path == path }, "\(method) \(path) not documented")
                let r = try await s.send(method, target ?? path, token: token, json: json, headers: headers)
                seen["\(method) \(path)", default: []].insert(String(r.status))
                try Self.check(r, against: op, in: doc, label: "\(method) \(target ?? path) \(json ?? "")")
                return r
            }
            let a = anna.token
            #expect(try await call("GET", "/v1/me", token: a).object()["name"] as? String == "anna")
            #expect(try await call("GET", "/v1/me/assignments", token: a).text == "[]", "an adult has no assignments of their own")
            let vietnamese = try await call("PATCH", "/v1/me/settings", token: a, json: #"{"language":"vi"}"#)
            #expect((try vietnamese.object()["settings"] as? [String: Any])?["language"] as? String == "vi")
            #expect(try await call("PATCH", "/v1/me/settings", token: a, json: #"{"language":"fr"}"#).status == 400)
            #expect(((try await call("GET", "/v1/me", token: a).object()["settings"] as? [String: Any])?["language"] as? String) == "vi", "kept")
            let cat = try await call("POST", "/v1/me/library", token: a, json: #"{"word":"cat"}"#)
            #expect(cat.status == 201)
            let catID = try #require(((try cat.object()["items"] as? [[String: Any]])?.first?["id"] as? NSNumber)?.int64Value)
            #expect(try await call("POST", "/v1/me/library", token: a, json: #"{"word":"cat"}"#).status == 200)
            #expect(try await call("POST", "/v1/me/library", token: a, json: #"{"word":"行","reading":"háng"}"#).status == 201)
            let dog = try await call("POST", "/v1/me/library", token: a, json: #"{"word":"dog","source":"catalog"}"#)
            let dogID = try #require(((try dog.object()["items"] as? [[String: Any]])?.first?["id"] as? NSNumber)?.int64Value)
            #expect(try await call("POST", "/v1/me/library", token: a, json: #"{"word":"catt"}"#).status == 404)
            #expect(try await call("POST", "/v1/me/library", token: a, json: #"{"word":"cat","source":"web"}"#).status == 400)
            #expect(try await call("POST", "/v1/me/library", token: a, json: #"{"words":"cat"}"#).status == 400)
            #expect(try await call("GET", "/v1/me/library", token: a).status == 200)
            #expect(try await call("GET", "/v1/me/review/next", "/v1/me/review/next?limit=5", token: a).status == 200)
            #expect(try await call("GET", "/v1/me/review/next", "/v1/me/review/next?limit=0", token: a).status == 400)
            let rating = #"{"item":\#(catID),"rating":"good","version":0,"clientId":"c-1"}"#
            #expect(try await call("POST", "/v1/me/reviews", token: a, json: rating).object()["repeated"] as? Bool == false)
            #expect(try await call("POST", "/v1/me/reviews", token: a, json: rating).object()["repeated"] as? Bool == true)
            let stale = try await call("POST", "/v1/me/reviews", token: a, json: #"{"item":\#(catID),"rating":3,"version":0}"#)
            #expect(stale.status == 409)
            #expect((try stale.object()["card"] as? [String: Any])?["version"] as? Int == 1)
            #expect(try await call("POST", "/v1/me/reviews", token: a, json: #"{"item":999999,"rating":3}"#).status == 404)
            #expect(try await call("POST", "/v1/me/reviews", token: a, json: #"{"item":\#(catID),"rating":9}"#).status == 400)
            // Out of the documented ranges is a 400, even where a repeated clientId would answer without looking.
            for body in [
                #"{"item":0,"rating":3,"clientId":"c-1"}"#, #"{"item":\#(catID),"rating":3,"version":-1,"clientId":"c-1"}"#,
                #"{"item":\#(catID),"rating":3,"version":2147483648,"clientId":"c-1"}"#, #"{"item":\#(catID),"rating":"+3"}"#,
            ] {
                #expect(try await call("POST", "/v1/me/reviews", token: a, json: body).status == 400, "\(body)")
            }
            #expect(try await call("GET", "/v1/me/review/next", token: a).status == 200)
            #expect(try await call("GET", "/v1/me/progress", token: a).status == 200)
            let apkg = try await call("GET", "/v1/me/export.apkg", token: a)
            #expect(apkg.status == 200 && apkg.body.starts(with: Array("PK".utf8)), "a zip")
            let csv = try await call("GET", "/v1/me/export.csv", token: a)
            #expect(csv.status == 200 && csv.text.hasPrefix("#separator:"))
            // Saying a word: silence is heard as silence (this server has no listener, and silence
            // needs none); bad audio and an unknown entry are refused before anything is heard.
            func say(_ target: String, _ bytes: [UInt8], type: String = "audio/wav") async throws -> RawResponse {
                let op = try #require(doc.operations.first { $0.method == "POST" && $0.path == "/v1/me/attempts" })
                let r = try await RawHTTP.get(
                    port: s.port, target, method: "POST", headers: ["Authorization": "Bearer \(a)", "Content-Type": type], body: bytes)
                seen["POST /v1/me/attempts", default: []].insert(String(r.status))
                try Self.check(r, against: op, in: doc, label: "POST \(target) (\(bytes.count) bytes of \(type))")
                return r
            }
            let silence = try AttemptAPITests.wav(seconds: 1)
            #expect(try await say("/v1/me/attempts?entry=animals/cat", silence).object()["verdict"] as? String == "silence")
            #expect(try await say("/v1/me/attempts?entry=animals/cat", []).status == 400)
            #expect(try await say("/v1/me/attempts?entry=animals/unicorn", silence).status == 404)
            #expect(try await say("/v1/me/attempts?entry=animals/cat", silence, type: "audio/mpeg").status == 415)
            #expect(try await call("DELETE", "/v1/me/library/{item}", "/v1/me/library/\(dogID)", token: a).status == 204)
            #expect(try await call("DELETE", "/v1/me/library/{item}", "/v1/me/library/\(dogID)", token: a).status == 404)
            #expect(try await call("DELETE", "/v1/me/library/{item}", "/v1/me/library/dog", token: a).status == 400)

            let learnerOps = doc.operations.filter { $0.path.hasPrefix("/v1/me") }
            func target(_ op: OpenAPIDocument.Operation) -> String { op.path.replacingOccurrences(of: "{item}", with: "\(catID)") }
            func body(_ op: OpenAPIDocument.Operation) -> String? {
                op.hasBody ? (op.path.hasSuffix("reviews") ? rating : op.path.hasSuffix("settings") ? #"{"language":"en"}"# : #"{"word":"cat"}"#) : nil
            }
            let long = "?pad=" + String(repeating: "x", count: 2100)
            for op in learnerOps {
                #expect(try await call(op.method, op.path, target(op), token: nil, json: body(op)).status == 401)
                #expect(try await call(op.method, op.path, target(op) + long, token: a, json: body(op)).status == 414)
            }
            // The web app's session: signing in, the cookie on every operation, CSRF refusals, signing out.
            try await data.learning.setPassword("correct horse battery", for: anna.learner)
            let signIn = #"{"name":"anna","password":"correct horse battery"}"#
            #expect(try await call("POST", "/v1/session", token: nil, json: #"{"name":"anna","password":"wrong horse battery"}"#).status == 401)
            #expect(try await call("POST", "/v1/session", token: nil, json: #"{"name":"anna"}"#).status == 400)
            #expect(try await call("POST", "/v1/session", token: nil, json: signIn, headers: ["Content-Type": "text/plain"]).status == 415)
            #expect(try await call("POST", "/v1/session", "/v1/session" + long, token: nil, json: signIn).status == 414)
            let session = try await call("POST", "/v1/session", token: nil, json: signIn)
            let cookie = try #require(session.sessionCookie)
            let csrf = try #require(try session.object()["csrf"] as? String)
            #expect(try await call("GET", "/v1/session", token: nil).status == 401)
            #expect(try await call("GET", "/v1/session", token: nil, headers: ["Cookie": cookie]).status == 200)
            #expect(try await call("GET", "/v1/session", "/v1/session" + long, token: nil, headers: ["Cookie": cookie]).status == 414)
            for op in learnerOps where op.method != "GET" {
                #expect(
                    try await call(op.method, op.path, target(op), token: nil, json: body(op), headers: ["Cookie": cookie]).status == 403,
                    "\(op.method) \(op.path) without the CSRF token")
            }
            #expect(try await call("GET", "/v1/me/library", token: nil, headers: ["Cookie": cookie]).status == 200)
            #expect(try await call("DELETE", "/v1/session", token: nil, headers: ["Cookie": cookie]).status == 403)
            #expect(try await call("DELETE", "/v1/session", "/v1/session" + long, token: nil, headers: ["Cookie": cookie]).status == 414)
            #expect(try await call("DELETE", "/v1/session", token: nil, headers: ["Cookie": cookie, "X-CSRF-Token": csrf]).status == 204)
            #expect(try await call("DELETE", "/v1/session", token: nil, headers: ["Cookie": cookie, "X-CSRF-Token": csrf]).status == 401)
            // Guessing: 20 failures from this address, then every further guess waits (the right
            // token still passes: LearnerAuthorizationTests).
            for i in 0..<20 { _ = try await s.send("GET", "/v1/me", token: "vocab_guess\(i)") }
            for op in learnerOps {
                let r = try await call(op.method, op.path, target(op), token: "vocab_guess", json: body(op))
                #expect(r.status == 429, "\(op.method) \(op.path)")
            }
            #expect(try await call("POST", "/v1/session", token: nil, json: signIn).status == 429)
            #expect(try await call("GET", "/v1/session", token: nil, headers: ["Cookie": cookie]).status == 429)
            #expect(try await call("DELETE", "/v1/session", token: nil, headers: ["Cookie": cookie, "X-CSRF-Token": csrf]).status == 429)
            // 503 database_unavailable needs PostgreSQL down: PostgresServeTests sees it live.
            for op in learnerOps + doc.operations.filter({ $0.path == "/v1/session" }) {
                let documented = Set(op.responses.keys).subtracting(["503"])
                #expect(
                    seen["\(op.method) \(op.path)"] == documented,
                    "\(op.method) \(op.path): documented \(documented.sorted()), seen \((seen["\(op.method) \(op.path)"] ?? []).sorted())")
            }
        }
    }
}

/// Builds a server from the fixture parts without starting it.
