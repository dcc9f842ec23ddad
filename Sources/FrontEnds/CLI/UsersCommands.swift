import App
import AppCore
import ArgumentParser
import CLICore
import Foundation
import Learners

struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Learners and their API tokens, for 'vocab serve' and --user.",
        discussion: """
            Every learner has their own library, cards and review log. The command line acts for \
            the learner "me" unless --user names another. An app signs in to 'vocab serve' with a \
            learner's API token (Authorization: Bearer TOKEN); a token is printed once when it is \
            made, and only its SHA-256 is kept.

            Examples:
              vocab users add anna
              vocab users list
              vocab users token anna
              vocab users revoke anna
              vocab users settings anna --time-zone Asia/Ho_Chi_Minh --day-starts-at 4
              vocab users passwd anna              (asks twice, without echo)
              printf '%s\\n' "$PASSWORD" | vocab users passwd anna
              printf '%s\\n' "$PASSWORD" | vocab users passwd ben --database postgres://vocab@127.0.0.1:5432/vocab
              vocab users add ben --database postgres://vocab@127.0.0.1:5432/vocab   (the shared database of 'vocab serve --database')
            """,
        subcommands: [
            UsersAddCommand.self, UsersListCommand.self, UsersTokenCommand.self, UsersRevokeCommand.self, UsersPasswdCommand.self, UsersSettingsCommand.self,
        ],
        defaultSubcommand: UsersListCommand.self)
}

extension GlobalOptions {
    /// The learning service where `vocab serve` finds learners: a learner added here is one
    /// `serve` can sign in.
    func withLearningService<T>(_ database: DatabaseOptions, _ body: (LearningService) async throws -> T) async throws -> T {
        try await withApp(database: database.database) { app in try await body(try await app.learning()) }
    }
}

struct UsersAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a learner and print their first API token (shown once).",
        discussion: "Names are 1-40 letters, digits, spaces, '-', '_' or '.', compared without case.")

    @Argument(help: "The learner's name.") var name: String
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await options.withLearningService(database) { service in
            let (learner, token) = try await service.addLearner(named: name)
            if options.json {
                struct Report: Encodable {
                    let name: String
                    let id: Int64
                    let token: String
                }
                try Output.json(Report(name: learner.name, id: learner.id, token: token))
                return
            }
            Output.line("Added \(learner.name). API token (shown once; keep it safe):")
            Output.line(token)
        }
    }
}

struct UsersListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the learners with their library sizes.")
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await options.withLearningService(database) { service in
            struct Row: Encodable {
                let name: String
                let id: Int64
                let createdAt: Double
                let items: Int
                let settings: LearnerSettings
            }
            var rows: [Row] = []
            for learner in try await service.store.learners() {
                rows.append(
                    Row(
                        name: learner.name, id: learner.id, createdAt: learner.createdAt,
                        items: try await service.store.items(of: learner.id).count, settings: learner.settings))
            }
            if options.json {
                try Output.json(rows)
                return
            }
            if rows.isEmpty {
                Output.line("No learners yet. Add one with 'vocab users add NAME'.")
                return
            }
            let width = (rows.map { Output.displayWidth($0.name) }.max() ?? 4) + 2
            for r in rows {
                Output.line(
                    "\(Output.pad(r.name, width))\(Output.pad("\(r.items) item\(r.items == 1 ? "" : "s")", 12))since \(Output.dateText(epoch: r.createdAt))")
            }
        }
    }
}

struct UsersTokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Make another API token for a learner (printed once); earlier tokens keep working.")
    @Argument(help: "The learner's name.") var name: String
    @Option(name: .long, help: "A note to tell tokens apart (e.g. the device).") var label = ""
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await options.withLearningService(database) { service in
            let learner = try await service.learner(named: name)
            let token = try await service.issueToken(for: learner, label: label)
            if options.json {
                struct Report: Encodable {
                    let name: String
                    let token: String
                }
                try Output.json(Report(name: learner.name, token: token))
            } else {
                Output.line(token)
            }
        }
    }
}

struct UsersRevokeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke", abstract: "Revoke every API token of a learner; their data stays.")
    @Argument(help: "The learner's name.") var name: String
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await options.withLearningService(database) { service in
            let learner = try await service.learner(named: name)
            let count = try await service.store.revokeTokens(of: learner.id, at: Date().timeIntervalSince1970)
            if options.json {
                struct Report: Encodable {
                    let name: String
                    let revoked: Int
                }
                try Output.json(Report(name: learner.name, revoked: count))
            } else {
                Output.line("Revoked \(count) token\(count == 1 ? "" : "s") of \(learner.name).")
            }
        }
    }
}

