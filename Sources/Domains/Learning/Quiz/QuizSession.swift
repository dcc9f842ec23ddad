import Foundation

/// How one asked question went.
public struct QuestionOutcome: Codable, Sendable, Hashable {
    public var word: String
    public var options: [String]
    /// 0-based index of the right option.
    public var answerIndex: Int
    /// 0-based index of the chosen option; nil when time ran out or input ended on this question.
    public var chosenIndex: Int?
    public var correct: Bool

    public var answer: String { options[answerIndex] }
}

public enum QuizEnding: String, Codable, Sendable {
    case completed
    case timeUp
    /// Standard input ended (or the learner typed q) before the last question.
    case stopped
}

public struct QuizOutcome: Sendable {
    public var questions: [QuestionOutcome]
    /// Questions planned; those never reached count as not answered.
    public var total: Int
    public var ending: QuizEnding
    public var startedAt: Date
    public var seconds: Double

    public var correct: Int { questions.filter(\.correct).count }
    public var answered: Int { questions.filter { $0.chosenIndex != nil }.count }
}

/// What the session reports as it goes; the command turns these into text.
public enum QuizEvent: Sendable {
    /// `remaining` is the whole quiz's time left, nil when untimed.
    case question(number: Int, total: Int, Question, remaining: TimeInterval?)
    case invalidAnswer(String, optionCount: Int)
    case answered(Question, chosenIndex: Int, correct: Bool)
    /// `late` when an answer arrived after the time was up (it does not count).
    case timeUp(late: Bool)
    case stopped
}

/// Runs a quiz: asks each question, reads answers, keeps the whole-quiz countdown.
public struct QuizSession: Sendable {
    let questions: [Question]
    let timeLimit: TimeInterval?
    let clock: any QuizClock

    /// `timeLimit` is for the whole quiz, in seconds; nil for no limit.
    public init(questions: [Question], timeLimit: TimeInterval?, clock: any QuizClock = SystemClock()) {
        self.questions = questions
        self.timeLimit = timeLimit
        self.clock = clock
    }

    public func run(input: any AnswerSource, report: (QuizEvent) -> Void) -> QuizOutcome {
        let start = clock.now()
        let deadline = timeLimit.map { start.addingTimeInterval($0) }
        func remaining() -> TimeInterval? { deadline.map { max(0, $0.timeIntervalSince(clock.now())) } }
        var outcomes: [QuestionOutcome] = []
        var ending = QuizEnding.completed

        asking: for (i, question) in questions.enumerated() {
            if let left = remaining(), left <= 0 {
                ending = .timeUp
                report(.timeUp(late: false))
                break
            }
            report(.question(number: i + 1, total: questions.count, question, remaining: remaining()))
            var outcome = QuestionOutcome(
                word: question.word, options: question.options, answerIndex: question.correctIndex,
                chosenIndex: nil, correct: false)
            while true {
                switch input.nextLine(timeout: remaining()) {
                case .timedOut:
                    outcomes.append(outcome)
                    ending = .timeUp
                    report(.timeUp(late: false))
                    break asking
                case .endOfInput:
                    outcomes.append(outcome)
                    ending = .stopped
                    report(.stopped)
                    break asking
                case .line(let text):
                    if let left = remaining(), left <= 0 {
                        outcomes.append(outcome)
                        ending = .timeUp
                        report(.timeUp(late: true))
                        break asking
                    }
                    switch AnswerChoice.parse(text, optionCount: question.options.count) {
                    case .quit:
                        outcomes.append(outcome)
                        ending = .stopped
                        report(.stopped)
                        break asking
                    case .option(let chosen):
                        outcome.chosenIndex = chosen
                        outcome.correct = chosen == question.correctIndex
                        outcomes.append(outcome)
                        report(.answered(question, chosenIndex: chosen, correct: outcome.correct))
                        continue asking
                    case nil:
                        // Blank lines are a stray Enter; anything else deserves a hint.
                        if !text.trimmingCharacters(in: .whitespaces).isEmpty {
                            report(.invalidAnswer(text, optionCount: question.options.count))
                        }
                    }
                }
            }
        }
        return QuizOutcome(
            questions: outcomes, total: questions.count, ending: ending, startedAt: start,
            seconds: clock.now().timeIntervalSince(start))
    }
}
