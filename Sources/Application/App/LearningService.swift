import AppCore
import Catalog
import Classes
import Definitions
import FSRS
import Foundation
import Learners
import Mandarin
import Offloading
import TextMatching
import Vocabulary

/// What a learner may change about themselves (`PATCH /v1/me/settings`, `vocab users
/// settings`): the interface language, the time zone, the hour a day starts, and whether a card
/// says its word as it appears.
public struct SettingsChange: Sendable, Decodable {
    public var language: String?
    public var timeZone: String?
    public var dayStartsAt: Int?
    public var cardSound: Bool?

    public init(language: String? = nil, timeZone: String? = nil, dayStartsAt: Int? = nil, cardSound: Bool? = nil) {
        self.language = language
        self.timeZone = timeZone
        self.dayStartsAt = dayStartsAt
        self.cardSound = cardSound
    }

    var isEmpty: Bool { language == nil && timeZone == nil && dayStartsAt == nil && cardSound == nil }

    /// An IANA zone name, matched without regard to case ("asia/ho_chi_minh" is
    /// "Asia/Ho_Chi_Minh"), or UTC. Abbreviations and bare offsets ("EST", "GMT+7") are refused:
    /// an abbreviation's meaning changes with daylight saving and from country to country.
    static func timeZone(_ name: String) throws -> String {
        let known = TimeZone.knownTimeZoneIdentifiers
        let spelled =
            known.first { $0.caseInsensitiveCompare(name) == .orderedSame }
            ?? (["UTC", "GMT"].first { $0.caseInsensitiveCompare(name) == .orderedSame })
            ?? name
        if spelled.contains("/") || ["UTC", "GMT"].contains(spelled), TimeZone(identifier: spelled) != nil {
            return spelled
        }
        let city = name.lowercased().split(separator: "/").last.map(String.init) ?? ""
        throw Failure(
            .badTimeZone, "'\(Failure.quote(name))' is not a time zone; use a name such as Asia/Ho_Chi_Minh, Europe/London or UTC.",
            suggestions: city.count < 4 ? [] : Array(known.filter { $0.lowercased().contains(city) }.prefix(5)))
    }
}

/// The rule a learner's days follow, as `GET /v1/me` and `vocab users settings` show it.
public struct DayRule: Sendable, Codable, Equatable {
    /// The zone the days are counted in.
    public var timeZone: String
    /// The hour a day starts at.
    public var startsAt: Int
    /// false when the zone is the server's because the learner chose none.
    public var chosen: Bool
}

/// A learner as `GET /v1/me` and `vocab users settings --json` show them.
public struct LearnerBody: Sendable, Encodable {
    public var id: Int64
    public var name: String
    public var settings: LearnerSettings
    /// The rule the learner's days follow, with the server's zone filled in where they chose none.
    public var day: DayRule
}

/// The learning service as both front ends use it: learners and tokens, one library across the
/// catalog, the online dictionary and the Mandarin dictionary, review, progress. Everything a
/// learner asks for goes through here with that learner's id, and the store answers only for it.
public struct LearningService: Sendable {
    public let store: any LearnerStore
    public let catalog: CatalogService
    /// The Mandarin dictionary Mandarin words are saved, shown and quizzed from (moe.sqlite, or
    /// on `serve --database` the database's copy).
    let mandarin: any MandarinDictionary
    public let reviewer: Reviewer
    /// What time it is (`WallClock`): the system's, or a test's.
    public let now: @Sendable () -> Double
    /// Password checks (bcrypt) running and queued at once, for this service's whole life.
    let passwordChecks: WorkGate

    public init(
        store: any LearnerStore, catalog: CatalogService, mandarin: any MandarinDictionary, days: LocalDays,
        passwordChecks: WorkGate = PasswordRules.gate(),
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
    ) {
        self.passwordChecks = passwordChecks
        self.store = store
        self.catalog = catalog
        self.mandarin = mandarin
        self.reviewer = Reviewer(store: store, days: days)
        self.now = now
    }

    // MARK: Learners

