import App
import AppCore
import ArgumentParser
import CLICore
import Catalog
import Classes
import Foundation
import Learners

struct ClassCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "class",
        abstract: "Classes: an adult's children, the words set for them, and who needs help.",
        discussion: """
            A class belongs to an adult (--user; a teacher, or a parent: a family is a class too). \
            Children are added by first name and sign in to the web app on a shared device with \
            the class code, their name and a picture password (3 of 9 pictures, in order), shown \
            once when they are added or given new pictures. Words assigned to a class go into \
            every child's library.

            Examples:
              vocab class add "Year 3 Blue" --user lan
              vocab class list --user lan
              vocab class roster K7P2QX children.csv --user lan     (one first name a line)
              vocab class child K7P2QX An --user lan
              vocab class assign K7P2QX --category animals --level starters --user lan
              vocab class progress K7P2QX --user lan
              vocab class progress K7P2QX --csv --user lan > year3.csv
            """,
        subcommands: [
            ClassAddCommand.self, ClassListCommand.self, ClassShowCommand.self, ClassChildCommand.self, ClassRosterCommand.self,
            ClassAssignCommand.self, ClassProgressCommand.self,
        ],
        defaultSubcommand: ClassListCommand.self)
}

extension GlobalOptions {
    /// The class service and the adult named by --user, on the database `serve` uses.
    func withClasses<T>(_ learner: LearnerOption, _ body: (ClassService, Learner) async throws -> T) async throws -> T {
        try await withApp(database: learner.database.database) { app in
            try await body(try await app.classes(), try await app.learning().learner(named: learner.user))
        }
    }
}

/// The children just added, with their pictures: what the adult prints or writes down.
enum ChildCards {
    static func print(_ children: [NewChild], json: Bool) throws {
        if json { return try Output.json(children) }
        for child in children {
            let names = child.pictures.map { ClassRules.pictureNames[$0] }.joined(separator: ", ")
            Output.line("\(child.firstName)  \(child.pictureText)  (\(names))  class \(child.classCode)")
        }
        if !children.isEmpty { Output.line("Keep these pictures: they are shown only now ('vocab class child CODE NAME --new-pictures' makes new ones).") }
    }
}

struct ClassAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Make a class; prints its code.")
    @Argument(help: "The class's name, like \"Year 3 Blue\" or \"Family\".") var name: String
    @OptionGroup var learner: LearnerOption
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await options.withClasses(learner) { classes, adult in
            let made = try await classes.createClass(named: name, by: adult)
            if options.json { return try Output.json(made) }
            Output.line("Made \(made.name): class code \(made.code).")
        }
    }
}

struct ClassListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "The adult's classes.")
    @OptionGroup var learner: LearnerOption
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await options.withClasses(learner) { classes, adult in
            let all = try await classes.classes(of: adult)
            if options.json { return try Output.json(all) }
            if all.isEmpty { return Output.line("No classes yet: 'vocab class add NAME' makes one.") }
            for c in all { Output.line("\(c.code)  \(c.name)  \(c.children) children, \(c.assignments) assignments") }
        }
    }
}

struct ClassShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "A class: its children and assignments.")
    @Argument(help: "The class code.") var code: String
    @OptionGroup var learner: LearnerOption
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await options.withClasses(learner) { classes, adult in
            let details = try await classes.details(code, by: adult)
            if options.json { return try Output.json(details) }
            Output.line("\(details.name) (class code \(details.code))")
            Output.line("Children: " + (details.children.isEmpty ? "none yet" : details.children.map { "\($0.firstName) (\($0.id))" }.joined(separator: ", ")))
            // What the sign-in guard saw: a locked child waits for --unlock or --new-pictures.
            for child in details.children {
                guard let report = child.signIn, report.failedThisWeek > 0 || report.lockedUntil != nil else { continue }
                let lock = report.lockedUntil.map { _ in "; locked: 'vocab class child \(details.code) \"\(child.firstName)\" --unlock' lets them in" } ?? ""
                Output.line("\(child.firstName): \(report.failedToday) wrong picture tries today, \(report.failedThisWeek) this week\(lock)")
            }
            for a in details.assignments { Output.line("Assignment \(a.id.prefix(8)): \(a.title), \(a.entries.count) words") }
        }
    }
}

