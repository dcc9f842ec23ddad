import App
import AppCore
import ArgumentParser
import CLICore
import Foundation

public struct Vocab: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "vocab",
        abstract: "Cambridge Young Learners vocabulary with audio, and more dictionaries.",
        discussion: """
            Start with 'vocab categories', then 'vocab words <category> --level starters'. \
            Every command takes --json for scripts; 'vocab help <command>' explains one.
            """ + "\n\n" + Failure.exitCodes,
        version: "0.1.0",
        groupedSubcommands: [
            CommandGroup(
                name: "Catalog",
                subcommands: [
                    CategoriesCommand.self, WordsCommand.self, ShowCommand.self, SearchCommand.self,
                    IndexCommand.self, ValidateCommand.self, StatsCommand.self,
                ]),
            CommandGroup(name: "Audio", subcommands: [SayCommand.self, ListenCommand.self, RenderCommand.self, AudioCommand.self, RenderWorkerCommand.self]),
            CommandGroup(name: "Mandarin", subcommands: [ImportCommand.self, LookupCommand.self, StrokesCommand.self, RadicalCommand.self]),
            CommandGroup(
                name: "Learning",
                subcommands: [
                    LibraryCommand.self, ReviewCommand.self, ProgressCommand.self, ExportCommand.self, QuizCommand.self,
                    DefineCommand.self, RandomCommand.self, UsersCommand.self, ClassCommand.self,
                ]),
            CommandGroup(name: "Server", subcommands: [ServeCommand.self, DatabaseCommand.self, BackupCommand.self, RestoreCommand.self]),
        ])

    public init() {}

    /// Runs the command line: a failure vocab knows is printed after "vocab: " and ends the
    /// process with its kind's exit code; argument-parser's own errors keep their wording and
    /// code. Either way no control character typed by the user reaches the terminal as itself.
    public static func runMain() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if let failure = FailureClassifier.known(error) {
                Output.error("vocab: " + Failure.escapingControls(failure.description))
                Foundation.exit(failure.exitCode)
            }
            let code = exitCode(for: error)
            // Help and --version are ours, printed as they are, on standard output.
            guard code != .success else { exit(withError: error) }
            let message = fullMessage(for: error)
            if !message.isEmpty { Output.error(Failure.escapingControls(message)) }
            Foundation.exit(code.rawValue)
        }
    }
}
