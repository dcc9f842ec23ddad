import Catalog
import Foundation
import Quiz
import SeededRandom
import Store
import TestSupport
import Testing

@Suite("quiz")
struct QuizTests {
    func builder(
        _ box: Sandbox, category: String? = "animals", level: Level? = .starters,
        answers: AnswerLanguage = .vi, source: QuizSource = .catalog
    ) async throws -> QuizBuilder {
        try await QuizPlanner(catalog: box.catalog).builder(source: source, category: category, level: level, answers: answers)
    }

    func questions(_ box: Sandbox, count: Int = 5, seed: UInt64 = 1) async throws -> [Question] {
        var rng = SeededGenerator(seed: seed)
        return try await builder(box).questions(count: count, using: &rng)
    }

    /// The option number (1-4) a perfect learner would type.
    func right(_ q: Question) -> String { "\(q.correctIndex + 1)" }
    func wrong(_ q: Question) -> String { "\((q.correctIndex + 1) % 4 + 1)" }

    @Test func distractorsComeFromTheSameCategoryAndLevel() async throws {
        let box = try await Sandbox()
        let animalsAtStarters: Set = ["con mèo", "con chó", "con cá", "con chim", "con ngựa"]
        for q in try await questions(box, count: 5) {
            #expect(q.options.count == 4 && Set(q.options).count == 4)
            #expect(q.options[q.correctIndex] == q.item.answer)
            #expect(Set(q.options).isSubset(of: animalsAtStarters), "\(q.word): \(q.options)")
        }
    }

    @Test func sameSeedSameQuiz() async throws {
        let box = try await Sandbox()
        let a = try await questions(box, seed: 99)
        let b = try await questions(box, seed: 99)
        #expect(a == b)
        let orders = try await (1...5).asyncMap { try await questions(box, seed: $0).map(\.word) }
        #expect(Set(orders).count > 1, "different seeds give different orders")
    }

    @Test func englishAnswersUseDefinitions() async throws {
        let box = try await Sandbox()
        var rng = SeededGenerator(seed: 3)
        let qs = try await builder(box, category: "food", level: nil, answers: .en).questions(count: 3, using: &rng)
        #expect(qs.allSatisfy { $0.item.answer.hasPrefix("a ") })
    }

    @Test func scriptedAnswersAreScored() async throws {
        let box = try await Sandbox()
        let qs = try await questions(box, count: 5)
        let clock = TestClock()
        let script = [
            (right(qs[0]), 2.0), ("", 1), ("x", 1), (right(qs[1]), 2), (wrong(qs[2]), 2),
            (["a", "b", "c", "d"][qs[3].correctIndex], 2), (right(qs[4]).uppercased(), 2),
        ]
        var events: [QuizEvent] = []
        let outcome = QuizSession(questions: qs, timeLimit: 30, clock: clock)
            .run(input: ScriptedAnswers(script, clock: clock)) { events.append($0) }
        #expect(outcome.ending == .completed)
        #expect(outcome.correct == 4 && outcome.total == 5 && outcome.answered == 5)
        #expect(outcome.questions[2].correct == false && outcome.questions[2].chosenIndex != nil)
        #expect(outcome.seconds == 12)
        let invalid = events.filter { if case .invalidAnswer = $0 { true } else { false } }
        #expect(invalid.count == 1, "a blank line is ignored, 'x' gets a hint")
        let remaining = events.compactMap { if case .question(_, _, _, let left) = $0 { left } else { nil } }
        #expect(remaining == [30, 28, 24, 22, 20], "the countdown is shown with each question")
    }

    @Test func runningOutOfTimeEndsTheQuiz() async throws {
        let box = try await Sandbox()
        let qs = try await questions(box, count: 5)
        let clock = TestClock()
        // 8 s per answer against 20 s: two answers, then the third question times out.
        let script = qs.map { (right($0), 8.0) }
        var timeUp = false
        let outcome = QuizSession(questions: qs, timeLimit: 20, clock: clock)
            .run(input: ScriptedAnswers(script, clock: clock)) { if case .timeUp = $0 { timeUp = true } }
        #expect(timeUp)
        #expect(outcome.ending == .timeUp)
        #expect(outcome.correct == 2 && outcome.answered == 2 && outcome.total == 5)
        #expect(outcome.seconds == 20)
    }

    @Test func anAnswerAfterTheDeadlineDoesNotCount() async throws {
        let box = try await Sandbox()
        let qs = try await questions(box, count: 2)
        let clock = TestClock()
        final class LateInput: AnswerSource {
            let clock: TestClock, answer: String
            init(_ clock: TestClock, _ answer: String) {
                self.clock = clock
                self.answer = answer
            }
            func nextLine(timeout: TimeInterval?) -> AnswerEvent {
                clock.advance(15) // a reader that returned late anyway
                return .line(answer)
            }
        }
        var late = false
        let outcome = QuizSession(questions: qs, timeLimit: 10, clock: clock)
            .run(input: LateInput(clock, right(qs[0]))) { if case .timeUp(true) = $0 { late = true } }
        #expect(late && outcome.correct == 0 && outcome.ending == .timeUp)
    }

