import AppCore
import Catalog
import FSRS
import Foundation
import JSONReading
import Learners
import Quiz

/// A card as a review screen gets it: which item, its state's version (send it back with the
/// rating to refuse a rating on a card that changed meanwhile), what it shows, and when it would
/// be due again after each rating.
public struct ReviewCard: Sendable, Codable, Equatable {
    public var item: Int64
    public var version: Int
    public var phase: Phase
    public var due: Double
    public var content: CardContent
    /// "again", "hard", "good", "easy" → epoch seconds (without fuzz).
    public var next: [String: Double]
}

/// `vocab review --json`, `GET /v1/me/review/next`.
public struct ReviewBatch: Sendable, Codable, Equatable {
    public var cards: [ReviewCard]
    /// Cards due now (more than `cards` may hold).
    public var due: Int
    /// New cards that may still be introduced today.
    public var newAllowance: Int
    /// When the next card not in this batch falls due.
    public var nextDue: Double?
}

/// What a rating did: `POST /v1/me/reviews`, each rating of `vocab review --json`.
public struct RatingResult: Sendable, Codable, Equatable {
    public var item: Int64
    public var rating: Int
    public var version: Int
    public var phase: Phase
    public var due: Double
    public var stability: Double?
    public var difficulty: Double?
    public var scheduledDays: Int
    public var reviewedAt: Double
    /// True when this client id was applied before and nothing changed now.
    public var repeated: Bool

    init(_ record: CardRecord, _ entry: ReviewEntry, repeated: Bool) {
        item = record.itemID
        rating = entry.rating.rawValue
        version = record.version
        phase = record.card.phase
        due = record.card.due
        stability = record.card.memory?.stability
        difficulty = record.card.memory?.difficulty
        scheduledDays = record.card.scheduledDays
        reviewedAt = entry.reviewedAt
        self.repeated = repeated
    }

    /// The answer to a rating as `JSONEncoder` writes it with `.sortedKeys` (a test holds the
    /// two to the same bytes), written by hand: it answers every rating, and the generic
    /// encoder was a twentieth of the server's work for one. Nil when a number is not finite,
    /// which JSON cannot hold.
    public var json: String? {
        guard let due = JSONQuoting.number(due), let reviewedAt = JSONQuoting.number(reviewedAt) else { return nil }
        var out = "{"
        if let difficulty {
            guard let d = JSONQuoting.number(difficulty) else { return nil }
            out += "\"difficulty\":\(d),"
        }
        out += "\"due\":\(due),\"item\":\(item),\"phase\":\"\(phase.rawValue)\",\"rating\":\(rating),\"repeated\":\(repeated),"
        out += "\"reviewedAt\":\(reviewedAt),\"scheduledDays\":\(scheduledDays),"
        if let stability {
            guard let s = JSONQuoting.number(stability) else { return nil }
            out += "\"stability\":\(s),"
        }
        return out + "\"version\":\(version)}"
    }
}

public enum RatingName {
    public static func name(_ rating: Rating) -> String {
        switch rating {
        case .again: "again"
        case .hard: "hard"
        case .good: "good"
        case .easy: "easy"
        }
    }

    /// 1–4 or again/hard/good/easy, in any case. A digit alone: "+3" and "03" are not ratings
    /// (openapi.json states the same rule as a pattern).
    public static func parse(_ text: String) -> Rating? {
        if text.utf8.count == 1, let n = Int(text) { return Rating(rawValue: n) }
        return Rating.allCases.first { name($0) == text.lowercased() }
    }
}

extension LearningService {
    public static let reviewBatchLimit = 1...100

    public func nextCards(for learner: Learner, limit: Int) async throws -> ReviewBatch {
        try await resolveItemKeys(of: learner)
        let at = now()
        let queue = try await reviewer.queue(for: learner, at: at, limit: limit)
        let level = learner.settings.level.flatMap { Level(rawValue: $0) }
        var cards: [ReviewCard] = []
        for (item, record) in queue.cards {
            let preview = try reviewer.preview(record.card, learner: learner, at: at)
            cards.append(
                ReviewCard(
                    item: item.id, version: record.version, phase: record.card.phase, due: record.card.due,
                    content: await content(of: item, level: level),
                    next: Dictionary(uniqueKeysWithValues: preview.map { (RatingName.name($0.key), $0.value) })))
        }
        return ReviewBatch(cards: cards, due: queue.dueCount, newAllowance: queue.newAllowance, nextDue: queue.nextDue)
    }