    /// Changes what a learner may set about themselves; fields left out stay as they are.
    /// Everything is checked before anything is stored. Returns the learner as stored.
    public func updateSettings(_ change: SettingsChange, for learner: Learner) async throws -> Learner {
        guard !change.isEmpty else {
            throw Failure(.missingParameter, "give at least one of language, timeZone, dayStartsAt and cardSound.")
        }
        var settings = learner.settings
        if let language = change.language {
            let code = language.lowercased()
            guard LearnerSettings.languages.contains(code) else {
                throw Failure(
                    .badLanguage, "'\(Failure.quote(language))' is not an interface language; use \(LearnerSettings.languages.joined(separator: " or ")).",
                    suggestions: LearnerSettings.languages)
            }
            settings.language = code
        }
        if let zone = change.timeZone {
            settings.timeZone = try SettingsChange.timeZone(zone)
        }
        if let hour = change.dayStartsAt {
            guard LocalDays.startHours.contains(hour) else {
                throw Failure(.badDayStart, "a day starts at an hour from 0 to 23 (4 is Anki's default), not \(hour).")
            }
            settings.dayStartsAt = hour
        }
        if let sound = change.cardSound { settings.cardSound = sound }
        try await store.updateSettings(settings, of: learner.id)
        var updated = learner
        updated.settings = settings
        return updated
    }

    public func body(of learner: Learner) -> LearnerBody {
        LearnerBody(id: learner.id, name: learner.name, settings: learner.settings, day: dayRule(of: learner))
    }

    /// How the learner's days are counted, for showing it: their zone (or the server's) and the
    /// hour a day starts.
    public func dayRule(of learner: Learner) -> DayRule {
        let days = reviewer.days(for: learner)
        return DayRule(timeZone: learner.settings.timeZone ?? days.timeZone.identifier, startsAt: days.startHour, chosen: learner.settings.timeZone != nil)
    }

    /// The learner a command acts for: the one named, or the command line's own (made on first use).
    public func learner(named name: String?) async throws -> Learner {
        if let name {
            guard let learner = try await store.learner(named: name) else {
                throw Failure.unknownLearner(name)
            }
            return learner
        }
        if let me = try await store.learner(named: Learner.localName) { return me }
        return try await store.createLearner(name: Learner.localName, at: now())
    }

    /// A new learner and their first API token, which is shown once and never stored.
    public func addLearner(named name: String) async throws -> (Learner, token: String) {
        guard ClassRules.isAdultName(name) else { throw LearnerError.reservedName(name) }
        let learner = try await store.createLearner(name: name, at: now())
        return (learner, try await issueToken(for: learner, label: "created with the learner"))
    }

    public func issueToken(for learner: Learner, label: String) async throws -> String {
        let token = Tokens.generate()
        try await store.addToken(hash: Tokens.hash(token), label: label, for: learner.id, at: now())
        return token
    }

    /// The learner a bearer token belongs to; nil for a malformed, unknown or revoked token.
    public func learner(bearer token: String) async throws -> Learner? {
        guard Tokens.isWellFormed(token) else { return nil }
        return try await store.learner(tokenHash: Tokens.hash(token))
    }

    // MARK: The library

    /// Which source a word is looked up in.
    public enum Source: String, Sendable, CaseIterable {
        /// The catalog, then the Mandarin dictionary for Han characters, then the online dictionary.
        case auto, catalog, moe, dictionary
    }

    /// One item a save made (or found saved).
    public struct Saved: Sendable {
        public var item: SavedItem
        public var inserted: Bool
    }

    /// Asks the online dictionary about a word no local source has; nil when it is not asked.
    public typealias DictionaryLookup = @Sendable (String) async -> DictionaryAnswer

    public enum DictionaryAnswer: Sendable {
        case known(headword: String, partOfSpeech: String?, definition: String, phonetic: String?)
        case unknown
        case unavailable(reason: String)
    }

