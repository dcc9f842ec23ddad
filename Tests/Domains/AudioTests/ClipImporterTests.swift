import AudioFile
import ClipProcessing
import Foundation
import TestSupport
import Testing
import Vocabulary

@testable import Audio

/// `vocab audio import` on real recordings: matching by name or map, the checks, the stored
/// clip and its place under Audio/.
@Suite("Importing recordings", .serialized)
struct ClipImporterTests {
    let dir: TemporaryDirectory
    var audioRoot: String { dir.file("Audio") }
    var folder: String { dir.file("incoming") }

    /// cat, ice cream, café, bat (twice: an animal and a sports bat), dog, elephant, fish, apple.
    let targets = ImportTargets(entries: [
        (EntryReference(.catalog, "animals/cat"), "cat"), (EntryReference(.catalog, "food/ice_cream"), "ice cream"),
        (EntryReference(.catalog, "places/cafe"), "café"), (EntryReference(.catalog, "animals/bat"), "bat"),
        (EntryReference(.catalog, "sports/bat"), "bat"), (EntryReference(.catalog, "animals/dog"), "dog"),
        (EntryReference(.catalog, "animals/elephant"), "elephant"), (EntryReference(.catalog, "animals/fish"), "fish"),
        (EntryReference(.catalog, "food/apple"), "apple"),
    ])

