import App
import AppCore
import ArgumentParser
import CLICore

struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy every learner's data to a file: accounts, libraries, cards, ratings, classes.",
        discussion: """
            On the embedded files the backup is a consistent copy of user.sqlite, made while the \
            server runs; on PostgreSQL it is pg_dump's custom format of the database (the \
            postgresql-client tools). The file replaces FILE only once it is complete and checked.

            Examples:
              vocab backup --out /var/backups/vocab-$(date +%F).sqlite
              vocab backup --out vocab.dump --database postgres://vocab@127.0.0.1:5432/vocab
            """)
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Where to write the backup (- for standard output; a device or FIFO is written into, a link followed).", valueName: "file"),
        completion: .file()) var out: String
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let summary = try await options.app(database: try database.choice(options)).backup.backup(to: out)
        // `--out -`: the backup goes to standard output, the report to standard error.
        if options.json { return try Output.json(summary, toStandardError: out == "-") }
        Output.line(BackupText.describe(summary, verb: "Backed up"), toStandardError: out == "-")
    }
}

struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Put a backup back, replacing every learner's data (stop the server first).",
        discussion: """
            The file is checked before anything is touched; the data is replaced in one step (a \
            rename of user.sqlite, or one transaction on PostgreSQL), so a failed restore leaves \
            what was there. Learners there now are replaced only with --force.

            Examples:
              vocab restore /var/backups/vocab-2026-11-27.sqlite
              vocab restore vocab.dump --database postgres://vocab@127.0.0.1:5432/vocab --force
            """)
    @Argument(help: "The backup to put back.", completion: .file()) var file: String
    @Flag(name: .long, help: "Replace the learners there now.") var force = false
    @OptionGroup var database: DatabaseOptions
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let summary = try await options.app(database: try database.choice(options)).backup.restore(from: file, force: force)
        if options.json { return try Output.json(summary) }
        Output.line(BackupText.describe(summary, verb: "Restored"))
    }
}

enum BackupText {
    static func describe(_ s: Backup.Summary, verb: String) -> String {
        let counts = s.learners >= 0 ? ": \(s.learners) learner(s), \(s.reviews) rating(s)" : ""
        return "\(verb) \(s.file) (\(s.engine), \(s.bytes) bytes)\(counts)."
    }
}
