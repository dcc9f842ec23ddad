import App
import AppCore
import ArgumentParser
import CLICore
import Catalog
import Foundation
import Learners

/// Which learner a learning command acts for, and where learners are kept.
struct LearnerOption: ParsableArguments, Sendable {
    @Option(name: .long, help: ArgumentHelp("Act for this learner (see 'vocab users list'); default: your own, \"me\".", valueName: "name"))
    var user: String?

    @OptionGroup var database: DatabaseOptions
}

extension GlobalOptions {
    /// The running system for one command, on the database the one rule chooses (`flag`, then
    /// $VOCAB_DATABASE_URL, then config.json, else the embedded files), as `vocab serve` finds it.
    func withApp<T>(database flag: String?, _ body: (VocabApp) async throws -> T) async throws -> T {
        try await app(database: try VocabApp.databaseChoice(flag: flag, environment: environment)).run(body)
    }

    /// The learning service of that system and the learner named.
    func withLearning<T>(_ learner: LearnerOption, _ body: (LearningService, Learner) async throws -> T) async throws -> T {
        try await withLearning(learner) { _, learning, learner in try await body(learning, learner) }
    }

    /// The same with the system itself, for a learning command that also plays or exports clips.
    func withLearning<T>(_ learner: LearnerOption, _ body: (VocabApp, LearningService, Learner) async throws -> T) async throws -> T {
        try await withApp(database: learner.database.database) { app in
            let learning = try await app.learning()
            return try await body(app, learning, try await learning.learner(named: learner.user))
        }
    }
}

extension Output {
    /// A local, minute-precision time for an epoch time.
    static func dateText(epoch: Double) -> String { dateText(Date(timeIntervalSince1970: epoch)) }

    /// "in 10 min", "in 3 h", "in 4 days", "now".
    static func until(_ time: Double, from now: Double = Date().timeIntervalSince1970) -> String {
        let s = Int(time - now)
        switch s {
        case ..<1: return "now"
        case ..<60: return "in under a minute"
        case ..<3600: return "in \(s / 60) min"
        case ..<86_400: return "in \(s / 3600) h"
        default:
            let days = Int((Double(s) / 86_400).rounded())
            return "in \(days) day\(days == 1 ? "" : "s")"
        }
    }

    /// One line for a saved item: its word and where it is from.
    static func itemLabel(_ item: SavedItem) -> String {
        switch item.key.source {
        case .catalog: return "\(item.word) (\(item.key.entry))"
        case .moe: return "\(item.word) \(item.key.reading)"
        case .dictionary, .text: return "\(item.word) (dictionary)"
        }
    }
}
