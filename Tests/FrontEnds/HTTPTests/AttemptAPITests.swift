import App
import AppCore
import AudioFile
import Foundation
import TestSupport
import Testing

/// POST /v1/me/attempts: a learner says a word, the server listens (the listener the project
/// installs, on real recordings of people, in WAV, Ogg and a browser's WebM), says what it heard,
/// and counts a clear success as a review, on both engines; bad audio is refused with its code
/// before anything is heard.
@Suite("Saying a word over HTTP: heard, judged, a clear success reviewed, bad audio refused", .serialized)
struct AttemptAPITests {
    static let recordings = Repository.root + "/Tests/Domains/PronunciationTests/Fixtures/"

    /// The fixture's catalog with real transcriptions: cat and the words it could be mistaken for.
    static func catalog(_ dir: TemporaryDirectory) throws {
        func word(_ w: String, _ ipa: String, _ category: String) -> String { CatalogFixture.word(w, category: category, ipa: ipa) }
        try dir.write(
            "Categories/animals.json",
            CatalogFixture.category(
                "animals", order: 1, words: [word("cat", "kæt", "animals"), word("dog", "dɒɡ", "animals"), word("bat", "bæt", "animals")]))
        try dir.write(
            "Categories/food.json",
            CatalogFixture.category(
                "food", order: 2, words: [word("hat", "hæt", "food"), word("cap", "kæp", "food"), word("apple", "ˈæpl", "food")]))
    }

    static func with(_ engine: StorageEngine, keepRecordings: Bool = false, _ body: (TestServer) async throws -> Void) async throws {
        let database: DatabaseChoice =
            engine == .sqlite ? .embedded : .postgres(url: try TestPostgres.shared().createDatabase("attempts"), origin: "test")
        let s = try await TestServer.start(listener: true, keepRecordings: keepRecordings, database: database, prepare: catalog)
        do { try await body(s) } catch {
            await s.stop()
            throw error
        }
        await s.stop()
    }

