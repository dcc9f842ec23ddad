import AnkiExport
import AppCore
import Audio
import AudioFile
import Catalog
import FileAccess
import Foundation
import Learners
import Vocabulary

/// Flashcards for Anki: a package (.apkg, with the clips) or Anki's CSV import format. One note
/// per item, with a guid derived from the item's identity, so importing again updates notes
/// instead of adding them twice.
public struct ExportService: Sendable {
    public enum Format: String, Sendable, CaseIterable { case apkg, csv }

    /// One thing to export: its identity, what its card shows, when it was saved (the note's
    /// modification time, so an unchanged note imports as a duplicate, not an update).
    public struct Item: Sendable {
        public var key: ItemKey
        public var content: CardContent
        public var modified: Double
        /// The clip request for its sound, if it has one.
        public var clip: (request: ClipRequest, entry: EntryReference)?

        public init(key: ItemKey, content: CardContent, modified: Double, clip: (request: ClipRequest, entry: EntryReference)?) {
            self.key = key
            self.content = content
            self.modified = modified
            self.clip = clip
        }
    }

    public struct Summary: Sendable, Codable {
        public var path: String
        public var format: String
        public var deck: String
        public var notes: Int
        public var clips: Int
        /// Drawings the cards show (one file per drawing).
        public var pictures: Int
        /// Items whose sound could not be made (listed by item, with the reason).
        public var missingClips: [String: String]
    }

    let clips: ClipService?
    /// The folder of the catalog's picture files (Pictures/): a card shows its drawing.
    let pictures: String?

    public init(clips: ClipService?, pictures: String? = nil) {
        self.clips = clips
        self.pictures = pictures
    }

    public static let noteType = AnkiNoteType(
        id: 1_732_600_000_001, name: "vocab word",
        fields: ["Front", "Back", "Reading", "Example", "Audio", "Item"],
        templates: [
            AnkiNoteType.Template(
                name: "Card 1",
                front: "<div class=front>{{Front}}</div>{{Audio}}",
                back: "{{FrontSide}}<hr id=answer><div class=reading>{{Reading}}</div><div class=back>{{Back}}</div><div class=example>{{Example}}</div>")
        ])

    public func export(_ items: [Item], deck: String, format: Format, to path: String) async throws -> Summary {
        var notes: [AnkiNote] = []
        var media: [AnkiMedia] = []
        var missing: [String: String] = [:]
        for item in items {
            var picture = ""
            if format == .apkg, let image = item.content.image, let pictures, ContainedFile.isRegular(pictures + "/" + image) {
                // The drawing a child knows the word by, before the word: one media file per
                // drawing, shared by the entries that have it.
                let name = Self.mediaName(ofPicture: image)
                if !media.contains(where: { $0.name == name }) { media.append(AnkiMedia(name: name, path: pictures + "/" + image)) }
                picture = "<img src=\"\(name)\" alt=\"\">"
            }
            var sound = ""
            if format == .csv, let clip = item.clip {
                // The CSV carries no clips, but names the ones the package carries for the same
                // notes (the same guids): imported over a package's notes, it keeps their sound
                // instead of blanking it.
                sound = "[sound:\(Self.mediaName(of: clip))]"
            }
            if format == .apkg, let clip = item.clip {
                if let clips {
                    do {
                        // Filed by the entry's identity, where say, render and serve find it too.
                        var request = clip.request
                        request.entry = clip.entry
                        let stored = try await clips.clip(for: request, format: .ogg).clip
                        let name = Self.mediaName(of: clip)
                        media.append(AnkiMedia(name: name, path: stored.path))
                        sound = "[sound:\(name)]"
                    } catch {
                        missing[item.key.description] = String(describing: error)
                    }
                } else {
                    missing[item.key.description] = "no audio tier is available"
                }
            }
            notes.append(
                AnkiNote(
                    guid: AnkiGUID.stable(for: "vocab:" + item.key.description), fields: Self.fields(item.content, sound: sound, picture: picture),
                    tags: Self.tags(item), modified: Int64(item.modified)))
        }
        // The file the person named, by `OutputPath`'s rule (a device, FIFO or `-` is written into).
        let destination = try OutputPath.resolve(path, tag: "export")
        do {
            switch format {
            case .apkg:
                let package = AnkiPackage(deckID: Self.deckID(deck), deckName: deck, noteType: Self.noteType, notes: notes, media: media)
                try AnkiPackageWriter.write(package, to: destination.temporary, now: Int64(Date().timeIntervalSince1970))
            case .csv:
                let text = AnkiCSVWriter.text(noteType: Self.noteType, deckName: deck, notes: notes)
                try DurableFile.write(Array(text.utf8), to: destination.temporary)
            }
            try destination.commit()
        } catch {
            destination.discard()
            throw error
        }
        let drawings = media.filter { $0.name.hasPrefix("vocab-picture-") }.count
        return Summary(
            path: path, format: format.rawValue, deck: deck, notes: notes.count, clips: media.count - drawings, pictures: drawings,
            missingClips: missing)
    }

