import Audio
import AudioFile
import ClipProcessing
import Foundation
import HTTPAPI
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
            // Filed by the entry's identity, with the tier recorded inside the clip.
            let files = try FileManager.default.subpathsOfDirectory(atPath: s.clips).filter { $0.hasSuffix(".wav") }
            #expect(files == ["british/catalog/animals/cat.wav"])
            let record = ClipStore.record(of: s.clips + "/british/catalog/animals/cat.wav")
            #expect(record?.tier == .recorded)
            #expect(record?.entry == "catalog:animals/cat")

            // The second request is answered from the rendered copy.
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

    @Test("with the neural voice installed, a word without a clip comes from it, at its own pace or slower; a bad pace is a 400")
    func neural() async throws {
        try await withServer(neural: true) { s in
            let fish = try await s.get("/v1/audio/fish?accent=american")
            #expect(fish.status == 200, "\(fish.text.prefix(300))")
            #expect(fish.header("x-vocab-tier") == "neural")
            let record = try #require(ClipStore.record(of: s.clips + "/american/catalog/animals/fish.wav"))
            #expect(record.source == "hibari-tts 0.2.1 heart (neural, American voice)")
            let british = try await s.get("/v1/audio/fish?accent=british")
            #expect(british.header("x-vocab-tier") == "neural")
            #expect(ClipStore.record(of: s.clips + "/british/catalog/animals/fish.wav")?.source.contains("British pronunciation") == true)
            // A recording still wins.
            #expect(try await s.get("/v1/audio/cat?accent=british").header("x-vocab-tier") == "recorded")

            let slow = try await s.get("/v1/audio/fish?accent=american&speed=0.75")
            #expect(slow.status == 200)
            #expect(slow.header("x-vocab-tier") == "neural")
            let normalInfo = try AudioFile.inspect(s.clips + "/american/catalog/animals/fish.wav")
            let slowInfo = try AudioFile.inspect(s.clips + "/american/catalog/animals/fish@0.75.wav")
            #expect(slowInfo.duration > normalInfo.duration * 1.2, "\(slowInfo.duration) vs \(normalInfo.duration)")
            // A recorded word asked for slowly is spoken by the voice: recordings keep their pace.
            #expect(try await s.get("/v1/audio/cat?accent=british&speed=0.75").header("x-vocab-tier") == "neural")
            #expect(try await s.get("/v1/audio/fish?speed=1").body == (try await s.get("/v1/audio/fish")).body)

            for bad in ["0.2", "2", "fast", "0.755", "nan", "-1"] {
                let answer = try await s.get("/v1/audio/fish?speed=\(bad)")
                #expect(answer.status == 400, "speed=\(bad)")
                #expect(answer.text.contains("bad_speed"), "\(answer.text)")
            }
        }
    }

    @Test("the legacy tier answers when there is no recording; ogg works")
    func legacyAndOgg() async throws {
        try await withServer { s in
            let wav = try await s.get("/v1/audio/dog?accent=british")
            #expect(wav.status == 200)
            #expect(wav.header("x-vocab-tier") == "legacy")
            // Served at the one loudness target, whatever the legacy clip's own level.
            let served = s.dir.file("served.wav")
            try Data(wav.body).write(to: URL(fileURLWithPath: served))
            let lufs = try Loudness.measure(AudioFile.read(served)).integratedLUFS
            #expect(abs(lufs - ClipProcessor.Settings().targetLUFS) <= 1, "\(lufs) LUFS")
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
            #expect(files.sorted() == ["dog.ogg"], "one file per clip, its record inside: \(files)")
            #expect(ClipStore.record(of: s.clips + "/british/catalog/animals/dog.ogg")?.tier == .legacy)
        }
    }

    @Test("clips fetched ahead (X-Vocab-Ahead: 1), many at once, are the clips a tap gets; a tap among them is answered too")
    func fetchedAhead() async throws {
        try await withServer(neural: true) { s in
            let words = ["fish", "dog", "elephant", "apple", "cake"]
            let (ahead, tap) = try await withThrowingTaskGroup(of: (String, RawResponse).self) { group in
                for word in words { group.addTask { (word, try await s.get("/v1/audio/\(word)?format=ogg", headers: ["X-Vocab-Ahead": "1"])) } }
                group.addTask { ("tap", try await s.get("/v1/audio/cake?format=ogg")) }
                var ahead: [String: RawResponse] = [:]
                var tap: RawResponse?
                for try await (word, response) in group {
                    if word == "tap" { tap = response } else { ahead[word] = response }
                }
                return (ahead, try #require(tap))
            }
            #expect(ahead.values.allSatisfy { $0.status == 200 } && tap.status == 200)
            #expect(tap.body == ahead["cake"]?.body, "the tap joined the render asked for ahead, or found its clip")
            for word in words {
                let played = try await s.get("/v1/audio/\(word)?format=ogg")
                #expect(played.header("x-vocab-cache") == "hit" && played.body == ahead[word]?.body, "\(word)")
            }
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

@Suite("vocab serve: Mandarin audio, freshness, broken clips")
struct AudioFreshnessAPITests {
    @Test("GET /v1/moe/{title}/audio speaks the reading asked for, the first by default")
    func mandarin() async throws {
        try await withServer(moe: true) { s in
            let first = try await s.get("/v1/moe/%E8%A1%8C/audio")
            #expect(first.status == 200, "\(first.text.prefix(300))")
            #expect(first.header("x-vocab-tier") == "tts")
            #expect(first.header("content-type") == "audio/wav")
            let hang = try await s.get("/v1/moe/%E8%A1%8C/audio?reading=h%C3%A1ng")
            #expect(hang.status == 200)
            let differs = hang.body != first.body
            let numbered = try await s.get("/v1/moe/%E8%A1%8C/audio?reading=HANG2").body == hang.body
            #expect(differs && numbered)
            let files = try FileManager.default.subpathsOfDirectory(atPath: s.clips).filter { $0.hasSuffix(".wav") }
            #expect(Set(files) == ["mandarin/moe/行/xing2.wav", "mandarin/moe/行/hang2.wav"])

            let wrong = try await s.get("/v1/moe/%E8%A1%8C/audio?reading=hang7")
            #expect(wrong.status == 404)
            #expect(try wrong.error()["code"] as? String == "unknown_reading")
            #expect(try wrong.error()["suggestions"] as? [String] == ["xíng", "háng", "xìng", "hàng"])
            #expect(try await s.get("/v1/moe/%E8%A1%8C%E8%A1%8C%E8%A1%8C/audio").status == 404)
            // Catalog words are English; Mandarin has its own endpoint.
            let accent = try await s.get("/v1/audio/cat?accent=mandarin")
            #expect(accent.status == 400)
            #expect(
                try accent.error()["message"] as? String
                    == "catalog words are spoken in british or american; Mandarin is for dictionary titles (vocab say TITLE, GET /v1/moe/{title}/audio).")
        }
        try await withServer { s in
            let missing = try await s.get("/v1/moe/%E8%A1%8C/audio")
            #expect(missing.status == 404)
            #expect(try missing.error()["code"] as? String == "dictionary_not_imported")
        }
    }

    @Test("a clip source added, replaced or removed while the server runs is noticed")
    func freshness() async throws {
        let server = try await TestServer.start(settings: ServerSettings(port: 0, audioFreshness: 0))
        do {
            let legacy = server.dir.file("Audio/legacy/british/fish.wav")
            let first = try await server.get("/v1/audio/fish")
            #expect(first.header("x-vocab-tier") == "tts")
            #expect(try await server.get("/v1/audio/fish").header("x-vocab-cache") == "hit")

            try AudioFile.write(ServerFixture.tone(500), to: legacy, format: .wav)
            let added = try await server.get("/v1/audio/fish")
            #expect(added.header("x-vocab-tier") == "legacy")
            #expect(added.header("x-vocab-cache") == "miss")

            try AudioFile.write(ServerFixture.tone(700), to: legacy, format: .wav)
            let replaced = try await server.get("/v1/audio/fish")
            #expect(replaced.header("x-vocab-cache") == "miss")
            let changed = replaced.body != added.body
            #expect(changed)

            try FileManager.default.removeItem(atPath: legacy)
            let removed = try await server.get("/v1/audio/fish")
            #expect(removed.header("x-vocab-tier") == "tts")
            let same = removed.body == first.body
            #expect(same, "speech is the same bytes as before")
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("a truncated legacy WAV is never served")
    func truncated() async throws {
        let server = try await TestServer.start { dir in
            let path = dir.file("Audio/legacy/british/dog.wav")
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            try data.prefix(data.count * 45 / 100).write(to: URL(fileURLWithPath: path))
        }
        do {
            let dog = try await server.get("/v1/audio/dog")
            #expect(dog.status == 200)
            #expect(dog.header("x-vocab-tier") == "tts")
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}