    /// - Parameter madeAt: when the rating was made, if it is sent later (an offline review):
    ///   the review counts from then (`ReviewTime.accepted`), so a day offline lands on its day.
    /// The item, version and client id are checked first, before anything is read (a
    /// repeated client id included), the same for every front end.
    /// - Parameter spoken: the rating of a word said well (`ListeningService`): marked so in the
    ///   review log (`ReviewEntry.spokenPrefix`), which no client's own id may imitate.
    public func rate(
        item: Int64, rating: Rating, for learner: Learner, expectedVersion: Int? = nil, clientID: String? = nil,
        madeAt: Double? = nil, spoken: Bool = false
    ) async throws -> RatingResult {
        let item = try InputRules.item(item)
        let expectedVersion = try InputRules.version(expectedVersion)
        var clientID = try InputRules.clientID(clientID)
        if clientID?.hasPrefix(ReviewEntry.spokenPrefix) == true {
            throw Failure(.badClientID, "clientId may not start with '\(ReviewEntry.spokenPrefix)': those mark words said well.")
        }
        if spoken { clientID = ReviewEntry.spokenPrefix + UUID().uuidString.lowercased() }
        let time = try ReviewTime.accepted(madeAt, now: now())
        do {
            switch try await reviewer.rate(item: item, rating: rating, learner: learner, at: time, expectedVersion: expectedVersion, clientID: clientID) {
            case .applied(let record, let entry): return RatingResult(record, entry, repeated: false)
            case .repeated(let record, let entry): return RatingResult(record, entry, repeated: true)
            }
        } catch LearnerError.unknownItem {
            throw Failure.unknownItem(item)
        }
    }

    /// Takes back the latest rating; returns it and the item it was for.
    public func undo(for learner: Learner) async throws -> (ReviewEntry, SavedItem?) {
        do {
            let entry = try await reviewer.undo(learner: learner)
            return (entry, try await store.item(entry.itemID, of: learner.id))
        } catch LearnerError.nothingToUndo {
            throw Failure.nothingToUndo
        }
    }
}

/// Learned words of one category at one level, for `vocab progress` and `/v1/me/progress`.
public struct CategoryProgress: Sendable, Codable, Equatable {
    public var category: String
    public var level: Level
    /// Catalog words of the category at the level.
    public var words: Int
    /// Of those, in the learner's library.
    public var saved: Int
    /// Of those, learned (stability ≥ 21 days).
    public var learned: Int
}

/// `vocab progress --json`, `GET /v1/me/progress`.
public struct LearnerProgress: Sendable, Codable, Equatable {
    public var learner: String
    public var report: ProgressReport
    public var categories: [CategoryProgress]
}

extension LearningService {
    public func progress(of learner: Learner) async throws -> LearnerProgress {
        let cards = try await library(of: learner)
        let at = now()
        let report = ProgressReport.make(cards: cards, totals: try await store.totals(of: learner.id), now: at, days: reviewer.days(for: learner))
        // Catalog items by category and level: every level a word belongs to counts it.
        var saved: [String: Int] = [:]
        var learned: [String: Int] = [:]
        for (item, record) in cards where item.key.source == .catalog {
            guard let entry = try await catalog.entry(id: item.key.entry) else { continue }
            let isLearned = record.isLearned
            for category in entry.word.categories {
                for level in entry.word.levels {
                    saved["\(category)|\(level.rawValue)", default: 0] += 1
                    if isLearned { learned["\(category)|\(level.rawValue)", default: 0] += 1 }
                }
            }
        }
        var rows: [CategoryProgress] = []
        for summary in try await catalog.overview().summaries {
            for level in Level.allCases {
                let key = "\(summary.category.id)|\(level.rawValue)"
                rows.append(
                    CategoryProgress(
                        category: summary.category.id, level: level, words: summary.levelCounts[level.rawValue] ?? 0,
                        saved: saved[key] ?? 0, learned: learned[key] ?? 0))
            }
        }
        return LearnerProgress(learner: learner.name, report: report, categories: rows)
    }
}

