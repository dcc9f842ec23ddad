import HTTPTypes
import Testing

@testable import HTTPAPI

/// The guard's and the metrics' view of the router's table: which route answers a path, and so
/// which methods it takes and which template labels it.
@Suite("Allowed methods: the route a path reaches, as the router decides")
struct AllowedMethodsTests {
    static func table() -> AllowedMethods {
        let table = AllowedMethods()
        table.load([
            ("/healthz", .get),
            ("/v1/me/library", .get), ("/v1/me/library", .post),
            ("/v1/me/library/{item}", .delete),
            ("/v1/moe/{title}", .get),
            ("/v1/moe/radical/{radical}", .get),
            ("/v1/moe/{title}/audio", .get),
            ("/v1/classes/{code}/progress.csv", .get),
            ("/v1/classes/{code}/progress", .get),
            ("/v1/audio/{word}.wav", .get),
            ("/v1/files/**", .put),
        ])
        return table
    }

    @Test("a path takes the methods of the route it reaches, GET bringing HEAD")
    func methods() {
        let table = Self.table()
        #expect(table.methods(for: "/healthz") == [.get, .head])
        #expect(table.methods(for: "/v1/me/library") == [.get, .head, .post])
        #expect(table.methods(for: "/v1/me/library/7") == [.delete])
        #expect(table.methods(for: "/v1/me/library/7/") == [.delete])
    }

    @Test("where a literal segment and a capture both match, the literal route decides")
    func literalsWin() {
        let table = Self.table()
        #expect(table.template(for: "/v1/moe/radical/水") == "/v1/moe/radical/{radical}")
        #expect(table.template(for: "/v1/moe/radical") == "/v1/moe/{title}")
        #expect(table.template(for: "/v1/moe/行/audio") == "/v1/moe/{title}/audio")
        #expect(table.template(for: "/v1/classes/ABC/progress.csv") == "/v1/classes/{code}/progress.csv")
        #expect(table.template(for: "/v1/classes/ABC/progress") == "/v1/classes/{code}/progress")
    }

    @Test("captures with a suffix, and a tail that takes the rest")
    func patterns() {
        let table = Self.table()
        #expect(table.template(for: "/v1/audio/cat.wav") == "/v1/audio/{word}.wav")
        #expect(table.template(for: "/v1/audio/cat.ogg") == "unmatched")
        #expect(table.methods(for: "/v1/files/a/b/c") == [.put])
        #expect(table.methods(for: "/v1/files") == [.put])
    }

    @Test("a path no route takes is the web app's (GET and HEAD) or an unmatched API path")
    func unmatched() {
        let table = Self.table()
        #expect(table.methods(for: "/index.html") == [.get, .head])
        #expect(table.template(for: "/index.html") == "web")
        #expect(table.template(for: "/v1/nothing") == "unmatched")
        #expect(table.template(for: "/v1/me/library/7/extra") == "unmatched")
        #expect(AllowedMethods().methods(for: "/v1/me/library") == [.get, .head])
    }
}
