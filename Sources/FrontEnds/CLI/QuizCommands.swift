import App
import AppCore
import ArgumentParser
import CLICore
import Catalog
import Foundation
import Learners
import Quiz
import SeededRandom

struct QuizCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quiz",
        abstract: "A timed multiple-choice quiz: pick the meaning of each word.",
        discussion: """
            Each question shows a word and four meanings: Vietnamese translations (--answers \
            vi) or English definitions (--answers en). Wrong options come from the same \
            category and level. Answer with 1-4 or a-d and Enter; q stops. The --time \
            countdown is for the whole quiz and is shown with each question; when it runs \
            out the quiz ends. Results are saved in user.sqlite; --history lists them.

            Answers can be piped, one per line; the end of input ends the quiz. With --json \
            the questions go to standard error and the result, as JSON, to standard output.

            Examples:
              vocab quiz --category animals --level starters
              vocab quiz --from library --answers en --questions 5 --time 60
              printf '1\\n3\\nb\\n' | vocab quiz --category colours --questions 3 --seed 7
              vocab quiz --history
            """)

    enum From: String, ExpressibleByArgument, CaseIterable, Sendable { case catalog, library }
    enum Answers: String, ExpressibleByArgument, CaseIterable, Sendable { case vi, en, reading }

    @Option(name: .long, help: "Ask words from the whole catalog or from your library.")
    var from: From = .catalog

    @Option(name: .long, help: "Only words of this category (id or English name).")
    var category: String?

    @Option(name: .long, help: "Only words of this level (starters, movers, flyers).")
    var level: LevelOption?

    @Option(name: .long, parsing: .unconditional, help: "How many questions (1-100).")
    var questions: Int = 10

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Seconds for the whole quiz; 0 for no limit.", valueName: "seconds"))
    var time: Int = 60

    @Option(name: .long, help: "Answers to choose from: vi (Vietnamese), en (English definitions), or reading (pinyin of saved Mandarin words).")
    var answers: Answers = .vi

    @Option(name: .long, help: "Same seed, same questions in the same order.")
    var seed: UInt64?

    @Flag(name: .long, help: "Show past quiz results instead of starting a quiz.")
    var history = false

    @Option(name: .long, parsing: .unconditional, help: "With --history: at most this many results (1-1000).")
    var limit: Int = 20

    @OptionGroup var learner: LearnerOption
    @OptionGroup var options: GlobalOptions

    func validate() throws {
        _ = try checked { () throws(Failure) in try InputRules.bounded(questions, name: "--questions", range: 1...100) }
        _ = try checked { () throws(Failure) in try InputRules.bounded(time, name: "--time", range: 0...86_400) }
        _ = try checked { () throws(Failure) in try InputRules.bounded(limit, name: "--limit", range: 1...1000) }
    }

    func run() async throws {
        // Only a quiz from the library needs the learners, wherever the rule keeps them.
        let database = from == .library ? try VocabApp.databaseChoice(flag: learner.database.database, environment: options.environment) : .embedded
        try await options.app(database: database).run { app in try await quiz(in: app) }
    }

    private func quiz(in app: VocabApp) async throws {
        let results = QuizHistory(store: try app.documents())
        if history {
            try HistoryText.show(try await results.recent(limit: limit), json: options.json)
            return
        }
        let catalog = try await app.catalog()
        let language = AnswerLanguage(rawValue: answers.rawValue)!
        var source = QuizSource.catalog
        if from == .library {
            let learning = try await app.learning()
            let learner = try await learning.learner(named: self.learner.user)
            let (items, distractors) = try await learning.quizItems(of: learner, answers: language)
            source = QuizSource.items(
                items, extraDistractors: distractors,
                label: "\(learner.name == Learner.localName ? "your" : learner.name + "'s") library has no saved words")
        }
        let builder = try await QuizPlanner(catalog: catalog)
            .builder(source: source, category: category, level: level?.level, answers: language)
        // A short seed, so a quiz worth repeating can be asked for again by typing it.
        let seed = self.seed ?? UInt64.random(in: 1...999_999)
        var rng = SeededGenerator(seed: seed)
        let asked = try builder.questions(count: questions, using: &rng)

        let screen = QuizScreen(json: options.json, interactive: isatty(STDIN_FILENO) != 0)
        let scope: String? = from == .library ? "your library" : nil
        let title = [scope, category, level?.level.rawValue].compactMap { $0 }
        screen.say(
            "Quiz: \(asked.count) question\(asked.count == 1 ? "" : "s")"
                + (title.isEmpty ? " from the catalog" : " · " + title.joined(separator: " · "))
                + (time > 0 ? " · \(time) s" : "") + " · answer 1-4 or a-d, q to stop · seed \(seed)")
        let session = QuizSession(questions: asked, timeLimit: time > 0 ? TimeInterval(time) : nil, clock: SystemClock())
        let outcome = session.run(input: LineReader(), report: screen.show)

        var sourceName = from == .library ? "library" : "catalog"
        if let category, from == .catalog { sourceName = try await catalog.category(named: category).id }
        let result = QuizResult(
            outcome: outcome, source: sourceName, level: level?.level.rawValue, answers: language,
            timeLimit: time > 0 ? Double(time) : nil, seed: seed)
        try await results.save(result)
        screen.say("")
        screen.say("Score: \(result.correct)/\(result.total) (\(result.percent)%) · answered \(result.answered) · \(Int(result.seconds.rounded())) s")
        screen.say("Saved to your quiz history ('vocab quiz --history').")
        if options.json { try Output.datedJSON(result) }
    }
}

