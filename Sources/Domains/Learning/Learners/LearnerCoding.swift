import FSRS
import Foundation

/// How every engine keeps a learner's values: name keys, settings and the review log's card
/// JSON are one rule, so a learner copied from user.sqlite to PostgreSQL reads back the same.
public enum LearnerCoding {
    /// The key a name is unique by (case and surrounding spaces ignored); refuses unusable names.
    public static func nameKey(_ name: String) throws -> String { try SQLiteLearnerStore.nameKey(name) }
    public static func settings(_ text: String?) -> LearnerSettings { SQLiteLearnerStore.settings(text) }
    /// Sorted-key JSON, as stored.
    public static func json<T: Encodable>(_ value: T) throws -> String { try SQLiteLearnerStore.json(value) }
    public static func cardJSON(_ card: Card) throws -> String { try SQLiteLearnerStore.cardJSON(card) }
    public static func card(json: String) -> Card {
        (try? JSONDecoder().decode(Card.self, from: Data(json.utf8))) ?? Card(due: 0)
    }
    public static func details(json: String?) -> ItemDetails? {
        json.flatMap { try? JSONDecoder().decode(ItemDetails.self, from: Data($0.utf8)) }
    }
}
