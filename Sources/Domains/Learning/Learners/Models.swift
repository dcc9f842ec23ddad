import FSRS
import Vocabulary

/// Someone who learns: a child, a parent, a class's pupil, or the command line's own learner.
public struct Learner: Sendable, Codable, Equatable, Hashable {
    public var id: Int64
    public var name: String
    /// Epoch seconds.
    public var createdAt: Double
    public var settings: LearnerSettings

    public init(id: Int64, name: String, createdAt: Double, settings: LearnerSettings = LearnerSettings()) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.settings = settings
    }

    /// The learner the command line acts for unless `--user` names another.
    public static let localName = "me"
}

/// A learner's review settings.
public struct LearnerSettings: Sendable, Codable, Equatable, Hashable {
    /// The recall probability reviews aim for (0.7–0.99).
    public var desiredRetention: Double
    /// New cards introduced per day.
    public var newPerDay: Int
    /// The Young Learners level whose example sentence a card shows, if chosen.
    public var level: String?
    /// The web app's interface language ("en", "vi"), kept so it follows the learner to another device.
    public var language: String?
    /// The learner's time zone (an IANA name such as "Asia/Ho_Chi_Minh"); nil: the server's.
    public var timeZone: String?
    /// The hour (0–23) at which the learner's day starts; nil: 4, Anki's default.
    public var dayStartsAt: Int?
    /// Whether a card says its word as it appears (nil: yes): a child who cannot read yet
    /// answers by ear; an adult who reads may turn it off.
    public var cardSound: Bool?

    public init(
        desiredRetention: Double = 0.9, newPerDay: Int = 20, level: String? = nil, language: String? = nil,
        timeZone: String? = nil, dayStartsAt: Int? = nil, cardSound: Bool? = nil
    ) {
        self.cardSound = cardSound
        self.desiredRetention = desiredRetention
        self.newPerDay = newPerDay
        self.level = level
        self.language = language
        self.timeZone = timeZone
        self.dayStartsAt = dayStartsAt
    }

    /// The interface languages the web app speaks.
    public static let languages = ["en", "vi"]

    public static let newPerDayRange = 0...500
}

/// What a saved item is: an entry of a source, and for Mandarin the reading chosen ("" when the
/// source has no readings). Unique per learner.
public struct ItemKey: Sendable, Codable, Equatable, Hashable {
    public var source: EntryReference.Source
    public var entry: String
    public var reading: String

    public init(_ source: EntryReference.Source, _ entry: String, reading: String = "") {
        self.source = source
        self.entry = entry
        self.reading = reading
    }

    public var reference: EntryReference { EntryReference(source, entry) }

    /// "catalog:animals/cat", "moe:行#háng": stable, so exports keep one note per item.
    public var description: String { reading.isEmpty ? reference.description : "\(reference)#\(reading)" }
}

/// What is kept with an item so it shows without its source (a dictionary word offline, a
/// Mandarin reading's sound).
public struct ItemDetails: Sendable, Codable, Equatable, Hashable {
    public var definition: String?
    public var partOfSpeech: String?
    public var phonetic: String?
    public var pinyin: String?
    public var bopomofo: String?

    public init(definition: String? = nil, partOfSpeech: String? = nil, phonetic: String? = nil, pinyin: String? = nil, bopomofo: String? = nil) {
        self.definition = definition
        self.partOfSpeech = partOfSpeech
        self.phonetic = phonetic
        self.pinyin = pinyin
        self.bopomofo = bopomofo
    }
}

/// An item in a learner's library.
public struct SavedItem: Sendable, Codable, Equatable, Hashable {
    public var id: Int64
    public var key: ItemKey
    /// The headword or characters, as shown.
    public var word: String
    /// Epoch seconds.
    public var savedAt: Double
    public var details: ItemDetails?

