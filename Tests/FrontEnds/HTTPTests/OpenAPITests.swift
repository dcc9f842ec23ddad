import Audio
import Catalog
import HTTPAPI
import Foundation
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
        let server = try await VocabServer.make(services: TestServer.services(dir), settings: ServerSettings(port: 0), logSink: { _ in })
        let registered = Set(try await server.routeList())
        let documented = Set(doc.operations.map { "\($0.method) \($0.path)" })
        #expect(registered == documented, "only in server: \(registered.subtracting(documented)); only in document: \(documented.subtracting(registered))")
        #expect(registered.count == 10)
    }

    @Test("examples and schemas in the document are well formed")
    func documentIsConsistent() throws {
        let doc = try Self.document()
        #expect(doc.version.hasPrefix("3."))
        for problem in doc.danglingReferences() { Issue.record("dangling $ref \(problem)") }
        let examples = doc.examples()
        #expect(examples.count >= 4)
        for (name, example, schema) in examples {
            for problem in doc.validate(example, against: schema) { Issue.record("example \(name): \(problem)") }
        }
        // The validator does catch a body that breaks the contract.
        let broken = try JSONDecoder().decode(JSONValue.self, from: Data(#"{"error":{"code":1,"extra":true}}"#.utf8))
        let problems = doc.validate(broken, against: ["$ref": "#/components/schemas/Error"])
        #expect(problems.count == 4, "\(problems)")   // code not a string; message, suggestions missing; extra undocumented
        for op in doc.operations {
            #expect(op.responses.keys.contains("200"), "\(op.path) documents no 200")
            if op.path != "/healthz" { #expect(op.responses.keys.contains("400"), "\(op.path) documents no 400") }
        }
    }

    @Test("live responses of every endpoint fit the documented schema and status codes")
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
                ("/v1/moe/strokes/{n}", "/v1/moe/strokes/9"),
                ("/v1/moe/strokes/{n}", "/v1/moe/strokes/0"),
                ("/v1/moe/strokes/{n}", "/v1/moe/strokes/6?limit=2&offset=2"),
                ("/v1/moe/radical/{radical}", "/v1/moe/radical/%E6%B0%B4?limit=2&offset=1"),
                ("/v1/moe/radical/{radical}", "/v1/moe/radical/%E9%BE%9C"),
                ("/v1/moe/radical/{radical}", "/v1/moe/radical/ab"),
                ("/v1/moe/search", "/v1/moe/search?pinyin=xing2&tones=exact&limit=3&offset=1"),
                ("/v1/moe/search", "/v1/moe/search?bopomofo=%E3%84%92%E3%84%A7%E3%84%A5"),
                ("/v1/moe/search", "/v1/moe/search?pinyin=xing&tones=maybe"),
            ]
            var seen: Set<String> = []
            for (path, target) in requests {
                let op = try #require(doc.operations.first { $0.path == path }, "\(path) not documented")
                let r = try await s.get(target)
                seen.insert(path)
                let status = String(r.status)
                guard let response = op.responses[status] else {
                    Issue.record("\(target.prefix(60)): status \(status) is not documented for \(path)")
                    continue
                }
                let type = (r.header("content-type") ?? "").split(separator: ";").first.map(String.init) ?? ""
                guard let content = response["content"] as? [String: Any] else {
                    #expect(r.body.isEmpty, "\(target): undocumented body")
                    continue
                }
                let media = try #require(content[type] as? [String: Any], "\(target.prefix(60)): \(type) not documented for \(status)")
                guard type == "application/json" else { continue }
                let schema = try #require(media["schema"] as? [String: Any])
                let value = try JSONDecoder().decode(JSONValue.self, from: Data(r.body))
                for problem in doc.validate(value, against: schema) { Issue.record("\(target.prefix(60)) (\(status)): \(problem)") }
            }
            #expect(seen == Set(doc.operations.map(\.path)))
        }
    }
}

/// Builds a server from the fixture parts without starting it.