    /// Saves a word for a learner. A catalog headword with several entries (homographs) saves
    /// each, unless `entry` names one; a Mandarin title saves the reading asked for (pinyin with
    /// or without tones, bopomofo, or its number), every reading with `allReadings`, else the first.
    public func save(
        _ text: String, for learner: Learner, source: Source = .auto, entry: String? = nil, reading: String? = nil,
        allReadings: Bool = false, dictionary: DictionaryLookup? = nil
    ) async throws -> [Saved] {
        let word = try InputRules.text(text, name: "word", pathSafe: false)
        if let entry {
            guard let found = try await catalog.entry(id: entry) else {
                throw Failure(.unknownEntry, "the catalog has no entry '\(Failure.quote(entry))'.")
            }
            return [try await save(catalog: found, for: learner)]
        }
        var catalogMiss: [String] = []
        if source == .auto || source == .catalog {
            do {
                var saved: [Saved] = []
                for found in try await catalog.entries(for: word) { saved.append(try await save(catalog: found, for: learner)) }
                return saved
            } catch CatalogError.unknownWord(_, let suggestions) {
                catalogMiss = suggestions
                if source == .catalog { throw CatalogError.unknownWord(word, suggestions: suggestions) }
            }
        }
        var fromMandarin = source == .moe
        if !fromMandarin, source == .auto, Self.hasHan(word) || reading != nil { fromMandarin = await mandarin.isAvailable() }
        if fromMandarin {
            return try await saveMandarin(word, for: learner, reading: reading, allReadings: allReadings)
        }
        guard source == .auto || source == .dictionary else { return [] }
        switch await dictionary?(word) ?? .unknown {
        case .known(let headword, let partOfSpeech, let definition, let phonetic):
            // The answer must be about the word asked: a service that answers "cat" for
            // "serendipity" must not put "cat" in the library.
            guard SearchTextKey.same(headword, word) else {
                throw Failure(.unknownWord, "the dictionary answered about '\(Failure.quote(headword))', not '\(Failure.quote(word))'; nothing was saved.")
            }
            let key = ItemKey(.dictionary, word.lowercased())
            let details = ItemDetails(definition: definition, partOfSpeech: partOfSpeech, phonetic: phonetic)
            let (item, inserted) = try await store.save(key, word: headword, details: details, for: learner.id, at: now())
            return [Saved(item: item, inserted: inserted)]
        case .unknown:
            throw Failure(
                .unknownWord, "'\(Failure.quote(word))' is not in the catalog and the dictionary does not know it; nothing was saved.",
                suggestions: catalogMiss)
        case .unavailable(let reason):
            throw Failure(
                .unknownWord,
                "'\(Failure.quote(word))' is not in the catalog and the dictionary does not know it (the dictionary could not be asked: \(reason)); nothing was saved.",
                suggestions: catalogMiss)
        }
    }

    /// Saves exactly these catalog entries, named by id, in one transaction: a set saved together
    /// ("Animals at Starters") is those entries and no other sense of their headwords, and an
    /// unknown id saves nothing.
    public func save(entries ids: [String], for learner: Learner) async throws -> [Saved] {
        guard Limits.entriesPerSave.contains(ids.count) else {
            throw Failure(
                .badRequest, "a save names \(Limits.entriesPerSave.lowerBound) to \(Limits.entriesPerSave.upperBound) entries, not \(ids.count).")
        }
        var items: [NewItem] = []
        var seen: Set<String> = []
        for id in ids where seen.insert(id).inserted {
            guard let found = try await catalog.entry(id: id) else {
                throw Failure(.unknownEntry, "the catalog has no entry '\(Failure.quote(id))'; nothing was saved.")
            }
            items.append(NewItem(ItemKey(.catalog, found.id), word: found.word.word))
        }
        return try await store.save(items, for: learner.id, at: now()).map { Saved(item: $0.item, inserted: $0.inserted) }
    }

    private func save(catalog found: CatalogEntry, for learner: Learner) async throws -> Saved {
        let (item, inserted) = try await store.save(ItemKey(.catalog, found.id), word: found.word.word, details: nil, for: learner.id, at: now())
        return Saved(item: item, inserted: inserted)
    }

    private func saveMandarin(_ title: String, for learner: Learner, reading: String?, allReadings: Bool) async throws -> [Saved] {
        let entries = try await mandarin.lookup(title)
        let readings = entries.flatMap { e in e.readings.enumerated().map { (e.title, $0.offset, $0.element) } }
        let chosen: [(String, Int, Reading)]
        if allReadings {
            chosen = readings
        } else if let reading {
            chosen = try Self.pick(reading, among: readings, title: title)
        } else {
            chosen = Array(readings.prefix(1))
        }
        var saved: [Saved] = []
        for (entryTitle, _, r) in chosen {
            let key = ItemKey(.moe, entryTitle, reading: r.pinyin ?? r.bopomofo ?? "")
            let details = ItemDetails(
                definition: r.definitions.first?.text, partOfSpeech: r.definitions.first?.type.flatMap(PartOfSpeech.english),
                pinyin: r.pinyin, bopomofo: r.bopomofo)
            let (item, inserted) = try await store.save(key, word: entryTitle, details: details, for: learner.id, at: now())
            saved.append(Saved(item: item, inserted: inserted))
        }
        return saved
    }