extension LearningService {
    /// A learner's items as quiz questions, and wrong answers for the Mandarin ones (characters
    /// with the same stroke count as the first character: other meanings of the same kind).
    public func quizItems(of learner: Learner, answers: AnswerLanguage) async throws -> (items: [QuizItem], distractors: [QuizItem]) {
        var items: [QuizItem] = []
        var strokeCounts: Set<Int> = []
        for (item, _) in try await library(of: learner) {
            let content = await content(of: item, level: nil)
            switch item.key.source {
            case .catalog:
                if let entry = try await catalog.entry(id: item.key.entry), let q = QuizItem(entry.word, answers: answers) { items.append(q) }
            case .dictionary, .text:
                if answers == .en, let sense = content.senses.first { items.append(QuizItem(word: item.word, answer: sense.text, kind: "dictionary")) }
            case .moe:
                let answer = answers == .reading ? content.pinyin : content.senses.first?.text
                if let answer {
                    items.append(QuizItem(word: item.word, answer: answer, kind: "moe"))
                    if let strokes = try? await mandarin.lookup(String(item.word.prefix(1))).first?.strokeCount { strokeCounts.insert(strokes) }
                }
            }
        }
        var distractors: [QuizItem] = []
        if !strokeCounts.isEmpty {
            for strokes in strokeCounts.sorted() {
                for c in (try? await mandarin.characters(strokes: strokes, limit: 60).characters) ?? [] {
                    let answer = answers == .reading ? c.pinyin.first : c.definition
                    if let answer { distractors.append(QuizItem(word: c.title, answer: answer, kind: "moe")) }
                }
            }
        }
        return (items, distractors)
    }
}

/// A card's scheduling state as answers show it.
public struct CardBody: Sendable, Codable, Equatable {
    public var phase: Phase
    public var due: Double
    public var stability: Double?
    public var difficulty: Double?
    public var reps: Int
    public var lapses: Int
    public var version: Int

    public init(_ record: CardRecord) {
        phase = record.card.phase
        due = record.card.due
        stability = record.card.memory?.stability
        difficulty = record.card.memory?.difficulty
        reps = record.card.reps
        lapses = record.card.lapses
        version = record.version
    }
}

/// An item of a library: `vocab library … --json`, `/v1/me/library`.
public struct LibraryItemBody: Sendable, Codable, Equatable {
    public var id: Int64
    /// "catalog:animals/cat", "moe:行#háng".
    public var item: String
    public var source: String
    public var entry: String
    public var reading: String?
    public var word: String
    public var savedAt: Double
    public var card: CardBody
    public var content: CardContent
}

/// `GET /v1/me/library`, `vocab library list --json`.
public struct LibraryBody: Sendable, Codable, Equatable {
    public var learner: String
    public var items: [LibraryItemBody]
}

extension LearningService {
    public func body(of item: SavedItem, card: CardRecord, level: Level?) async -> LibraryItemBody {
        LibraryItemBody(
            id: item.id, item: item.key.description, source: item.key.source.rawValue, entry: item.key.entry,
            reading: item.key.reading.isEmpty ? nil : item.key.reading, word: item.word, savedAt: item.savedAt,
            card: CardBody(card), content: await content(of: item, level: level))
    }

    public func libraryBody(of learner: Learner) async throws -> LibraryBody {
        let level = learner.settings.level.flatMap { Level(rawValue: $0) }
        var items: [LibraryItemBody] = []
        for (item, card) in try await library(of: learner) { items.append(await body(of: item, card: card, level: level)) }
        return LibraryBody(learner: learner.name, items: items)
    }
}

/// When a rating counts from: now, or the time it was made when it is sent later (offline).
public enum ReviewTime {
    /// A rating made this long ago is still taken at its time (a month without a connection).
    public static let oldest: Double = 30 * 86_400
    /// Clocks disagree: a time this far ahead of the server's is taken as now.
    public static let skew: Double = 300

    /// `madeAt` when it is plausible: not in the future beyond a clock's error (then now), not
    /// older than `oldest` (refused: the client's clock or queue is wrong).
    public static func accepted(_ madeAt: Double?, now: Double) throws(Failure) -> Double {
        guard let madeAt else { return now }
        guard madeAt.isFinite, madeAt >= now - oldest, madeAt <= now + skew else {
            throw Failure(.badReviewedAt, "reviewedAt must be when the rating was made, in seconds since 1970, within the last 30 days.")
        }
        return min(madeAt, now)
    }
}
