import AudioFile
import Foundation
import Testing

@Suite("vocab serve: /v1/audio, tiers and the rendered cache on disk")
struct AudioAPITests {
    @Test("a recorded clip is served with its tier, then from the cache on disk")
    func recorded() async throws {
        try await withServer { s in
            let first = try await s.get("/v1/audio/cat?accent=british&format=wav")
            #expect(first.status == 200, "\(first.text.prefix(300))")
            #expect(first.header("content-type") == "audio/wav")
            #expect(first.header("x-vocab-tier") == "recorded")
            #expect(first.header("x-vocab-cache") == "miss")
            #expect(first.header("cache-control") == "public, max-age=86400")
            #expect(Array(first.body.prefix(4)) == Array("RIFF".utf8))
            // Filed by the entry's identity, with the tier recorded beside the clip.
            let files = try FileManager.default.subpathsOfDirectory(atPath: s.clips).filter { $0.hasSuffix(".wav") }
            #expect(files == ["british/catalog/animals/cat.wav"])
            let record = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: s.clips + "/british/catalog/animals/cat.wav.json"))) as? [String: Any]
            #expect(record?["tier"] as? String == "recorded")
            #expect(record?["entry"] as? String == "catalog:animals/cat")

            // The source can go: the rendered copy answers.
            try FileManager.default.removeItem(atPath: s.dir.file("Audio/recorded/cat.wav"))
            let second = try await s.get("/v1/audio/cat?accent=british&format=wav")
            #expect(second.status == 200)
            #expect(second.header("x-vocab-tier") == "recorded")
            #expect(second.header("x-vocab-cache") == "hit")
            #expect(second.body == first.body)
            // Defaults are british and wav.
            #expect(try await s.get("/v1/audio/cat").body == first.body)

            let tag = try #require(first.header("etag"))
            #expect(try await s.get("/v1/audio/cat", headers: ["If-None-Match": tag]).status == 304)
        }
    }

    @Test("the legacy tier answers when there is no recording; ogg works")
    func legacyAndOgg() async throws {
        try await withServer { s in
            let wav = try await s.get("/v1/audio/dog?accent=british")
            #expect(wav.status == 200)
            #expect(wav.header("x-vocab-tier") == "legacy")
            let ogg = try await s.get("/v1/audio/dog?accent=british&format=ogg")
            #expect(ogg.status == 200)
            #expect(ogg.header("content-type") == "audio/ogg")
            #expect(Array(ogg.body.prefix(4)) == Array("OggS".utf8))
            #expect(ogg.header("content-encoding") == nil)
            // The rendered Ogg decodes to a plausible clip.
            let path = s.dir.file("check.ogg")
            try Data(ogg.body).write(to: URL(fileURLWithPath: path))
            let info = try AudioFile.inspect(path)
            #expect(info.duration > 0.2 && info.duration < 0.4)
            // Same word, other accent or format: separate cache entries.
            let files = try FileManager.default.subpathsOfDirectory(atPath: s.clips).filter { !$0.hasSuffix(".json") && $0.contains(".") }
            #expect(Set(files) == ["british/catalog/animals/dog.wav", "british/catalog/animals/dog.ogg"])
        }
    }

    @Test("concurrent first requests for one clip render it once and agree")
    func concurrentFirstRequests() async throws {
        try await withServer { s in
            let bodies = try await withThrowingTaskGroup(of: RawResponse.self) { group in
                for _ in 0..<8 { group.addTask { try await s.get("/v1/audio/dog?format=ogg") } }
                return try await group.reduce(into: [RawResponse]()) { $0.append($1) }
            }
            #expect(bodies.allSatisfy { $0.status == 200 })
            #expect(Set(bodies.map(\.body)).count == 1)
            #expect(bodies.filter { $0.header("x-vocab-cache") == "miss" }.count <= 1)
            let files = try FileManager.default.contentsOfDirectory(atPath: s.clips + "/british/catalog/animals")
            #expect(files.sorted() == ["dog.ogg", "dog.ogg.json"], "\(files)")
        }
    }

    @Test("errors: unknown word 404 with suggestions, bad accent or format 400")
    func errors() async throws {
        try await withServer { s in
            let unknown = try await s.get("/v1/audio/catt")
            #expect(unknown.status == 404)
            #expect(try unknown.error()["code"] as? String == "unknown_word")
            #expect((try unknown.error()["suggestions"] as? [String])?.contains("cat") == true)
            let accent = try await s.get("/v1/audio/cat?accent=australian")
            #expect(accent.status == 400)
            #expect(try accent.error()["code"] as? String == "bad_accent")
            #expect(try accent.error()["suggestions"] as? [String] == ["british", "american"])
            let format = try await s.get("/v1/audio/cat?format=mp3")
            #expect(format.status == 400)
            #expect(try format.error()["code"] as? String == "bad_format")
            // The accents' aliases are the command line's too.
            #expect(try await s.get("/v1/audio/cat?accent=uk").status == 200)
        }
    }
}