    /// An adult who signed up (a web session), as the web app signs in.
    static func adult(_ name: String, on s: TestServer) async throws -> [String: String] {
        let r = try await s.send("POST", "/v1/signup", json: #"{"name":"\#(name)","password":"correct horse battery"}"#)
        return try ClassAPITests.session(r).headers
    }

    static func say(
        _ s: TestServer, _ entry: String, _ bytes: [UInt8], type: String = "audio/wav", headers: [String: String]
    ) async throws -> RawResponse {
        var all = headers
        all["Content-Type"] = type
        return try await RawHTTP.get(port: s.port, "/v1/me/attempts?entry=\(entry)", method: "POST", headers: all, body: bytes)
    }

    static func file(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: recordings + name))) }

    static func library(_ s: TestServer, _ headers: [String: String]) async throws -> [[String: Any]] {
        try await s.send("GET", "/v1/me/library", headers: headers).object()["items"] as? [[String: Any]] ?? []
    }

    @Test("cat said to the cat card: well said, a review (Good) of cat; hat said to it: nearly, nothing written", arguments: StorageEngine.allCases)
    func heardAndReviewed(_ engine: StorageEngine) async throws {
        let doc = try OpenAPITests.document()
        let operation = try #require(doc.operations.first { $0.method == "POST" && $0.path == "/v1/me/attempts" })
        try await Self.with(engine) { s in
            let anna = try await Self.adult("Anna", on: s)
            let ben = try await Self.adult("Ben", on: s)
            let said = try await Self.say(s, "animals/cat", try Self.file("cat.wav"), headers: anna)
            #expect(said.status == 200, "\(said.text)")
            try OpenAPITests.check(said, against: operation, in: doc, label: "POST /v1/me/attempts")
            let body = try said.object()
            #expect(body["verdict"] as? String == "well_said")
            #expect(body["heard"] as? String == "k æ t")
            #expect(body["reviewed"] as? Bool == true)
            let items = try await Self.library(s, anna)
            #expect(items.map { $0["entry"] as? String } == ["animals/cat"])
            #expect((items.first?["card"] as? [String: Any])?["reps"] as? Int == 1)
            // The same recording as an attempt at hat: not praised, and never an Again.
            let hat = try await Self.say(s, "food/hat", try Self.file("cat.wav"), headers: anna).object()
            #expect(hat["verdict"] as? String == "nearly")
            #expect((hat["soundedLike"] as? [String: Any])?["word"] as? String == "cat")
            #expect(hat["reviewed"] as? Bool == false)
            #expect(try await Self.library(s, anna).count == 1)
            // WebM with Opus, as Chromium's MediaRecorder made it from the same recording, is heard too.
            let webm = try await Self.say(s, "animals/cat", try Self.file("cat.webm"), type: "audio/webm;codecs=opus", headers: anna).object()
            #expect(webm["verdict"] as? String == "well_said" && webm["heard"] as? String == "k æ t", "\(webm)")
            // Ogg (Vorbis) is heard as well as WAV; Ben's attempt is Ben's alone.
            let ogg = try await Self.say(s, "animals/cat", try Self.file("cat.ogg"), type: "audio/ogg", headers: ben).object()
            #expect(ogg["verdict"] as? String == "well_said")
            #expect(try await Self.library(s, ben).count == 1)
            #expect((try await Self.library(s, anna).first?["card"] as? [String: Any])?["reps"] as? Int == 2)
            // Without credentials nothing is heard.
            #expect(try await Self.say(s, "animals/cat", try Self.file("cat.wav"), headers: [:]).status == 401)
        }
    }

    @Test(
        "a child says cat well in class: their class's adult sees one word said well; a client cannot pass a rating off as one",
        arguments: StorageEngine.allCases)
    func saidWellInClass(_ engine: StorageEngine) async throws {
        try await Self.with(engine) { s in
            let (teacher, children) = try await ChildSafetyAPITests.classOf(["Minh", "Lan"], on: s)
            let minh = try #require(children.first)
            let signedIn = try await ChildSafetyAPITests.signIn(s, teacher.code, minh.name, minh.pictures)
            let child = try ClassAPITests.session(signedIn).headers
            #expect(try await Self.say(s, "animals/cat", try Self.file("cat.wav"), headers: child).object()["reviewed"] as? Bool == true)
            // Said well twice is one word said well; hat is not said well at all.
            _ = try await Self.say(s, "animals/cat", try Self.file("cat.ogg"), type: "audio/ogg", headers: child)
            _ = try await Self.say(s, "food/hat", try Self.file("cat.wav"), headers: child)
            let progress = try await s.send("GET", "/v1/classes/\(teacher.code)/progress", headers: teacher.headers).object()
            let rows = try #require(progress["children"] as? [[String: Any]])
            let said = Dictionary(uniqueKeysWithValues: rows.map { ($0["firstName"] as? String ?? "", $0["wordsSaidWell"] as? Int ?? -1) })
            #expect(said == ["Minh": 1, "Lan": 0], "\(rows)")
            let csv = try await s.send("GET", "/v1/classes/\(teacher.code)/progress.csv", headers: teacher.headers).text
            #expect(csv.hasPrefix("name,days practised,words learned,words said well,"), "\(csv)")
            // A rating sent as a review cannot claim to be a word said well.
            let items = try await Self.library(s, child)
            let item = try #require((items.first?["id"] as? NSNumber)?.int64Value)
            let faked = try await s.send("POST", "/v1/me/reviews", json: #"{"item":\#(item),"rating":"good","clientId":"said-1"}"#, headers: child)
            #expect(faked.status == 400 && (try? faked.error()["code"] as? String) == "bad_client_id", "\(faked.text)")
        }
    }

    /// A mono 16-bit WAV of `seconds` at `rate`, silent unless `tone` is given.
    /// Every file under `folder` whose bytes are `bytes`.
    static func copies(of bytes: [UInt8], under folder: String) -> [String] {
        let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
        return files.filter { FileManager.default.contents(atPath: folder + "/" + $0).map(Array.init) == bytes }
    }

    static func mode(_ path: String) -> Int { ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int) ?? -1 }

    @Test(
        "no recording is kept unless a folder is named; then each is kept as sent, the learner's own, and a deleted child's go with them",
        arguments: StorageEngine.allCases)
    func recordingsKeptOnlyWhenAsked(_ engine: StorageEngine) async throws {
        let cat = try Self.file("cat.wav")
        let webm = try Self.file("cat.webm")
        try await Self.with(engine) { s in
            let anna = try await Self.adult("Anna", on: s)
            #expect(try await Self.say(s, "animals/cat", cat, headers: anna).status == 200)
            #expect(Self.copies(of: cat, under: s.dir.path).isEmpty, "by default the recording is not kept anywhere")
        }
        try await Self.with(engine, keepRecordings: true) { s in
            let (teacher, children) = try await ChildSafetyAPITests.classOf(["Minh", "Lan"], on: s)
            var sessions: [String: [String: String]] = [:]
            for child in children {
                let signedIn = try await ChildSafetyAPITests.signIn(s, teacher.code, child.name, child.pictures)
                sessions[child.name] = try ClassAPITests.session(signedIn).headers
            }
            let minh = try #require(children.first { $0.name == "Minh" })
            let lan = try #require(children.first { $0.name == "Lan" })
            #expect(try await Self.say(s, "animals/cat", webm, type: "audio/webm;codecs=opus", headers: sessions["Minh"]!).status == 200)
            #expect(try await Self.say(s, "food/hat", cat, headers: sessions["Minh"]!).status == 200)
            #expect(try await Self.say(s, "animals/cat", cat, headers: sessions["Lan"]!).status == 200)
            let root = s.dir.file("recordings")
            let minhs = root + "/learner-\(minh.id)"
            let kept = ((try? FileManager.default.contentsOfDirectory(atPath: minhs)) ?? []).sorted()
            #expect(kept.count == 2, "\(kept)")
            let names = kept.map { $0.replacing(/^\d{8}T\d{6}\.\d{3}Z-/, with: "") }.sorted()
            #expect(names == ["animals_cat-well_said.webm", "food_hat-nearly.wav"], "\(kept)")
            #expect(Self.copies(of: webm, under: minhs).count == 1 && Self.copies(of: cat, under: minhs).count == 1, "kept as sent")
            #expect(Self.mode(root) == 0o700 && Self.mode(minhs) == 0o700, "only the server's user opens the folders")
            #expect(kept.allSatisfy { Self.mode(minhs + "/" + $0) == 0o600 }, "nor reads the recordings")
            #expect(Self.copies(of: cat, under: root + "/learner-\(lan.id)").count == 1, "Lan's recording is in Lan's folder")
            // A child erased by their adult takes their recordings; the other child's stay.
            let deleted = try await s.send("DELETE", "/v1/classes/\(teacher.code)/children/\(minh.id)?erase=true", headers: teacher.headers)
            #expect(deleted.status == 204, "\(deleted.text)")
            #expect(!FileManager.default.fileExists(atPath: minhs))
            #expect(FileManager.default.fileExists(atPath: root + "/learner-\(lan.id)"))
        }
    }

    static func wav(seconds: Double, rate: Int = 8000, tone: Double? = nil) throws -> [UInt8] {
        let count = Int(seconds * Double(rate))
        let samples = (0..<count).map { i in tone.map { Float(0.3 * sin(2 * Double.pi * $0 * Double(i) / Double(rate))) } ?? 0 }
        let dir = try TemporaryDirectory("attempt-wav")
        defer { dir.remove() }
        try AudioFile.write(PCM(samples: samples, sampleRate: rate), to: dir.file("a.wav"), format: .wav)
        return Array(try Data(contentsOf: URL(fileURLWithPath: dir.file("a.wav"))))
    }

    @Test("bad audio is refused with its code, before anything is heard; silence is said kindly")
    func badAudio() async throws {
        let doc = try OpenAPITests.document()
        let operation = try #require(doc.operations.first { $0.method == "POST" && $0.path == "/v1/me/attempts" })
        try await Self.with(.sqlite) { s in
            let anna = try await Self.adult("Anna", on: s)
            let cases: [(String, [UInt8], String, Int, String)] = [
                ("empty", [], "audio/wav", 400, "bad_audio"),
                ("not audio", Array("this is not a recording".utf8), "audio/wav", 400, "bad_audio"),
                ("WebM that holds no recording", [0x1A, 0x45, 0xDF, 0xA3] + [UInt8](repeating: 0, count: 64), "audio/webm", 400, "bad_audio"),
                ("WebM cut short", Array(try Self.file("cat.webm").prefix(300)), "audio/webm", 400, "bad_audio"),
                ("a type vocab does not read", try Self.file("cat.wav"), "audio/mpeg", 415, "unsupported_audio"),
                ("over the size limit", [UInt8](repeating: 0, count: Limits.attemptBytes.upperBound + 1), "audio/wav", 400, "body_too_large"),
                ("11 seconds", try Self.wav(seconds: 11), "audio/wav", 400, "audio_too_long"),
            ]
            for (label, bytes, type, status, code) in cases {
                let r = try await Self.say(s, "animals/cat", bytes, type: type, headers: anna)
                #expect(r.status == status, "\(label): \(r.status) \(r.text.prefix(200))")
                #expect((try? r.error()["code"] as? String) == code, "\(label): \(r.text.prefix(200))")
                try OpenAPITests.check(r, against: operation, in: doc, label: "POST /v1/me/attempts (\(label))")
            }
            let unknown = try await Self.say(s, "animals/unicorn", try Self.file("cat.wav"), headers: anna)
            #expect(unknown.status == 404 && (try? unknown.error()["code"] as? String) == "unknown_entry")
            let missing = try await RawHTTP.get(
                port: s.port, "/v1/me/attempts", method: "POST", headers: anna.merging(["Content-Type": "audio/wav"]) { $1 }, body: try Self.file("cat.wav"))
            #expect(missing.status == 400 && (try? missing.error()["code"] as? String) == "missing_parameter")
            // Two seconds of nothing, and a steady hum: sound, but no word; nothing is reviewed.
            let quiet = try await Self.say(s, "animals/cat", try Self.wav(seconds: 2), headers: anna).object()
            #expect(quiet["verdict"] as? String == "silence" && quiet["reviewed"] as? Bool == false)
            let hum = try await Self.say(s, "animals/cat", try Self.wav(seconds: 2, tone: 50), headers: anna).object()
            #expect(["not_heard", "nearly"].contains(hum["verdict"] as? String ?? ""), "\(hum)")
            #expect(try await Self.library(s, anna).isEmpty)
        }
    }
}