    public init(id: Int64, key: ItemKey, word: String, savedAt: Double, details: ItemDetails? = nil) {
        self.id = id
        self.key = key
        self.word = word
        self.savedAt = savedAt
        self.details = details
    }
}

/// An item to save: its key, the word as shown and what a dictionary said of it.
public struct NewItem: Sendable, Equatable, Hashable {
    public var key: ItemKey
    public var word: String
    public var details: ItemDetails?

    public init(_ key: ItemKey, word: String, details: ItemDetails? = nil) {
        self.key = key
        self.word = word
        self.details = details
    }
}

/// An item's scheduling state, with the version that changes at every rating: a writer that
/// read version n may only write if it is still n.
public struct CardRecord: Sendable, Codable, Equatable, Hashable {
    public var itemID: Int64
    public var card: Card
    public var version: Int

    public init(itemID: Int64, card: Card, version: Int) {
        self.itemID = itemID
        self.card = card
        self.version = version
    }

    /// A word counts as learned once it would still be recalled 9 times in 10 three weeks on:
    /// FSRS stability of at least `learnedStability` days. Every report (a learner's progress,
    /// a class's, the catalog's coverage) asks this one question.
    public var isLearned: Bool { (card.memory?.stability ?? 0) >= Self.learnedStability }

    public static let learnedStability = 21.0
}

/// One rating as the review log keeps it: the state before and after, so it can be undone and
/// studied.
public struct ReviewEntry: Sendable, Codable, Equatable, Hashable {
    public var id: Int64
    public var itemID: Int64
    /// Epoch seconds.
    public var reviewedAt: Double
    public var rating: Rating
    public var elapsedDays: Int
    public var before: Card
    public var after: Card
    /// Set by clients that queue ratings offline: the same id is applied once.
    public var clientID: String?

    public init(id: Int64, itemID: Int64, reviewedAt: Double, rating: Rating, elapsedDays: Int, before: Card, after: Card, clientID: String?) {
        self.id = id
        self.itemID = itemID
        self.reviewedAt = reviewedAt
        self.rating = rating
        self.elapsedDays = elapsedDays
        self.before = before
        self.after = after
        self.clientID = clientID
    }
}

/// What a rating did.
public enum RatingOutcome: Sendable, Equatable {
    /// Applied: the card's new record and the log entry.
    case applied(CardRecord, ReviewEntry)
    /// A rating with this client id was applied before; nothing changed this time.
    case repeated(CardRecord, ReviewEntry)
}

public enum LearnerError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownLearner(String)
    case nameTaken(String)
    case badName(String)
    /// A name of the children's kind (`ClassRules.isAdultName`): refused alike whoever has it.
    case reservedName(String)
    case unknownItem(Int64)
    /// The card changed since the client read it: its current record.
    case stale(current: CardRecord)
    case nothingToUndo

    public var description: String {
        switch self {
        case .unknownLearner(let name): return "there is no learner '\(name)'."
        case .nameTaken(let name): return "a learner '\(name)' exists already."
        case .badName(let name): return "'\(name)' is not a usable name: use 1-40 letters, digits, spaces, '-', '_' or '.'."
        case .reservedName:
            return "names of this kind (a name, a dot and six capitals, or one starting with #) are kept for children's sign-in; choose another."
        case .unknownItem(let id): return "there is no item \(id) in this library."
        case .stale(let current): return "the card changed since it was read (now at version \(current.version))."
        case .nothingToUndo: return "there is no rating to undo."
        }
    }
}

extension ReviewEntry {
    /// The client ids of reviews made by saying the word well (`POST /v1/me/attempts`): the one
    /// mark that tells them from a tap in a game or on a card, so a class page can show words said
    /// well from the review log alone. No client may choose such an id itself.
    public static let spokenPrefix = "said-"
    public var wasSpoken: Bool { Self.isSpoken(clientID: clientID) }
    public static func isSpoken(clientID: String?) -> Bool { clientID?.hasPrefix(spokenPrefix) == true }
}