struct ClassChildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "child", abstract: "Add a child by first name, or give a child new pictures, let them in again, take them out or delete them.",
        discussion: "Without an option: adds the child and prints their picture password.")
    @Argument(help: "The class code.") var code: String
    @Argument(help: "The child's first name.") var name: String
    @Flag(name: .long, help: "Give the child a new picture password (the old one and their sessions stop working).") var newPictures = false
    @Flag(name: .long, help: "Let a child locked out by wrong pictures sign in again with the pictures they have.") var unlock = false
    @Flag(name: .long, help: "Take the child out of this class (their words and history stay; their sessions end).") var remove = false
    @Flag(name: .long, help: "Delete the child with all their data.") var erase = false
    @OptionGroup var learner: LearnerOption
    @OptionGroup var options: GlobalOptions

    func validate() throws {
        guard [newPictures, unlock, remove, erase].filter({ $0 }).count <= 1 else {
            throw ValidationError("Give at most one of --new-pictures, --unlock, --remove or --erase.")
        }
    }

    func run() async throws {
        try await options.withClasses(learner) { classes, adult in
            guard newPictures || unlock || remove || erase else {
                return try ChildCards.print([try await classes.addChild(named: name, to: code, by: adult)], json: options.json)
            }
            let details = try await classes.details(code, by: adult)
            guard let child = details.children.first(where: { $0.firstName.lowercased() == name.trimmingCharacters(in: .whitespaces).lowercased() }) else {
                throw Failure(.unknownChild, "there is no child called \(Failure.quote(name)) in \(details.name).")
            }
            if newPictures { return try ChildCards.print([try await classes.resetPictures(of: child.id, in: code, by: adult)], json: options.json) }
            if unlock {
                let unlocked = try await classes.unlock(child.id, in: code, by: adult)
                if options.json { return try Output.json(unlocked) }
                return Output.line("\(child.firstName) can sign in again with their pictures.")
            }
            if remove { try await classes.removeChild(child.id, from: code, by: adult) } else { try await classes.deleteChild(child.id, in: code, by: adult) }
            if !options.json { Output.line(remove ? "\(child.firstName) is no longer in \(details.name)." : "Deleted \(child.firstName) and all their data.") }
        }
    }
}

struct ClassRosterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "roster", abstract: "Add children from a CSV file: one first name a line (a header 'name' is skipped).",
        discussion: "The whole file is checked first: a bad line adds nobody. Prints each child's pictures.")
    @Argument(help: "The class code.") var code: String
    @Argument(help: "The CSV file.", completion: .file()) var file: String
    @OptionGroup var learner: LearnerOption
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        guard let data = FileManager.default.contents(atPath: file), data.count <= 64 << 10, let text = String(data: data, encoding: .utf8) else {
            throw Failure(.missingFile, "cannot read \(Failure.quote(file)) as a UTF-8 file of at most 64 KiB.")
        }
        try await options.withClasses(learner) { classes, adult in
            try ChildCards.print(try await classes.importChildren(csv: text, to: code, by: adult), json: options.json)
        }
    }
}

struct ClassAssignCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assign", abstract: "Set words for a class: a category (at a level) or words; they go into every child's library.")
    @Argument(help: "The class code.") var code: String
    @Option(name: .long, help: "A category id or name.") var category: String?
    @Option(name: .long, help: "Only words of this level.") var level: LevelOption?
    @Option(name: .long, help: ArgumentHelp("Words, separated by commas.", valueName: "words")) var words: String?
    @Option(name: .long, help: ArgumentHelp("Due date, YYYY-MM-DD.", valueName: "date")) var due: String?
    @OptionGroup var learner: LearnerOption
    @OptionGroup var options: GlobalOptions

    func validate() throws {
        guard (category == nil) != (words == nil) else { throw ValidationError("Give --category or --words.") }
    }

    func run() async throws {
        let list = words.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } } ?? []
        let dueAt = try due.map { text in Double(try checked { () throws(Failure) in try CalendarDay(parsing: text) }.daysSinceEpoch) * 86_400 }
        try await options.withClasses(learner) { classes, adult in
            let made = try await classes.assign(to: code, category: category, level: level?.level, words: list, dueAt: dueAt, by: adult)
            if options.json { return try Output.json(made) }
            Output.line("Assigned \(made.title): \(made.entries.count) words, now in every child's library.")
        }
    }
}

struct ClassProgressCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "progress", abstract: "Each child's practice, the words the class gets wrong, who finished each assignment.")
    @Argument(help: "The class code.") var code: String
    @Flag(name: .long, help: "The class table as CSV, for a spreadsheet.") var csv = false
    @OptionGroup var learner: LearnerOption
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await options.withClasses(learner) { classes, adult in
            let report = try await classes.progress(of: code, by: adult)
            if csv { return Output.write(report.csv) }
            if options.json { return try Output.json(report) }
            Output.line("\(report.name) (\(report.code))")
            func cell(_ text: String, _ width: Int) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
            Output.line(
                cell("name", 16) + cell("days", 6) + cell("learned", 9) + cell("said well", 11) + cell("words", 7) + cell("answers", 9) + "right")
            for c in report.children {
                let right = c.accuracy.map { "\(Int(($0 * 100).rounded()))%" } ?? "-"
                Output.line(
                    cell(c.firstName, 16) + cell(String(c.daysPractised), 6) + cell(String(c.wordsLearned), 9)
                        + cell(String(c.wordsSaidWell), 11) + cell(String(c.words), 7) + cell(String(c.answers), 9) + right)
            }
            if !report.hardWords.isEmpty {
                Output.line("Hardest words: " + report.hardWords.map { "\($0.word) (\($0.again) wrong, \($0.children) children)" }.joined(separator: ", "))
            }
            for a in report.assignments { Output.line("\(a.title): \(a.finished.count) of \(a.children) finished") }
        }
    }
}
