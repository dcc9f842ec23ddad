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

            let xing = try await s.get("/v1/moe/%E8%A1%8C")   // 行
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

            let unknown = try await s.get("/v1/moe/%E8%A1%8C%E6%98%9F")   // 行星: not in the sample
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
            let water = try await s.get("/v1/moe/strokes/6?radical=%E6%B0%B5&limit=2")   // 氵
            let w = try water.object()
            #expect((w["characters"] as? [[String: Any]])?.count == 2)
            #expect((w["total"] as? Int ?? 0) >= 3)
            #expect(try await s.get("/v1/moe/strokes/0").status == 400)
            #expect(try await s.get("/v1/moe/strokes/6?radical=x").status == 400)
        }
    }
}
