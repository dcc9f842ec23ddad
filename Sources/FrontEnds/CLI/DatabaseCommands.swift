import App
import AppCore
import ArgumentParser
import CLICore
import Catalog
import Foundation
import Learners

struct DatabaseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db",
        abstract: "Set up the PostgreSQL database that several 'vocab serve' instances share.",
        discussion: """
            SQLite stays the embedded default; PostgreSQL is for running 'vocab serve' as more \
            than one instance. Name the database with --database, $VOCAB_DATABASE_URL or \
            "databaseURL" in config.json (postgres://user[:password]@host[:port]/database; \
            ?sslmode=disable|prefer|require). Every command first applies the schema steps \
            the database lacks, as 'vocab serve --database' does at start.

            Examples:
              vocab db migrate --database postgres://vocab@127.0.0.1:5432/vocab
              vocab db push --database postgres://vocab@127.0.0.1:5432/vocab
              vocab db copy-users --database postgres://vocab@127.0.0.1:5432/vocab
              VOCAB_DATABASE_URL=postgres://vocab@db:5432/vocab vocab serve
            """,
        subcommands: [DatabaseMigrateCommand.self, DatabasePushCommand.self, DatabaseCopyUsersCommand.self])
}

/// `--database`, resolved against $VOCAB_DATABASE_URL and config.json by the composition root's rule.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The PostgreSQL database (postgres://user@host:port/name).", valueName: "url"))
    var database: String?

    /// The engine the rule chooses, `--database` first.
    func choice(_ options: GlobalOptions) throws -> DatabaseChoice {
        try VocabApp.databaseChoice(flag: database, environment: options.environment)
    }

    /// Opens the database with its schema up to date; runs `body`, then closes the pool.
    func withDatabase<T>(_ options: GlobalOptions, _ body: (VocabApp, ServerDatabase, [String]) async throws -> T) async throws -> T {
        let app = try options.app(database: try choice(options))
        guard let server = app.postgres else {
            throw Failure(
                .noDatabase, "no database named: use --database postgres://user@host:port/name, $\(DatabaseChoice.variable) or \"databaseURL\" in config.json.")
        }
        return try await server.whileRunning { applied in try await body(app, server, applied) }
    }
}

struct DatabaseMigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate", abstract: "Apply the schema steps the database lacks and show its versions.",
        discussion:
            "Steps are numbered per part (documents, learners, moe) and recorded in schema_migrations; instances starting together wait for one another.")
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await database.withDatabase(options) { _, server, applied in
            let versions = try await server.schemaVersions()
            if options.json {
                struct Version: Encodable {
                    let component: String
                    let version: Int
                    let latest: Int
                }
                struct Report: Encodable {
                    let applied: [String]
                    let versions: [Version]
                }
                try Output.json(Report(applied: applied, versions: versions.map { Version(component: $0.component, version: $0.version, latest: $0.latest) }))
                return
            }
            for step in applied { Output.line("applied \(step)") }
            let summary = versions.map { "\($0.component) \($0.version)" }.joined(separator: ", ")
            Output.line(applied.isEmpty ? "The schema is up to date (\(summary))." : "The schema is now at \(summary).")
        }
    }
}

struct DatabasePushCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push", abstract: "Load the catalog and the imported Mandarin dictionary into the database.",
        discussion: """
            Replaces the database's catalog (the category files) in one transaction, then its \
            Mandarin dictionary (moe.sqlite, from 'vocab import moe') in another; without an import \
            the dictionary is left as it is, with a note. Instances serving the database keep \
            answering from the old catalog or dictionary until the new one commits, then drop \
            their cached answers. Progress goes to standard error.

            Examples:
              vocab import moe dict-revised.json
              vocab db push --database postgres://vocab@127.0.0.1:5432/vocab
              vocab db push --json
            """)
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await database.withDatabase(options) { app, server, _ in
            let (store, status) = try await app.catalogFiles()
            if let notice = status.notice { Output.error("vocab: " + notice) }
            let (categories, words) = try await server.push(catalogFrom: store)
            let started = ContinuousClock.now
            let moe = try await server.push(mandarinFrom: app.environment.home.moeDatabase) { Output.error($0) }
            let elapsed = ContinuousClock.now - started
            let seconds = ((Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) * 100).rounded() / 100
            if options.json {
                struct Dictionary: Encodable {
                    let entries: Int
                    let heteronyms: Int
                    let definitions: Int
                    let seconds: Double
                }
                struct Report: Encodable {
                    let categories: Int
                    let words: Int
                    let moe: Dictionary?
                }
                try Output.json(
                    Report(
                        categories: categories, words: words,
                        moe: moe.map {
                            Dictionary(entries: $0.entries, heteronyms: $0.heteronyms, definitions: $0.definitions, seconds: seconds)
                        }))
                return
            }
            Output.line("Pushed \(words) words in \(categories) categories to \(server.database.displayURL).")
            if let moe {
                Output.line(
                    "Pushed the Mandarin dictionary: \(moe.entries) entries, \(moe.heteronyms) readings, \(moe.definitions) definitions in \(String(format: "%.1f", seconds)) s."
                )
            } else {
                Output.error(
                    "note: no Mandarin dictionary is imported (\(app.environment.home.moeDatabase)), so none was pushed; 'vocab import moe PATH' imports one.")
            }
        }
    }
}

struct DatabaseCopyUsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy-users", abstract: "Copy the learners of user.sqlite into the database.",
        discussion: """
            Copies every learner with their API tokens (hashes), library, cards and review log, in \
            one transaction: a learner name the database has already stops the copy and nothing is \
            written. The file is only read.
            """)
    @Option(name: .long, help: ArgumentHelp("The embedded learner file to copy (default: user.sqlite in the home folder).", valueName: "path"))
    var from: String?
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let path = from ?? options.environment.home.userDatabase
        guard FileManager.default.fileExists(atPath: path) else {
            throw Failure(.missingFile, "there is no learner file at \(Failure.quote(path)).")
        }
        let snapshot = try await SQLiteLearnerStore(path: path).snapshot()
        try await database.withDatabase(options) { _, server, _ in
            try await server.learners.copy(snapshot)
            let n = snapshot.counts
            if options.json {
                struct Report: Encodable {
                    let learners: Int
                    let tokens: Int
                    let items: Int
                    let reviews: Int
                }
                try Output.json(Report(learners: n.learners, tokens: n.tokens, items: n.items, reviews: n.reviews))
                return
            }
            Output.line(
                "Copied \(n.learners) learner(s), \(n.tokens) token(s), \(n.items) item(s) and \(n.reviews) review(s) to \(server.database.displayURL).")
        }
    }
}