    init() throws {
        dir = try TemporaryDirectory("import")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    func importer(_ tier: Tier = .recorded, accent: Accent = .british) throws -> ClipImporter {
        try ClipImporter(audioRoot: audioRoot, tier: tier, accent: accent)
    }

    @Test func namesAreMatchedLooselyAndNothingIsGuessed() throws {
        for name in ["Cat.WAV", "Ice-Cream.wav", "cafe.wav", "bat.wav", "dog.wav", "Dog.ogg", "unicorn.wav"] {
            try Recordings.make((name as NSString).deletingPathExtension, at: folder + "/" + name)
        }
        try Data("notes".utf8).write(to: URL(fileURLWithPath: folder + "/README.txt"))
        let plan = try importer().plan(directory: folder, targets: targets)
        #expect(Set(plan.matched.map(\.file)) == ["Cat.WAV", "Ice-Cream.wav", "cafe.wav"])
        #expect(plan.matched.first { $0.file == "Cat.WAV" }?.target.entry == EntryReference(.catalog, "animals/cat"))
        #expect(plan.unmatched == ["unicorn.wav"])
        #expect(plan.ambiguous.map(\.file) == ["bat.wav"])
        #expect(plan.ambiguous.first?.candidates.map(\.entry.id) == ["animals/bat", "sports/bat"])
        #expect(plan.conflicts.map { Set($0.files) } == [["dog.wav", "Dog.ogg"]])
        #expect(plan.ignored == ["README.txt"])
    }

    @Test func aMapNamesEntriesByIdOrWord() throws {
        try Recordings.make("bat", at: folder + "/take 3.wav")
        try Recordings.make("cat", at: folder + "/kitty, final.wav")
        try """
        word,file
        catalog:animals/bat,take 3.wav
        cat,"kitty, final.wav"
        this line is wrong
        """.write(toFile: folder + "/map.csv", atomically: true, encoding: .utf8)
        let plan = try importer().plan(directory: folder, targets: targets, map: folder + "/map.csv")
        #expect(plan.matched.map(\.target.entry.id) == ["animals/bat", "animals/cat"])
        #expect(plan.matched.map(\.file) == ["take 3.wav", "kitty, final.wav"])
        #expect(plan.badMapLines.count == 1)
        let outcomes = try importer().run(plan, directory: folder, dryRun: false)
        #expect(outcomes.map(\.status) == [.imported, .imported])
        #expect(FileManager.default.fileExists(atPath: audioRoot + "/recorded/british/catalog/animals/bat.wav"))
    }

    @Test func everyBrokenRecordingIsRefusedWithItsReason() throws {
        try Recordings.make("elephant", at: folder + "/elephant.wav")
        try Recordings.truncate(folder + "/elephant.wav", to: 0.45)
        try AudioFile.write(PCM(samples: [Float](repeating: 0, count: 22050), sampleRate: 22050), to: folder + "/fish.wav", format: .wav)
        let loud = try AudioFile.read(try Recordings.make("apple", at: dir.file("apple-raw.wav")))
        try AudioFile.write(PCM(samples: loud.samples.map { min(1, max(-1, $0 * 30)) }, sampleRate: loud.sampleRate), to: folder + "/apple.wav", format: .wav)
        let long = Array(repeating: "The children in the school garden count apples and pears while their teacher reads.", count: 3).joined(separator: " ")
        try Recordings.make(long, at: folder + "/dog.wav")
        try Data("RIFF not really".utf8).write(to: URL(fileURLWithPath: folder + "/cat.wav"))

        let plan = try importer().plan(directory: folder, targets: targets)
        let outcomes = try importer().run(plan, directory: folder, dryRun: false)
        let reasons = Dictionary(uniqueKeysWithValues: outcomes.map { ($0.file, $0.problems.joined(separator: "; ")) })
        #expect(outcomes.allSatisfy { $0.status == .refused }, "\(outcomes.map(\.status))")
        #expect(reasons["elephant.wav"]?.hasPrefix("truncated: header says") == true, "\(reasons)")
        #expect(reasons["fish.wav"]?.hasPrefix("silent") == true)
        #expect(reasons["apple.wav"]?.hasPrefix("clipped") == true)
        #expect(reasons["dog.wav"]?.hasPrefix("too long") == true)
        #expect(reasons["cat.wav"]?.hasPrefix("cannot be decoded") == true)
        #expect(!FileManager.default.fileExists(atPath: audioRoot), "nothing was stored")
    }

    @Test func anAcceptedRecordingIsTrimmedNormalisedAndStoredByIdentityAndReplacedOnReimport() throws {
        try Recordings.make("ice cream", at: folder + "/ice cream.wav", pitch: 90, gainDB: -25, leadingSilence: 2)
        let dry = try importer(.legacy, accent: .american).run(
            try importer(.legacy, accent: .american).plan(directory: folder, targets: targets),
            directory: folder, dryRun: true)
        #expect(dry.map(\.status) == [.planned])
        #expect(!FileManager.default.fileExists(atPath: audioRoot), "a dry run writes nothing")

        let importer = try importer(.legacy, accent: .american)
        let first = try importer.run(try importer.plan(directory: folder, targets: targets), directory: folder, dryRun: false)
        let stored = audioRoot + "/legacy/american/catalog/food/ice_cream.wav"
        #expect(first.map(\.status) == [.imported])
        #expect(first[0].path == stored)
        let clip = try AudioFile.read(stored)
        #expect(abs(try Loudness.measure(clip).integratedLUFS - -20) <= 1)
        #expect(clip.duration < 1.5, "the two seconds of silence are trimmed")
        #expect(first[0].durationSeconds == clip.duration, "the report gives the stored clip's length, not the file's")
        #expect(dry[0].durationSeconds == clip.duration, "and so does a dry run")
        #expect(first[0].gainDB ?? 0 > 15)

        try Recordings.make("ice cream", at: folder + "/ice cream.wav", pitch: 30)
        let second = try importer.run(try importer.plan(directory: folder, targets: targets), directory: folder, dryRun: false)
        #expect(second.map(\.status) == [.replaced])
        let changed = try AudioFile.read(stored).samples != clip.samples
        #expect(changed)
        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: audioRoot).filter { $0.contains(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test func mandarinFilesNameATitleAndItsReading() throws {
        let readings: [String: [String]] = ["行": ["xíng", "háng", "xìng", "hàng"], "水": ["shuǐ"]]
        let targets = ImportTargets { readings[$0] }
        for name in ["行 háng.wav", "行_xing4.wav", "水.wav", "行.wav", "火.wav"] {
            try Recordings.make("ma", at: folder + "/" + name, voice: "cmn-latn-pinyin")
        }
        let importer = try importer(.recorded, accent: .mandarin)
        let plan = try importer.plan(directory: folder, targets: targets)
        #expect(Set(plan.matched.map { "\($0.file)=\($0.target.reading ?? "")" }) == ["行 háng.wav=háng", "行_xing4.wav=xìng", "水.wav=shuǐ"])
        #expect(plan.ambiguous.map(\.file) == ["行.wav"], "a title alone is ambiguous when it has several readings")
        #expect(plan.unmatched == ["火.wav"])
        _ = try importer.run(plan, directory: folder, dryRun: false)
        #expect(FileManager.default.fileExists(atPath: audioRoot + "/recorded/mandarin/moe/行/hang2.wav"))
        #expect(FileManager.default.fileExists(atPath: audioRoot + "/recorded/mandarin/moe/水/shui3.wav"))
    }

    @Test func speechCannotBeImported() {
        #expect(throws: ClipImportError.badTier(.tts)) { try ClipImporter(audioRoot: audioRoot, tier: .tts, accent: .british) }
        // No tier reads a file under Audio/neural/: the voice makes its speech.
        #expect(throws: ClipImportError.badTier(.neural)) { try ClipImporter(audioRoot: audioRoot, tier: .neural, accent: .british) }
        #expect(throws: ClipImportError.notAFolder(dir.file("nope"))) { try importer().plan(directory: dir.file("nope"), targets: targets) }
    }
}

@Suite("Pinyin readings")
struct PinyinTests {
    @Test func marksBecomeNumbersAndAnnotationsGo() {
        #expect(Pinyin.numbered("Yín háng") == "yin2 hang2")
        #expect(Pinyin.numbered("lǜ") == "lv4")
        #expect(Pinyin.numbered("（讀音）lù") == "lu4")
        #expect(Pinyin.numbered("háng jia") == "hang2 jia")
        #expect(Pinyin.numbered("hang2") == "hang2")
        #expect(Pinyin.clean("（語音）lǜ") == "lǜ")
        #expect(Pinyin.clean("yī yán，wéi dìng") == "yī yán wéi dìng")
        #expect(Pinyin.same("háng", "HANG2"))
        #expect(!Pinyin.same("háng", "hàng"))
        #expect(!Pinyin.same("lù", "lǜ"))
        #expect(Pinyin.fileName("yín háng") == "yin2_hang2")
    }

    @Test func clipKeysOfMandarinTitlesHaveAFilePerReading() {
        let key = ClipKey(entry: EntryReference(.moe, "行"), accent: .mandarin, reading: "háng", format: .wav)
        #expect(key.relativePath == "mandarin/moe/行/hang2.wav")
        #expect(ClipNaming.matchKey(forFile: "行 háng.wav") == "行|hang2")
        #expect(ClipNaming.matchKey(forFile: "行_hang2.WAV") == "行|hang2")
        #expect(ClipNaming.matchKey(forFile: "行.wav") == "行")
        #expect(ClipNaming.matchKey(forFile: "Ice-Cream.ogg") == "ice_cream")
        #expect(ClipNaming.matchKey(forFile: "notes.txt") == nil)
    }
}
