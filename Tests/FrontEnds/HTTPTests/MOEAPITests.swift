import Foundation
import Testing

@Suite("vocab serve: the MOE dictionary endpoints")
struct MOEAPITests {
    @Test("without an import, the MOE endpoints say so with a 404")
    func notImported() async throws {
        try await withServer { s in
            for target in ["/v1/moe/%E8%A1%8C", "/v1/moe/strokes/6"] {
                let r = try await s.get(target)
                #expect(r.status == 404)
                #expect(try r.error()["code"] as? String == "dictionary_not_imported")
            }
        }
    }

    @Test("lookup by title, unknown titles with suggestions, characters by strokes")
    func imported() async throws {
        try await withServer(moe: true) { s in
            let health = try await s.get("/healthz")
            #expect(try health.object()["moe"] as? Bool == true)

            let xing = try await s.get("/v1/moe/%E8%A1%8C") // 行
            #expect(xing.status == 200)
            let o = try xing.object()
            #expect(o["title"] as? String == "行")
            let entry = try #require((o["entries"] as? [[String: Any]])?.first)
            #expect(entry["radical"] as? String == "行")
            #expect(entry["strokeCount"] as? Int == 6)
            let readings = try #require(entry["readings"] as? [[String: Any]])
            #expect(readings.count >= 2)
            #expect(readings.contains { $0["pinyin"] as? String == "xíng" })
            let tag = try #require(xing.header("etag"))
            #expect(try await s.get("/v1/moe/%E8%A1%8C", headers: ["If-None-Match": tag]).status == 304)

            let unknown = try await s.get("/v1/moe/%E8%A1%8C%E6%98%9F") // 行星: not in the sample
            #expect(unknown.status == 404)
            #expect(try unknown.error()["code"] as? String == "unknown_title")
            #expect((try unknown.error()["suggestions"] as? [String])?.isEmpty == false)

            let six = try await s.get("/v1/moe/strokes/6")
            #expect(six.status == 200)
            let list = try six.object()
            let titles = (list["characters"] as? [[String: Any]])?.compactMap { $0["title"] as? String } ?? []
            #expect(titles.contains("行") && titles.contains("好"))
            #expect(list["total"] as? Int == titles.count)
            #expect(list["strokes"] as? Int == 6)
            let water = try await s.get("/v1/moe/strokes/6?radical=%E6%B0%B5&limit=2") // 氵
            let w = try water.object()
            #expect((w["characters"] as? [[String: Any]])?.count == 2)
            #expect((w["total"] as? Int ?? 0) >= 3)
            #expect(try await s.get("/v1/moe/strokes/0").status == 400)
            #expect(try await s.get("/v1/moe/strokes/6?radical=x").status == 400)
        }
    }

    @Test("reading search, strokes and radical are paged like words; tones=exact narrows by the tones typed")
    func pagedListingsAndTones() async throws {
        try await withServer(moe: true) { s in
            let first = try await s.get("/v1/moe/search?pinyin=xing&limit=5")
            #expect(first.status == 200)
            let page = try first.object()
            #expect(page["total"] as? Int == 19 && page["offset"] as? Int == 0 && page["limit"] as? Int == 5)
            #expect(page["pinyin"] as? String == "xing" && page["tones"] as? String == "ignore")
            var titles: [String] = []
            for offset in stride(from: 0, to: 20, by: 5) {
                let r = try await s.get("/v1/moe/search?pinyin=xing&limit=5&offset=\(offset)").object()
                titles += (r["readings"] as? [[String: Any]])?.compactMap { $0["title"] as? String } ?? []
            }
            let all = try await s.get("/v1/moe/search?pinyin=xing&limit=100").object()
            #expect(titles == (all["readings"] as? [[String: Any]])?.compactMap { $0["title"] as? String })

            let exact = try await s.get("/v1/moe/search?bopomofo=%E3%84%92%E3%84%A7%E3%84%A5%CB%8A&tones=exact").object() // ㄒㄧㄥˊ
            #expect(exact["total"] as? Int == 11 && exact["tones"] as? String == "exact")
            #expect(try await s.get("/v1/moe/search?pinyin=xing2").object()["total"] as? Int == 19)

            let strokes = try await s.get("/v1/moe/strokes/6?limit=4&offset=4").object()
            #expect(strokes["offset"] as? Int == 4 && (strokes["characters"] as? [Any])?.count == 2)
            let water = try await s.get("/v1/moe/radical/%E6%B0%B5?limit=3&offset=9").object() // 氵
            #expect(water["total"] as? Int == 10 && (water["characters"] as? [[String: Any]])?.first?["title"] as? String == "海")
            let none = try await s.get("/v1/moe/radical/%E9%BE%9C") // 龜
            #expect(none.status == 404)
            #expect(try none.error()["code"] as? String == "unknown_radical")

            for bad in [
                "/v1/moe/search", "/v1/moe/search?pinyin=xing&bopomofo=%E3%84%92", "/v1/moe/search?pinyin=123",
                "/v1/moe/search?pinyin=xing&tones=some", "/v1/moe/search?pinyin=xing&offset=-1",
                "/v1/moe/search?pinyin=xing&limit=1001", "/v1/moe/radical/ab",
            ] {
                #expect(try await s.get(bad).status == 400, "\(bad)")
            }
        }
    }

