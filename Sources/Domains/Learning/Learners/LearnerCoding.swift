import FSRS
import Foundation
import JSONReading
import Synchronization

/// How every engine keeps a learner's values: name keys, settings and the review log's card
/// JSON are one rule, so a learner copied from user.sqlite to PostgreSQL reads back the same.
public enum LearnerCoding {
    /// Every table that keeps a learner's rows, by its learner column, children before parents:
    /// deleting a learner deletes from each, so nothing of theirs is left in either engine.
    public static let ownedTables = ["review_slots", "review_items", "reviews", "cards", "items", "tokens", "sessions"]
    /// Settings as stored, decoded once per distinct text: every request looks its learner up,
    /// and most learners share a few settings.
    public static func settings(_ text: String?) -> LearnerSettings {
        guard let text else { return LearnerSettings() }
        if let known = settingsCache.withLock({ $0[text] }) { return known }
        let settings = (try? JSONDecoder().decode(LearnerSettings.self, from: Data(text.utf8))) ?? LearnerSettings()
        settingsCache.withLock { cache in
            if cache.count >= 1024 { cache.removeAll(keepingCapacity: true) }
            cache[text] = settings
        }
        return settings
    }

    private static let settingsCache = Mutex<[String: LearnerSettings]>([:])

    /// A card as the review log keeps it: what `json(card)` writes (sorted keys, absent optionals
    /// left out), without the generic encoder, which was most of a rating's time on the writer.
    public static func cardJSON(_ card: Card) throws -> String {
        // A number JSON cannot hold: the encoder's own error.
        guard let due = JSONQuoting.number(card.due) else { return try json(card) }
        var out = "{\"due\":\(due),\"lapses\":\(card.lapses)"
        if let lastReview = card.lastReview {
            guard let last = JSONQuoting.number(lastReview) else { return try json(card) }
            out += ",\"lastReview\":\(last)"
        }
        if let m = card.memory {
            guard let d = JSONQuoting.number(m.difficulty), let s = JSONQuoting.number(m.stability) else { return try json(card) }
            out += ",\"memory\":{\"difficulty\":\(d),\"stability\":\(s)}"
        }
        out += ",\"phase\":\"\(card.phase.rawValue)\",\"reps\":\(card.reps),\"scheduledDays\":\(card.scheduledDays)"
        if let step = card.step { out += ",\"step\":\(step)" }
        return out + "}"
    }

    public static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Names compare without case or surrounding spaces: "Anna" and "anna " are one learner.
    /// A child's name (made by the classes, never typed) starts with `childNamePrefix`.
    public static func nameKey(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        let body = trimmed.hasPrefix(childNamePrefix) ? String(trimmed.dropFirst(childNamePrefix.count)) : trimmed
        let ok =
            (1...40).contains(body.count)
            && body.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || " -_.".unicodeScalars.contains($0) }
        guard ok else { throw LearnerError.badName(name) }
        return trimmed.lowercased()
    }

    /// What starts a child's learner name: a character no adult's name may have.
    public static let childNamePrefix = "#"

    public static func card(json: String) -> Card {
        (try? JSONDecoder().decode(Card.self, from: Data(json.utf8))) ?? Card(due: 0)
    }

    public static func details(json: String?) -> ItemDetails? {
        json.flatMap { try? JSONDecoder().decode(ItemDetails.self, from: Data($0.utf8)) }
    }
}