struct UsersSettingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings", abstract: "Show a learner's settings, or change their time zone, the hour their day starts, their language.",
        discussion: """
            Review days follow Anki's rule: a day starts at a set hour (4 am unless changed) in the \
            learner's time zone (this machine's unless set), and a card due in n days is due from \
            the start of that day, so every card due tomorrow is there in the morning. The days \
            between two reviews that FSRS learns from are counted the same way.

            Examples:
              vocab users settings anna
              vocab users settings anna --time-zone Asia/Ho_Chi_Minh
              vocab users settings anna --day-starts-at 5 --json
              vocab users settings anna --card-sound off
            """)
    @Argument(help: "The learner's name.") var name: String
    @Option(name: .customLong("time-zone"), help: ArgumentHelp("An IANA time zone name, e.g. Asia/Ho_Chi_Minh or Europe/London.", valueName: "ZONE"))
    var timeZone: String?
    @Option(name: .customLong("day-starts-at"), help: ArgumentHelp("The hour (0-23) at which a day starts.", valueName: "HOUR"))
    var dayStartsAt: Int?
    @Option(help: ArgumentHelp("The web app's language: en or vi.", valueName: "CODE")) var language: String?
    @Option(
        name: .customLong("card-sound"),
        help: ArgumentHelp(
            "on: a review card says its word as it appears (the default, for children who cannot read yet); off: only when its answer is shown.",
            valueName: "on|off"))
    var cardSound: OnOff?
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await options.withLearningService(database) { service in
            var learner = try await service.learner(named: name)
            let change = SettingsChange(language: language, timeZone: timeZone, dayStartsAt: dayStartsAt, cardSound: cardSound.map { $0 == .on })
            if language != nil || timeZone != nil || dayStartsAt != nil || cardSound != nil {
                learner = try await service.updateSettings(change, for: learner)
            }
            let body = service.body(of: learner)
            if options.json { return try Output.json(body) }
            let day = body.day
            Output.line("\(learner.name): a day starts at \(day.startsAt):00 in \(day.timeZone)\(day.chosen ? "" : " (this machine's zone)").")
            Output.line(
                "New cards a day: \(learner.settings.newPerDay); retention aimed at: \(Int((learner.settings.desiredRetention * 100).rounded())) %; language: \(learner.settings.language ?? "not chosen"); cards say their word: \(learner.settings.cardSound == false ? "when the answer is shown" : "as they appear")."
            )
        }
    }
}

/// A switch a person types: on or off.
enum OnOff: String, ExpressibleByArgument, Sendable {
    case on, off
}

struct UsersPasswdCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passwd", abstract: "Set a learner's password for signing in to the web app ('vocab serve').",
        discussion: """
            At a terminal the password is asked for twice, without echo; otherwise the first line \
            of standard input is the password. Passwords need \(PasswordRules.minLength) characters or more \
            (at most \(PasswordRules.maxBytes) bytes). Only a bcrypt hash (cost \(PasswordRules.cost)) is kept. \
            Setting a password signs the learner out of every browser; API tokens keep working.
            """)
    @Argument(help: "The learner's name.") var name: String
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await options.withLearningService(database) { service in try await set(with: service) }
    }

    func set(with service: LearningService) async throws {
        let learner = try await service.learner(named: name)
        let password: String
        if isatty(STDIN_FILENO) == 1 {
            password = try Self.prompt("New password for \(learner.name): ")
            try PasswordRules.check(password)
            guard try Self.prompt("Again: ") == password else {
                throw Failure(.passwordMismatch, "the two passwords differ; nothing was changed.")
            }
        } else {
            guard let line = readLine(strippingNewline: true) else {
                throw Failure(.noPassword, "no password on standard input; nothing was changed.")
            }
            password = line
        }
        try await service.setPassword(password, for: learner)
        if options.json {
            struct Report: Encodable {
                let name: String
                let password: Bool
            }
            try Output.json(Report(name: learner.name, password: true))
        } else {
            Output.line("Set the password of \(learner.name).")
        }
    }

    /// Reads a line from the terminal with echo off, restoring the terminal whatever happens.
    static func prompt(_ text: String) throws -> String {
        FileHandle.standardError.write(Data(text.utf8))
        var saved = termios()
        let hasTerminal = tcgetattr(STDIN_FILENO, &saved) == 0
        if hasTerminal {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        }
        defer {
            if hasTerminal { tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved) }
            FileHandle.standardError.write(Data("\n".utf8))
        }
        guard let line = readLine(strippingNewline: true) else {
            throw Failure(.noPassword, "no password given; nothing was changed.")
        }
        return line
    }
}
