import AppCore
import Catalog
import FileAccess
import Foundation
import TestSupport
import Testing

@Suite("A clip said before: the report, and whether the answer still holds")
struct SaidBeforeTests {
    /// A home, a one-file categories folder, a clip and a file standing for the full program.
    struct Fixture {
        let dir: TemporaryDirectory
        let environment: VocabEnvironment
        let program: String
        let clip: String

        init() throws {
            dir = try TemporaryDirectory("said-before")
            try FileManager.default.createDirectory(atPath: dir.file("Categories"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Repository.categories + "/animals.json", toPath: dir.file("Categories/animals.json"))
            environment = VocabEnvironment(
                categoriesDirectory: dir.file("Categories"), audioDirectory: dir.file("Audio"), home: HomeLayout(root: dir.file("home")))
            program = dir.file("vocab-full")
            clip = dir.file("cat.wav")
            try dir.write("vocab-full", "a program")
            try dir.write("cat.wav", "a clip")
        }

        var report: SayReport {
            SayReport(
                word: "cat", entry: "catalog:animals/cat", accent: "british", reading: nil, tier: "tts", source: "espeak-ng en-gb",
                duration: 0.517, path: clip, format: "wav", skipped: [SayReport.Skipped(tier: "recorded", reason: "none", broken: false)],
                played: true, synthetic: true, madeBefore: false, voice: "a computer voice")
        }

        func record(_ call: SaidBefore.Call) throws -> SaidBefore {
            let catalog = try CatalogSource(directory: environment.categoriesDirectory).fingerprint()
            let audio = environment.audioDirectory + "/legacy/british"
            return SaidBefore(
                call: call, environment: environment, program: program, catalog: catalog,
                files: [(audio, fileStamp(audio)), (clip, fileStamp(clip))], inCatalog: true, report: report)
        }
    }

    let cat = SaidBefore.Call(text: "cat", accent: nil, pace: 1, format: "wav")

    @Test("the line and the JSON read as `vocab say` has always printed them")
    func report() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        var report = fixture.report
        report.madeBefore = true
        #expect(report.line == "cat (british): tts from espeak-ng en-gb, 0.52 s, a computer voice → \(fixture.clip) (made before)")
        report.voice = nil
        report.reading = "háng"
        report.duration = 1.006
        #expect(report.line.hasPrefix("cat háng (british): tts from espeak-ng en-gb, 1.01 s → "))
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any])
        #expect(
            Set(json.keys) == [
                "word", "entry", "accent", "reading", "tier", "source", "duration", "path", "format", "skipped", "played", "synthetic", "madeBefore",
            ])
        #expect((json["skipped"] as? [[String: Any]])?.first?["broken"] == nil, "a tier with nothing is not broken")
    }

    @Test("a record holds for the same call in the same place until a file it came from changes")
    func holdsUntilAFileChanges() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let record = try fixture.record(cat)
        #expect(record.answer.madeBefore && record.answer.skipped.isEmpty && !record.answer.played, "told as an answer from the store")
        #expect(record.answer.voice == "a computer voice")
        #expect(record.holds(for: cat, in: fixture.environment, program: fixture.program))
        #expect(!record.holds(for: SaidBefore.Call(text: "cat", accent: nil, pace: 0.75, format: "wav"), in: fixture.environment, program: fixture.program))
        #expect(!record.holds(for: SaidBefore.Call(text: "cat", accent: "american", pace: 1, format: "wav"), in: fixture.environment, program: fixture.program))
        #expect(!record.holds(for: cat, in: fixture.environment, program: fixture.dir.file("another-vocab-full")))
        var elsewhere = fixture.environment
        elsewhere.audioDirectory = fixture.dir.file("Audio2")
        #expect(!record.holds(for: cat, in: elsewhere, program: fixture.program))
        var voiced = fixture.environment
        voiced.neuralVoice = .directory(fixture.dir.file("voice"))
        #expect(!record.holds(for: cat, in: voiced, program: fixture.program), "the neural voice switched on")

        // A legacy folder made, the clip replaced, a category file edited, the program rebuilt.
        try FileManager.default.createDirectory(atPath: fixture.environment.audioDirectory + "/legacy/british", withIntermediateDirectories: true)
        #expect(!record.holds(for: cat, in: fixture.environment, program: fixture.program))
        for (name, text) in [("cat.wav", "another clip"), ("vocab-full", "a new build")] {
            let fresh = try fixture.record(cat)
            #expect(fresh.holds(for: cat, in: fixture.environment, program: fixture.program))
            try fixture.dir.write(name, text)
            #expect(!fresh.holds(for: cat, in: fixture.environment, program: fixture.program), "\(name) changed")
        }
        let fresh = try fixture.record(cat)
        let animals = fixture.dir.file("Categories/animals.json")
        try (try String(contentsOfFile: animals, encoding: .utf8) + " ").write(toFile: animals, atomically: true, encoding: .utf8)
        #expect(!fresh.holds(for: cat, in: fixture.environment, program: fixture.program), "a category file changed")
    }

    @Test("the index keeps one record per call and answers only while it holds; a damaged record is no answer")
    func index() throws {
        let fixture = try Fixture()
        defer { fixture.dir.remove() }
        let index = SaidBeforeIndex(home: fixture.environment.home)
        #expect(index.answer(for: cat, in: fixture.environment, program: fixture.program) == nil)
        let record = try fixture.record(cat)
        index.keep(record)
        #expect(index.answer(for: cat, in: fixture.environment, program: fixture.program) == record)
        let slow = SaidBefore.Call(text: "cat", accent: nil, pace: 0.75, format: "wav")
        #expect(index.path(for: slow) != index.path(for: cat))
        #expect(index.answer(for: slow, in: fixture.environment, program: fixture.program) == nil)
        try Data("{\"version\": 1, ".utf8).write(to: URL(fileURLWithPath: index.path(for: cat)))
        #expect(index.answer(for: cat, in: fixture.environment, program: fixture.program) == nil)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.environment.home.saidDirectory)
        #expect(leftovers.count == 1, "no temporary file left: \(leftovers)")
    }
}
