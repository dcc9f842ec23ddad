import Foundation
import Store

/// One finished quiz as it is kept in the history.
public struct QuizResult: Codable, Sendable, Hashable {
    public var id: String
    public var takenAt: Date
    /// What was asked: "library", a category id, or "catalog" for everything.
    public var source: String
    public var level: String?
    public var answers: AnswerLanguage
    public var total: Int
    public var correct: Int
    public var answered: Int
    public var ending: QuizEnding
    public var seconds: Double
    public var timeLimit: Double?
    public var seed: UInt64
    public var questions: [QuestionOutcome]

    public init(outcome: QuizOutcome, source: String, level: String?, answers: AnswerLanguage, timeLimit: Double?, seed: UInt64) {
        // Time first so ids sort like the history; the seed tells apart quizzes of the same second.
        id = String(format: "%012.0f-%016llx", outcome.startedAt.timeIntervalSince1970 * 1000, seed)
        takenAt = outcome.startedAt
        self.source = source
        self.level = level
        self.answers = answers
        total = outcome.total
        correct = outcome.correct
        answered = outcome.answered
        ending = outcome.ending
        seconds = (outcome.seconds * 10).rounded() / 10
        self.timeLimit = timeLimit
        self.seed = seed
        questions = outcome.questions
    }

    /// 0-100, counting unanswered questions as wrong.
    public var percent: Int { total == 0 ? 0 : Int((Double(correct) * 100 / Double(total)).rounded()) }
}

/// Past quiz results in the user's store.
public struct QuizHistory: Sendable {
    public static let collection = "quiz_results"
    let store: any DocumentStore

    public init(store: any DocumentStore) { self.store = store }

    public func save(_ result: QuizResult) async throws {
        try await store.put([Document(id: result.id, encoding: result)], in: Self.collection)
    }

    /// Newest first.
    public func recent(limit: Int? = nil) async throws -> [QuizResult] {
        try await store.query(Query(Self.collection).ordered(by: "takenAt", descending: true).limited(to: limit))
            .map { try $0.decode(QuizResult.self) }
    }
}
