import Foundation
import Learners
import TestSupport
import Testing

/// GET /v1/search over loopback: the page `vocab search --json` prints, public for the catalog and
/// the Mandarin dictionary, with the library only of the caller who signed in.
@Suite("GET /v1/search across sources")
struct SearchAPITests {
    static func results(_ r: RawResponse) throws -> [[String: Any]] { (try r.object()["results"] as? [[String: Any]]) ?? [] }

    @Test("labels, ranking and paging; the same body as vocab search --json")
    func sameAsTheCommandLine() async throws {
        try await withServer(moe: true) { s in
            let han = try await s.get("/v1/search?q=%E8%A1%8C") // 行
            #expect(han.status == 200)
            let body = try han.object()
            #expect(body["sources"] as? [String] == ["catalog", "moe"], "no library without credentials")
            let first = try #require(try Self.results(han).first)
            #expect(
                first["source"] as? String == "moe" && first["reference"] as? String == "moe:行" && first["match"] as? String == "title"
                    && first["rank"] as? String == "exact")
            #expect(try Self.results(han).dropFirst().allSatisfy { $0["rank"] as? String == "prefix" })

            let page = try await s.get("/v1/search?q=xing&limit=3&offset=3").object()
            #expect(page["limit"] as? Int == 3 && page["offset"] as? Int == 3 && (page["total"] as? Int ?? 0) > 6)

            // The command line over the server's own home prints the same page.
            for (query, source) in [("cat", "catalog"), ("xing", "moe"), ("ca", "catalog")] {
                let http = try await s.get("/v1/search?q=\(query)&source=\(source)&limit=5")
                let cli = try runProcess(
                    Repository.vocabExecutable, ["search", query, "--source", source, "--limit", "5", "--json"],
                    environment: ["VOCAB_HOME": s.dir.file("home"), "VOCAB_CATEGORIES": s.dir.file("Categories")])
                #expect(cli.status == 0, "\(cli.stderr)")
                let a = try JSONSerialization.jsonObject(with: Data(http.body)) as? NSDictionary
                let b = try JSONSerialization.jsonObject(with: Data(cli.stdout.utf8)) as? NSDictionary
                #expect(a != nil && a == b, "\(query) \(source): \(http.text) vs \(cli.stdout)")
            }
        }
    }

    @Test("bad parameters are 400 JSON errors")
    func badParameters() async throws {
        try await withServer { s in
            for (target, code) in [
                ("/v1/search?q=cat&source=web", "bad_source"), ("/v1/search?q=cat&offset=-1", "out_of_range"),
                ("/v1/search?q=cat&offset=100001", "out_of_range"), ("/v1/search?q=cat&limit=0", "out_of_range"),
                ("/v1/search?q=cat&offset=two", "bad_number"), ("/v1/search?source=moe", "missing_parameter"),
                ("/v1/search?q=cat&source=moe&source=all", "repeated_parameter"),
            ] {
                let r = try await s.get(target)
                #expect(r.status == 400, "\(target)")
                #expect(try r.error()["code"] as? String == code, "\(target): \(r.text)")
            }
            // The dictionary is not imported: asked for by name, that is what the answer says.
            let moe = try await s.get("/v1/search?q=xing&source=moe")
            #expect(moe.status == 404 && moe.text.contains("import"), "\(moe.text)")
        }
    }

    @Test("the library: only the caller's, by token or session cookie; anonymous, bad-token and other callers' answers never show it")
    func libraryIsPrivate() async throws {
        try await withServer(moe: true) { s in
            let data = try await LearnerData.open(s)
            let anna = try await data.add("anna")
            let ben = try await data.add("ben")
            let now = Date().timeIntervalSince1970
            _ = try await data.store.save(
                ItemKey(.dictionary, "catamaran"), word: "catamaran",
                details: ItemDetails(definition: "a boat with two hulls"), for: anna.id, at: now)
            _ = try await data.store.save(ItemKey(.dictionary, "catapult"), word: "catapult", details: nil, for: ben.id, at: now)
            try await data.save(["dog"], for: ben)

            // Anonymous first: the answer kept for the public must not be what Anna gets, nor hers what the public gets.
            let target = "/v1/search?q=cat"
            for _ in 0..<2 {
                let anonymous = try await s.get(target)
                #expect(anonymous.status == 200 && anonymous.header("cache-control") == "no-cache")
                #expect(try Self.results(anonymous).map { $0["title"] as? String } == ["cat"])
                let mine = try await s.send("GET", target, headers: anna.credentials)
                #expect(mine.header("cache-control") == "no-store")
                let titles = try Self.results(mine).map { "\($0["source"] ?? "") \($0["reference"] ?? "")" }
                #expect(titles == ["catalog catalog:animals/cat", "library dictionary:catamaran"], "\(titles)")
                #expect(!mine.text.contains("catapult"))
                let his = try await s.send("GET", target, headers: ben.credentials)
                #expect(try Self.results(his).map { $0["reference"] as? String } == ["catalog:animals/cat", "dictionary:catapult"])
                #expect(!his.text.contains("catamaran") && !his.text.contains("boat"))
            }
            // His catalog word is found in the catalog for everyone, and in his library only for him.
            let dog = try await s.send("GET", "/v1/search?q=dog&source=library", headers: anna.credentials)
            #expect(try dog.object()["total"] as? Int == 0)
            #expect(try Self.results(try await s.send("GET", "/v1/search?q=dog&source=library", headers: ben.credentials)).count == 1)
            #expect(try await s.get("/v1/search?q=dog&source=library").object()["sources"] as? [String] == [])

            // The web app's session cookie works as the token does.
            let annaWeb = try await anna.signedIn(s, data: data)
            let web = try await s.send("GET", "/v1/search?q=boat&source=library", headers: annaWeb.credentials)
            #expect(try Self.results(web).map { $0["title"] as? String } == ["catamaran"])
            // A bad or revoked credential is not refused on a public endpoint: it just sees what the public sees.
            for headers in [["Authorization": "Bearer vocab_not-a-token"], ["Cookie": "vocab_session=nonsense"]] {
                let r = try await s.send("GET", target, headers: headers, from: "127.0.0.9")
                #expect(r.status == 200 && !r.text.contains("catamaran") && !r.text.contains("catapult"), "\(headers)")
            }
            _ = try await data.store.revokeTokens(of: anna.id, at: Date().timeIntervalSince1970)
            let revoked = try await s.send("GET", target, headers: anna.authorization, from: "127.0.0.9")
            #expect(revoked.status == 200 && !revoked.text.contains("catamaran"))
        }
    }
}