/// Renders quiz events: on stdout, or on stderr when stdout carries JSON.
struct QuizScreen {
    let json: Bool
    /// At a terminal the typed answer is already on screen; piped answers are echoed.
    let interactive: Bool

    func say(_ text: String) { json ? Output.error(text) : Output.line(text) }

    private func prompt() {
        let text = "> "
        let handle = json ? FileHandle.standardError : FileHandle.standardOutput
        handle.write(Data(text.utf8))
    }

    private func echo(_ text: String) { if !interactive { say(text) } }

    func show(_ event: QuizEvent) {
        switch event {
        case .question(let number, let total, let question, let remaining):
            say("")
            say("Question \(number) of \(total)" + (remaining.map { " · \(Int($0.rounded(.up))) s left" } ?? ""))
            say("  \(question.word)")
            for (i, option) in question.options.enumerated() { say("    \(i + 1)) \(option)") }
            prompt()
        case .invalidAnswer(let text, let count):
            echo(text)
            say("  Answer with 1-\(count) or a-\(Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(count - 1)))), or q to stop.")
            prompt()
        case .answered(let question, let chosen, let correct):
            echo("\(chosen + 1)")
            say(correct ? "  ✓ Correct!" : "  ✗ Not quite: \(question.word) is \(question.correctIndex + 1)) \(question.correctAnswer)")
        case .timeUp(let late):
            // The cursor is still after the prompt, unless the learner just pressed Enter.
            if !late || !interactive { say("") }
            say(late ? "⏰ Time's up: that answer came too late." : "⏰ Time's up!")
        case .stopped:
            say("")
            say("Quiz stopped.")
        }
    }
}

enum HistoryText {
    static func show(_ results: [QuizResult], json: Bool) throws {
        if json {
            try Output.datedJSON(results)
            return
        }
        if results.isEmpty {
            Output.line("No quizzes yet. Start one with 'vocab quiz'.")
            return
        }
        let labels = results.map { [$0.source, $0.level].compactMap { $0 }.joined(separator: " · ") }
        let width = max(10, min(28, labels.map { Output.displayWidth($0) }.max() ?? 0)) + 2
        Output.line("\(Output.pad("When", 18))\(Output.pad("Quiz", width))Score")
        for (r, label) in zip(results, labels) {
            let ending =
                switch r.ending {
                case .completed: ""
                case .timeUp: "  time up"
                case .stopped: "  stopped"
                }
            let score = Output.pad("\(r.correct)/\(r.total)", 7) + Output.pad("\(r.percent)%", 6)
            Output.line("\(Output.pad(Output.dateText(r.takenAt), 18))\(Output.pad(label, width))\(score)\(Int(r.seconds.rounded())) s\(ending)")
        }
    }
}
