import AudioFile
import Foundation
import HTTPFetch
import TestSupport
import Testing
import Vocabulary

@testable import Audio

@Suite("Which tier answers for each entry, and which clips are broken")
struct ClipCoverageTests {
    @Test func theSurveyFindsEveryTierAndEveryBrokenClipWithoutTheNetwork() throws {
        let dir = try TemporaryDirectory("coverage")
        defer { dir.remove() }
        let audio = dir.file("Audio")
        try Recordings.make("cat", at: audio + "/recorded/british/catalog/animals/cat.wav") // imported recording
        try Recordings.make("dog", at: audio + "/legacy/british/Dog.wav") // legacy by name
        try Recordings.make("fish", at: audio + "/legacy/british/fish.wav")
        try Recordings.truncate(audio + "/legacy/british/fish.wav", to: 0.45) // broken legacy
        try Recordings.make("bird", at: dir.file("outside.wav"))
        let subjects = [
            ClipCoverage.Subject(entry: EntryReference(.catalog, "animals/cat"), word: "cat", categories: ["animals"], levels: ["starters"], references: [:]),
            ClipCoverage.Subject(entry: EntryReference(.catalog, "animals/dog"), word: "dog", categories: ["animals"], levels: ["starters"], references: [:]),
            ClipCoverage.Subject(entry: EntryReference(.catalog, "animals/fish"), word: "fish", categories: ["animals"], levels: ["movers"], references: [:]),
            ClipCoverage.Subject(
                entry: EntryReference(.catalog, "animals/bird"), word: "bird", categories: ["animals"], levels: ["movers"],
                references: [.british: AudioReferences(recorded: "../outside.wav"), .american: AudioReferences(recorded: "missing.wav")]),
            ClipCoverage.Subject(
                entry: EntryReference(.catalog, "animals/cow"), word: "cow", categories: ["animals"], levels: ["flyers"],
                references: [.british: AudioReferences(recorded: "http://127.0.0.1:9/cow.wav")]),
        ]
        let coverage = ClipCoverage.survey(
            subjects, accents: [.british, .american],
            recorded: RecordedClipSource(audioRoot: audio, cacheDirectory: dir.file("cache"), http: CurlHTTPClient()),
            legacy: LegacyClipSource(audioRoot: audio))
        let tiers = Dictionary(uniqueKeysWithValues: coverage.rows.map { ("\($0.word)/\($0.accent.rawValue)", $0.tier) })
        #expect(tiers["cat/british"] == .recorded)
        #expect(tiers["cat/american"] == .tts)
        #expect(tiers["dog/british"] == .legacy)
        #expect(tiers["fish/british"] == .tts)
        #expect(tiers["bird/british"] == .tts)
        #expect(tiers["cow/british"] == .recorded)
        #expect(coverage.rows.first { $0.word == "cow" && $0.accent == .british }?.unverified == true)
        #expect(coverage.counts { $0.accent == .british } == [.recorded: 2, .legacy: 1, .neural: 0, .tts: 2])

        let broken = coverage.broken.map { "\($0.word)/\($0.accent.rawValue)/\($0.tier.rawValue)" }
        #expect(Set(broken) == ["fish/british/legacy", "bird/british/recorded", "bird/american/recorded"], "\(coverage.broken)")
        let fish = try #require(coverage.broken.first { $0.word == "fish" })
        #expect(fish.reason.contains("truncated"))
        #expect(coverage.broken.first { $0.word == "bird" && $0.accent == .british }?.reason.contains("leaves") == true)
        #expect(coverage.broken.first { $0.word == "bird" && $0.accent == .american }?.reason.contains("missing file") == true)
    }
}
