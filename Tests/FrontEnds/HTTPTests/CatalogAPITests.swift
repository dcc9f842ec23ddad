import CompressNIO
import Foundation
import HTTPFetch
import NIOCore
import Testing

@Suite("vocab serve: catalog endpoints over loopback HTTP")
struct CatalogAPITests {
    @Test("GET /healthz reports what is loaded")
    func health() async throws {
        try await withServer { s in
            let r = try await s.get("/healthz")
            #expect(r.status == 200)
            #expect(r.header("content-type") == "application/json; charset=utf-8")
            #expect(r.header("cache-control") == "no-store")
            let o = try r.object()
            #expect(o["status"] as? String == "ok")
            #expect((o["catalog"] as? [String: Any])?["categories"] as? Int == 2)
            #expect((o["catalog"] as? [String: Any])?["words"] as? Int == 7)
            #expect(o["moe"] as? Bool == false)
            #expect(o["voice"] as? String == "off", "this server runs without the neural voice")
        }
    }

    @Test("GET /healthz says when the neural voice is ready: starting while it loads, then ready")
    func healthSaysWhenTheVoiceIsReady() async throws {
        try await withServer(neural: true) { s in
            var states: [String] = []
            // Asked until it is ready (or a minute has gone: a voice that never loads fails here).
            let end = Date().addingTimeInterval(60)
            while states.last != "ready" && Date() < end {
                let state = try await s.get("/healthz").object()["voice"] as? String ?? "?"
                if states.last != state { states.append(state) }
                if state != "ready" { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(states == ["starting", "ready"] || states == ["ready"], "\(states)")
        }
    }

    @Test("GET /v1/categories lists categories in order with counts, per level")
    func categories() async throws {
        try await withServer { s in
            let all = try await s.get("/v1/categories")
            #expect(all.status == 200)
            let list = try #require(try all.object()["categories"] as? [[String: Any]])
            #expect(list.map { $0["id"] as? String } == ["animals", "food"])
            #expect(list[0]["wordCount"] as? Int == 4)
            #expect((list[0]["levelCounts"] as? [String: Int]) == ["starters": 3, "movers": 4, "flyers": 4])
            #expect(try all.object()["level"] is NSNull)

            let flyers = try await s.get("/v1/categories?level=flyers")
            let food = try #require((try flyers.object()["categories"] as? [[String: Any]])?.last)
            #expect(food["wordCount"] as? Int == 3)
            #expect(try flyers.object()["level"] as? String == "flyers")
            // Levels in any case, as on the command line; a near miss is named in the error.
            #expect(try await s.get("/v1/categories?level=FLYERS").status == 200)
            let near = try await s.get("/v1/categories?level=flyer")
            #expect(near.status == 400)
            #expect(try near.error()["suggestions"] as? [String] == ["flyers"])
        }
    }

    @Test("every entry an answer names carries its id: lists, word pages, search results (with the picture)")
    func entriesCarryTheirIDs() async throws {
        try await withServer { s in
            let words = try #require(try await s.get("/v1/categories/animals/words").object()["words"] as? [[String: Any]])
            #expect(words.map { $0["id"] as? String } == ["animals/cat", "animals/dog", "animals/elephant", "animals/fish"])
            let page = try #require(try await s.get("/v1/words/ice%20cream").object()["entries"] as? [[String: Any]])
            #expect(page.map { $0["id"] as? String } == ["food/ice-cream"])
            let found = try #require(try await s.get("/v1/search?q=cat").object()["results"] as? [[String: Any]])
            let cat = try #require(found.first { $0["title"] as? String == "cat" })
            #expect(cat["id"] as? String == "animals/cat" && cat["reference"] as? String == "catalog:animals/cat")
            #expect(cat["picture"] as? String == "🐈")
        }
    }

    @Test("a bad level is a 400 naming the valid ones")
    func badLevel() async throws {
        try await withServer { s in
            for target in ["/v1/categories?level=starter", "/v1/categories?level=", "/v1/categories/animals/words?level=expert"] {
                let r = try await s.get(target)
                #expect(r.status == 400, "\(target)")
                #expect(try r.error()["code"] as? String == "bad_level")
                #expect(r.header("content-type") == "application/json; charset=utf-8")
                #expect(r.header("cache-control") == "no-store")
            }
            let close = try await s.get("/v1/categories?level=starter")
            #expect(try close.error()["suggestions"] as? [String] == ["starters"])
        }
    }

    @Test("GET /v1/categories/{id}/words pages alphabetically, by id or name")
    func words() async throws {
        try await withServer { s in
            let r = try await s.get("/v1/categories/animals/words?level=starters")
            #expect(r.status == 200)
            let o = try r.object()
            #expect((o["words"] as? [[String: Any]])?.map { $0["word"] as? String } == ["cat", "dog", "fish"])
            #expect(o["total"] as? Int == 3)
            #expect(o["limit"] as? Int == 200)
            #expect(o["offset"] as? Int == 0)
            #expect((o["category"] as? [String: Any])?["id"] as? String == "animals")

            let page = try await s.get("/v1/categories/animals/words?limit=2&offset=1")
            let p = try page.object()
            #expect((p["words"] as? [[String: Any]])?.map { $0["word"] as? String } == ["dog", "elephant"])
            #expect(p["total"] as? Int == 4)
            #expect(p["level"] is NSNull)

            let byName = try await s.get("/v1/categories/Food%20and%20drink/words")
            #expect(byName.status == 200)
            #expect((try byName.object()["category"] as? [String: Any])?["id"] as? String == "food")
            let past = try await s.get("/v1/categories/food/words?offset=50")
            #expect((try past.object()["words"] as? [Any])?.isEmpty == true)
        }
    }

    @Test("GET /v1/words?pos= lists one part of speech across the topics, alphabetically, with ids")
    func wordsOfAPartOfSpeech() async throws {
        try await withServer { s in
            let r = try await s.get("/v1/words?pos=Noun&level=starters")
            #expect(r.status == 200, "\(r.text)")
            let o = try r.object()
            let words = o["words"] as? [[String: Any]] ?? []
            #expect(words.map { $0["word"] as? String } == ["apple", "cat", "dog", "fish", "ice cream"], "both topics, in order")
            #expect(words.map { $0["id"] as? String } == ["food/apple", "animals/cat", "animals/dog", "animals/fish", "food/ice-cream"])
            #expect(o["pos"] as? String == "noun" && o["level"] as? String == "starters" && o["total"] as? Int == 5)
            let page = try await s.get("/v1/words?pos=noun&limit=2&offset=2").object()
            #expect((page["words"] as? [[String: Any]])?.map { $0["word"] as? String } == ["cat", "dog"] && page["total"] as? Int == 7)
            let none = try await s.get("/v1/words?pos=verb")
            let noneTotal = try none.object()["total"] as? Int
            #expect(none.status == 200 && noneTotal == 0, "a part of speech with no entries here is an empty page")
            let bad = try await s.get("/v1/words?pos=nouns")
            #expect(bad.status == 400)
            #expect(try bad.error()["code"] as? String == "bad_part_of_speech")
            #expect(try bad.error()["suggestions"] as? [String] == ["noun"])
            let missing = try await s.get("/v1/words")
            let missingCode = try missing.error()["code"] as? String
            #expect(missing.status == 400 && missingCode == "missing_parameter")
        }
    }

    @Test("an unknown category is a 404 with suggestions")
    func unknownCategory() async throws {
        try await withServer { s in
            let r = try await s.get("/v1/categories/animal/words")
            #expect(r.status == 404)
            let e = try r.error()
            #expect(e["code"] as? String == "unknown_category")
            #expect(e["suggestions"] as? [String] == ["animals"])
            #expect((e["message"] as? String)?.contains("animal") == true)
        }
    }

    @Test("limits and offsets out of range or not numbers are 400s")
    func limits() async throws {
        try await withServer { s in
            let cases: [(String, String)] = [
                ("/v1/categories/animals/words?limit=0", "out_of_range"),
                ("/v1/categories/animals/words?limit=1001", "out_of_range"),
                ("/v1/categories/animals/words?limit=-5", "out_of_range"),
                ("/v1/categories/animals/words?limit=ten", "bad_number"),
                ("/v1/categories/animals/words?limit=99999999999999999999999", "bad_number"),
                ("/v1/categories/animals/words?offset=-1", "out_of_range"),
                ("/v1/categories/animals/words?offset=100001", "out_of_range"),
                ("/v1/search?q=cat&limit=0", "out_of_range"),
                ("/v1/search?q=cat&limit=101", "out_of_range"),
                ("/v1/search?q=cat&limit=1.5", "bad_number"),
            ]
            for (target, code) in cases {
                let r = try await s.get(target)
                #expect(r.status == 400, "\(target)")
                #expect(try r.error()["code"] as? String == code, "\(target)")
            }
        }
    }

    @Test("GET /v1/words/{word}: exact, case-insensitive, by translation, with spaces")
    func lookup() async throws {
        try await withServer { s in
            let cat = try await s.get("/v1/words/cat")
            #expect(cat.status == 200)
            let o = try cat.object()
            #expect(o["word"] as? String == "cat")
            let entry = try #require((o["entries"] as? [[String: Any]])?.first)
            #expect(entry["vi"] as? String == "con mèo")
            #expect((entry["ipa"] as? [String: String])?["british"] == "cat")
            #expect((entry["audio"] as? [String: Any]) != nil)

            #expect(try await s.get("/v1/words/CAT").object()["word"] as? String == "cat")
            #expect(try await s.get("/v1/words/ice%20cream").object()["word"] as? String == "ice cream")
            #expect(try await s.get("/v1/words/con%20m%C3%A8o").object()["word"] as? String == "cat")
        }
    }

    @Test("an unknown word is a 404 with suggestions")
    func unknownWord() async throws {
        try await withServer { s in
            let r = try await s.get("/v1/words/catt")
            #expect(r.status == 404)
            let e = try r.error()
            #expect(e["code"] as? String == "unknown_word")
            #expect((e["suggestions"] as? [String])?.contains("cat") == true)
        }
    }

    @Test("GET /v1/search finds headwords and accent-free translations")
    func search() async throws {
        try await withServer { s in
            let meo = try await s.get("/v1/search?q=meo")
            #expect(meo.status == 200)
            #expect((try meo.object()["results"] as? [[String: Any]])?.map { $0["title"] as? String } == ["cat"])
            let c = try await s.get("/v1/search?q=c&limit=2")
            let words = (try c.object()["results"] as? [[String: Any]])?.compactMap { $0["title"] as? String }
            #expect(words == ["cake", "cat"])
            #expect(try c.object()["limit"] as? Int == 2)
            let spaced = try await s.get("/v1/search?q=ice+cream")
            #expect((try spaced.object()["results"] as? [[String: Any]])?.first?["title"] as? String == "ice cream")
            #expect(try spaced.object()["query"] as? String == "ice cream")
            let none = try await s.get("/v1/search?q=zzzz")
            #expect(none.status == 200)
            #expect((try none.object()["results"] as? [Any])?.isEmpty == true)
            let missing = try await s.get("/v1/search")
            #expect(missing.status == 400)
            #expect(try missing.error()["code"] as? String == "missing_parameter")
            let blank = try await s.get("/v1/search?q=%20%20")
            #expect(blank.status == 400)
        }
    }

    @Test("ETag and If-None-Match give 304; Cache-Control is set")
    func conditional() async throws {
        try await withServer { s in
            let target = "/v1/categories/animals/words?level=starters"
            let first = try await s.get(target)
            let etag = try #require(first.header("etag"))
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
            #expect(first.header("cache-control") == "public, max-age=300")
            #expect(try await s.get(target).header("etag") == etag) // stable

            let again = try await s.get(target, headers: ["If-None-Match": etag])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            #expect(again.header("etag") == etag)
            #expect(try await s.get(target, headers: ["If-None-Match": "W/\(etag)"]).status == 304)
            #expect(try await s.get(target, headers: ["If-None-Match": "\"other\", \(etag)"]).status == 304)
            #expect(try await s.get(target, headers: ["If-None-Match": "*"]).status == 304)
            #expect(try await s.get(target, headers: ["If-None-Match": "\"stale\""]).status == 200)
            // Another page has another tag.
            #expect(try await s.get("/v1/categories/animals/words?level=movers", headers: ["If-None-Match": etag]).status == 200)
            for other in ["/v1/categories", "/v1/words/cat", "/v1/search?q=ca"] {
                let r = try await s.get(other)
                let tag = try #require(r.header("etag"), "\(other)")
                #expect(try await s.get(other, headers: ["If-None-Match": tag]).status == 304, "\(other)")
            }
        }
    }

    @Test("gzip when the client accepts it, identical once decompressed")
    func gzip() async throws {
        try await withServer { s in
            let target = "/v1/categories/animals/words"
            let plain = try await s.get(target)
            #expect(plain.header("content-encoding") == nil)
            #expect(plain.header("vary") == "Accept-Encoding")
            for accept in ["gzip", "deflate, gzip;q=0.8", "br;q=1.0, *;q=0.5", "GZIP"] {
                let packed = try await s.get(target, headers: ["Accept-Encoding": accept])
                #expect(packed.header("content-encoding") == "gzip", "\(accept)")
                #expect(packed.body.count < plain.body.count)
                #expect(packed.body.prefix(2) == [0x1F, 0x8B])
                var buffer = ByteBuffer(bytes: packed.body)
                let unpacked = try buffer.decompress(with: .gzip())
                #expect(Array(unpacked.readableBytesView) == plain.body)
                let tag = try #require(packed.header("etag"))
                #expect(tag != plain.header("etag"))
                #expect(try await s.get(target, headers: ["Accept-Encoding": accept, "If-None-Match": tag]).status == 304)
            }
            for refuse in ["gzip;q=0", "identity", "br", "*;q=0", "gzip;q=0, *"] {
                #expect(try await s.get(target, headers: ["Accept-Encoding": refuse]).header("content-encoding") == nil, "\(refuse)")
            }
        }
    }

    @Test("a real client (libcurl) reads the JSON, gzip or not")
    func curlClient() async throws {
        try await withServer { s in
            let client = CurlHTTPClient()
            let response = try await client.get(
                "http://127.0.0.1:\(s.port)/v1/categories/animals/words?level=starters",
                options: HTTPRequestOptions(timeout: 10))
            #expect(response.status == 200)
            #expect(response.mediaType == "application/json")
            let o = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
            #expect(o?["total"] as? Int == 3)
            let missing = try await client.get("http://127.0.0.1:\(s.port)/v1/words/zebra", options: HTTPRequestOptions(timeout: 10))
            #expect(missing.status == 404)
        }
    }
}