    static func fields(_ c: CardContent, sound: String, picture: String = "") -> [String] {
        var back: [String] = []
        if let vi = c.vi { back.append(html(vi)) }
        back += c.senses.map { s in (s.partOfSpeech.map { "<i>\(html($0))</i> " } ?? "") + html(s.text) }
        var reading: [String] = []
        if let ipa = c.ipa { reading.append("/\(html(ipa.british))/ · /\(html(ipa.american))/") }
        if let pinyin = c.pinyin { reading.append(html(pinyin)) }
        if let bopomofo = c.bopomofo { reading.append(html(bopomofo)) }
        // With its drawing, the card shows the drawing instead of the emoji.
        let front = picture.isEmpty ? html(c.label) : picture + html(Word.label(c.front, sense: c.sense))
        return [front, back.joined(separator: "<br>"), reading.joined(separator: "<br>"), html(c.example ?? ""), sound, c.item]
    }

    static func tags(_ item: Item) -> [String] {
        var tags = ["vocab", item.key.source.rawValue]
        tags += (item.content.categories ?? []).map { "category::\($0)" }
        tags += (item.content.levels ?? []).map { "level::\($0.rawValue)" }
        return tags
    }

    /// The media file an item's clip is in (an Ogg Vorbis clip, named by the entry's identity).
    static func mediaName(of clip: (request: ClipRequest, entry: EntryReference)) -> String {
        mediaName(for: ClipKey(entry: clip.entry, accent: clip.request.accent, reading: clip.request.reading, format: .ogg))
    }

    /// A drawing's media file: "vocab-picture-openmoji-1F408.svg".
    static func mediaName(ofPicture image: String) -> String {
        "vocab-picture-" + image.replacingOccurrences(of: "/", with: "-")
    }

    /// Flat, unique and readable: Anki keeps media in one folder.
    static func mediaName(for key: ClipKey) -> String {
        "vocab-" + key.relativePath.replacingOccurrences(of: "/", with: "-").replacingOccurrences(of: "%", with: "_")
    }

    /// A deck id derived from its name: exporting the same deck again lands in the same deck.
    static func deckID(_ name: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in name.utf8 { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        return Int64(1_000_000_000 + hash % 1_000_000_000_000)
    }

    static func html(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}

extension LearningService {
    /// A learner's library, ready to export.
    public func exportItems(of learner: Learner) async throws -> [ExportService.Item] {
        let level = learner.settings.level.flatMap { Level(rawValue: $0) }
        var out: [ExportService.Item] = []
        for (item, _) in try await library(of: learner) {
            let content = await content(of: item, level: level)
            out.append(ExportService.Item(key: item.key, content: content, modified: item.savedAt, clip: try await clip(for: item)))
        }
        return out
    }

    /// Catalog words of a category and level, ready to export.
    public func exportItems(category: String?, level: Level?) async throws -> [ExportService.Item] {
        try await catalog.allEntries(category: category, level: level).map { entry in
            let key = ItemKey(.catalog, entry.id)
            let content = CardContent.catalog(entry, item: key, level: level)
            return ExportService.Item(
                key: key, content: content, modified: 0,
                clip: (ClipRequest(word: entry.word.word, accent: .british, references: entry.word.audio(for: .british)), entry.reference))
        }
    }

    /// The clip an item's note carries: a catalog word's own clips first, through its references.
    func clip(for item: SavedItem) async throws -> (request: ClipRequest, entry: EntryReference)? {
        switch item.key.source {
        case .catalog:
            let references = try await catalog.entry(id: item.key.entry)?.word.audio(for: .british)
            return (ClipRequest(word: item.word, accent: .british, references: references), item.key.reference)
        case .dictionary, .text:
            return (ClipRequest(word: item.word, accent: .british), EntryReference(.text, item.word))
        case .moe:
            // Spoken from the saved reading's pinyin by the Mandarin voice (no English voice reads
            // characters); a reading with bopomofo only, or no dictionary, has no clip.
            guard
                let request = try? await MandarinClips.request(
                    title: item.key.entry, reading: item.key.reading.isEmpty ? nil : item.key.reading,
                    dictionary: mandarin)
            else { return nil }
            return (request, request.entry ?? item.key.reference)
        }
    }
}
