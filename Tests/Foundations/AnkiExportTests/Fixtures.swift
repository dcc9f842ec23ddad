import Foundation

@testable import AnkiExport

/// A small deck the way vocab would export it: three words, two sharing one clip, one with a
/// clip streamed from a file.
enum Fixture {
    /// Fixed, and in the past: Anki renumbers note ids more than a day ahead of its clock.
    static let now: Int64 = 1_750_000_000
    static let deckID: Int64 = 1_750_000_000_001
    static let deckName = "Vocab::Animals"
    static let catClip = "catalog-animals-cat-british.wav"
    static let maoClip = "catalog-animals-mao-mandarin.wav"

    static let noteType = AnkiNoteType(
        id: 1_700_000_000_123,
        name: "Vocab Word",
        fields: ["Word", "Meaning", "Audio"],
        templates: [
            .init(name: "Recognition", front: "{{Word}}<br>{{Audio}}", back: "{{FrontSide}}<hr id=answer>{{Meaning}}")
        ])

    static let catGUID = AnkiGUID.stable(for: "catalog:animals:cat")
    static let kittenGUID = AnkiGUID.stable(for: "catalog:animals:kitten")
    static let maoGUID = AnkiGUID.stable(for: "catalog:animals:猫")

    static func notes(catMeaning: String = "<b>a small</b> domesticated feline") -> [AnkiNote] {
        [
            AnkiNote(
                guid: catGUID, fields: ["cat", catMeaning, "[sound:\(catClip)]"],
                tags: ["animals", "catalog::animals"]),
            AnkiNote(
                guid: kittenGUID, fields: ["kitten", "a young cat &amp; friend", "[sound:\(catClip)]"],
                tags: ["animals"]),
            AnkiNote(
                guid: maoGUID,
                fields: ["猫", "māo: cat\twith a tab, \"quotes\"\nand a new line", "[sound:\(maoClip)]"],
                tags: ["mandarin", "HSK 1"]),
        ]
    }

    /// `maoClipPath` holds the second clip; the cat clip is listed once per note that plays it.
    static func package(maoClipPath: String, catMeaning: String = "<b>a small</b> domesticated feline") -> AnkiPackage {
        AnkiPackage(
            deckID: deckID, deckName: deckName, deckDescription: "Words from the vocab catalog",
            noteType: noteType, notes: notes(catMeaning: catMeaning),
            media: [
                AnkiMedia(name: catClip, bytes: tinyWAV(frequency: 440)),
                AnkiMedia(name: catClip, bytes: tinyWAV(frequency: 440)),
                AnkiMedia(name: maoClip, path: maoClipPath),
            ])
    }
}