    @Test("random entries: the same seed gives the same entries; a fresh seed is reported")
    func randomEntries() async throws {
        try await withServer(moe: true) { s in
            let first = try await s.get("/v1/moe/random?seed=7&count=3").object()
            let titles = (first["entries"] as? [[String: Any]])?.compactMap { $0["title"] as? String }
            #expect(titles?.count == 3 && first["seed"] as? UInt64 == 7 && first["source"] as? String == "moe")
            let again = try await s.get("/v1/moe/random?count=3&seed=7").object()
            #expect((again["entries"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == titles)
            let fresh = try await s.get("/v1/moe/random?count=2").object()
            let seed = try #require(fresh["seed"] as? UInt64)
            let repeated = try await s.get("/v1/moe/random?count=2&seed=\(seed)").object()
            #expect(
                (repeated["entries"] as? [[String: Any]])?.compactMap { $0["title"] as? String }
                    == (fresh["entries"] as? [[String: Any]])?.compactMap { $0["title"] as? String })
            for bad in ["/v1/moe/random?seed=-1", "/v1/moe/random?seed=x", "/v1/moe/random?count=0", "/v1/moe/random?count=501"] {
                #expect(try await s.get(bad).status == 400, "\(bad)")
            }
        }
    }

    @Test("the word of the day: the same entry all day, another the next day; a bad date is a 400")
    func wordOfTheDay() async throws {
        try await withServer(moe: true) { s in
            let first = try await s.get("/v1/moe/today?date=2026-03-01").object()
            #expect(first["date"] as? String == "2026-03-01" && first["seed"] as? Int == 20513 && first["source"] as? String == "moe")
            #expect((first["entry"] as? [String: Any])?["title"] as? String == "汪")
            let again = try await s.get("/v1/moe/today?date=2026-03-01").object()
            #expect((again["entry"] as? [String: Any])?["title"] as? String == "汪")
            let next = try await s.get("/v1/moe/today?date=2026-03-02").object()
            #expect((next["entry"] as? [String: Any])?["title"] as? String == "行人" && next["seed"] as? Int == 20514)
            let today = try await s.get("/v1/moe/today").object()
            let date = try #require(today["date"] as? String)
            let named = try await s.get("/v1/moe/today?date=\(date)").object()
            #expect((named["entry"] as? [String: Any])?["title"] as? String == (today["entry"] as? [String: Any])?["title"] as? String)
            for (bad, code) in [("2026-02-30", "bad_date"), ("yesterday", "bad_date"), ("2026-03-01&date=2026-03-02", "repeated_parameter")] {
                let r = try await s.get("/v1/moe/today?date=\(bad)")
                #expect(r.status == 400, "\(bad)")
                #expect(try r.error()["code"] as? String == code, "\(bad)")
            }
        }
    }

    @Test("compounds of a title, paged like every listing")
    func compounds() async throws {
        try await withServer(moe: true) { s in
            let page = try await s.get("/v1/moe/%E8%A1%8C/compounds?limit=4&offset=8").object() // 行
            #expect(page["title"] as? String == "行" && page["total"] as? Int == 10 && page["offset"] as? Int == 8)
            #expect((page["entries"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["行將就木", "行政院農業委員會"])
            #expect(try await s.get("/v1/moe/%E8%A1%8C/compounds?limit=0").status == 400)
        }
    }
}