    /// The reading a learner typed: its exact pinyin or bopomofo, its pinyin without tones when
    /// that is unambiguous, or its number (1 = the first reading).
    static func pick(_ text: String, among readings: [(String, Int, Reading)], title: String) throws -> [(String, Int, Reading)] {
        if let n = Int(text), (1...readings.count).contains(n) { return [readings[n - 1]] }
        let exact = readings.filter { $0.2.pinyin == text || $0.2.bopomofo == text }
        if !exact.isEmpty { return Array(exact.prefix(1)) }
        // With a tone (mark or number) the tone must match; without, the letters must be unique.
        let hasTone = text.unicodeScalars.contains { ("1"..."5").contains($0) } || ReadingKey.toned(text) != ReadingKey.toned(ReadingKey.pinyin(text))
        let loose = readings.filter { r in
            guard let pinyin = r.2.pinyin else { return r.2.bopomofo.map(ReadingKey.bopomofo) == ReadingKey.bopomofo(text) }
            return hasTone ? ReadingKey.toned(pinyin) == ReadingKey.toned(text) : ReadingKey.pinyin(pinyin) == ReadingKey.pinyin(text)
        }
        if loose.count == 1 { return loose }
        let listed = readings.enumerated().map { "\($0.offset + 1). \($0.element.2.pinyin ?? $0.element.2.bopomofo ?? "?")" }.joined(separator: ", ")
        throw Failure(
            .badReading,
            loose.isEmpty
                ? "\(title) has no reading '\(Failure.quote(text))'; its readings: \(listed)."
                : "'\(Failure.quote(text))' fits more than one reading of \(title): \(listed); give the tone or the number.")
    }

    static func hasHan(_ text: String) -> Bool {
        text.unicodeScalars.contains { (0x3400...0x9FFF).contains($0.value) || (0x20000...0x3FFFF).contains($0.value) || (0xF900...0xFAFF).contains($0.value) }
    }

    /// The learner's items, oldest first, with their cards.
    public func library(of learner: Learner) async throws -> [(item: SavedItem, card: CardRecord)] {
        try await resolveItemKeys(of: learner)
        return try await store.cards(of: learner.id).sorted { ($0.item.savedAt, $0.item.id) < ($1.item.savedAt, $1.item.id) }
    }

    /// The items whose word is `text` (a headword saved as two homographs is two items).
    public func items(matching text: String, of learner: Learner) async throws -> [(item: SavedItem, card: CardRecord)] {
        let all = try await library(of: learner)
        if let id = Int64(text), let hit = all.first(where: { $0.item.id == id }) { return [hit] }
        let hits = all.filter { SearchTextKey.same($0.item.word, text) || $0.item.key.description == text || $0.item.key.entry == text }
        guard !hits.isEmpty else {
            throw Failure(
                .notSaved, "'\(Failure.quote(text))' is not in the library.",
                hint: "'vocab library list' shows what is.")
        }
        return hits
    }

    /// Removes the items matching `text` (all homographs unless an id or entry is given).
    public func remove(_ text: String, of learner: Learner) async throws -> [SavedItem] {
        var removed: [SavedItem] = []
        for (item, _) in try await items(matching: text, of: learner) where try await store.remove(item.id, of: learner.id) {
            removed.append(item)
        }
        return removed
    }

    /// Catalog items follow their entry: one saved by headword before entries had ids
    /// ("headword:cat") gets the entry's id, and one saved under an id its entry had before a
    /// split (`places-and-directions/right`) gets the id the entry has now (`school/right`).
    /// The item keeps its id, so its card and its review history stay with it.
    func resolveItemKeys(of learner: Learner) async throws {
        let catalogItems = try await store.items(of: learner.id).filter { $0.key.source == .catalog }
        guard !catalogItems.isEmpty else { return }
        let moves = try await catalog.moves()
        for item in catalogItems {
            if item.key.entry.hasPrefix("headword:") {
                if let found = try? await catalog.entries(for: String(item.key.entry.dropFirst("headword:".count))).first {
                    try await store.rekey(item.id, to: ItemKey(.catalog, found.id), of: learner.id)
                }
            } else if let now = moves[item.key.entry] {
                // Saved again under the new id meanwhile (two items of one entry): left as it is.
                try await store.rekey(item.id, to: ItemKey(.catalog, now, reading: item.key.reading), of: learner.id)
            }
        }
    }

    // MARK: Cards

    /// What an item's card shows, from its source when it is there, else from what was saved.
    public func content(of item: SavedItem, level: Level?) async -> CardContent {
        switch item.key.source {
        case .catalog:
            if let found = try? await catalog.entry(id: item.key.entry) { return .catalog(found, item: item.key, level: level) }
        case .moe:
            if let entries = try? await mandarin.lookup(item.key.entry),
                let reading = entries.flatMap(\.readings).first(where: { ($0.pinyin ?? $0.bopomofo ?? "") == item.key.reading })
            {
                return .mandarin(reading, title: item.key.entry, item: item.key)
            }
        case .dictionary, .text:
            break
        }
        return .saved(item)
    }
}

/// Comparing what people type with headwords: case, accents and surrounding spaces do not matter.
enum SearchTextKey {
    static func same(_ a: String, _ b: String) -> Bool {
        SearchText.fold(a).trimmingWhitespace == SearchText.fold(b).trimmingWhitespace
    }
}