    @Test func endOfInputStopsTheQuiz() async throws {
        let box = try await Sandbox()
        let qs = try await questions(box, count: 5)
        let clock = TestClock()
        let outcome = QuizSession(questions: qs, timeLimit: nil, clock: clock)
            .run(input: ScriptedAnswers([(right(qs[0]), 1), (wrong(qs[1]), 1)], clock: clock)) { _ in }
        #expect(outcome.ending == .stopped)
        #expect(outcome.correct == 1 && outcome.answered == 2 && outcome.questions.count == 3)
        let quit = QuizSession(questions: qs, timeLimit: nil, clock: clock)
            .run(input: ScriptedAnswers([("q", 1)], clock: clock)) { _ in }
        #expect(quit.ending == .stopped && quit.answered == 0)
    }

    @Test func resultsAreSavedInTheHistory() async throws {
        let box = try await Sandbox()
        let qs = try await questions(box, count: 3)
        let clock = TestClock()
        let start = clock.now()
        let history = QuizHistory(store: box.userStore)
        for (i, answers) in [[right(qs[0]), wrong(qs[1]), right(qs[2])], qs.map(right)].enumerated() {
            let outcome = QuizSession(questions: qs, timeLimit: 30, clock: clock)
                .run(input: ScriptedAnswers(answers.map { ($0, 3) }, clock: clock)) { _ in }
            try await history.save(
                QuizResult(
                    outcome: outcome, source: "animals", level: "starters", answers: .vi,
                    timeLimit: 30, seed: UInt64(i + 1)))
            clock.advance(600)
        }
        // Reopen the store, as the next run of vocab would.
        let saved = try await QuizHistory(store: try SQLiteDocumentStore(path: box.dir.file("user.sqlite"))).recent()
        #expect(saved.map(\.correct) == [3, 2], "newest first")
        #expect(saved.map(\.percent) == [100, 67])
        #expect(saved.last?.questions.map(\.word) == qs.map(\.word))
        #expect(saved.map(\.takenAt) == [start + 609, start], "three answers of 3 s, then 600 s between quizzes")
        #expect(saved.first?.ending == .completed && saved.first?.seed == 2)
        #expect(try await history.recent(limit: 1).count == 1)
    }

    @Test func givenItemsAreAskedWithWrongAnswersOfTheirOwnKind() async throws {
        let box = try await Sandbox()
        let saved = [QuizItem(word: "行", answer: "走、走路。", kind: "moe"), QuizItem(word: "水", answer: "一種無色無味的液體。", kind: "moe")]
        let extra = ["火": "物體燃燒所發出的光和熱。", "木": "樹類植物的通稱。", "土": "地面上的泥沙。"].map { QuizItem(word: $0.key, answer: $0.value, kind: "moe") }
        var rng = SeededGenerator(seed: 3)
        let questions = try await builder(box, category: nil, level: nil, answers: .en, source: .items(saved, extraDistractors: extra, label: "x"))
            .questions(count: 5, using: &rng)
        #expect(Set(questions.map(\.word)) == ["行", "水"])
        let mandarinAnswers = Set((saved + extra).map(\.answer))
        for q in questions { #expect(q.options.allSatisfy { mandarinAnswers.contains($0) }, "\(q.options)") }
        await #expect(throws: QuizError.self) {
            try await builder(box, category: nil, level: nil, source: .items([], extraDistractors: [], label: "the library has no saved words"))
        }
    }

    @Test func lineReaderReadsPipedLinesAndTimesOut() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let reader = LineReader(fileDescriptor: fds[0])
        #expect(reader.nextLine(timeout: 0.05) == .timedOut, "nothing typed yet")
        let text = "2\r\nb\nlast"
        _ = text.withCString { write(fds[1], $0, strlen($0)) }
        close(fds[1])
        #expect(reader.nextLine(timeout: 5) == .line("2"))
        #expect(reader.nextLine(timeout: 5) == .line("b"))
        #expect(reader.nextLine(timeout: nil) == .line("last"))
        #expect(reader.nextLine(timeout: nil) == .endOfInput)
    }

    @Test func answerParsing() {
        #expect(AnswerChoice.parse(" 3 ", optionCount: 4) == .option(2))
        #expect(AnswerChoice.parse("D", optionCount: 4) == .option(3))
        #expect(AnswerChoice.parse("5", optionCount: 4) == nil)
        #expect(AnswerChoice.parse("e", optionCount: 4) == nil)
        #expect(AnswerChoice.parse("quit", optionCount: 4) == .quit)
    }
}

extension ClosedRange where Bound == UInt64 {
    func asyncMap<T>(_ body: (UInt64) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for i in self { out.append(try await body(i)) }
        return out
    }
}
