import ArgumentParser
import Catalog
import CLICore
import Foundation
import Mandarin

public struct Vocab: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "vocab",
        abstract: "Cambridge Young Learners vocabulary with audio, and more dictionaries.",
        discussion: """
            Start with 'vocab categories', then 'vocab words <category> --level starters'. \
            Every command takes --json for scripts; 'vocab help <command>' explains one.

            Exit codes: 0 ok, 1 not found (unknown category or word), 64 bad usage \
            (bad option or level), 65 invalid data, 66 missing input, 74 I/O error.
            """,
        version: "0.1.0",
        subcommands: [
            CategoriesCommand.self, WordsCommand.self, ShowCommand.self, SearchCommand.self,
            IndexCommand.self, ValidateCommand.self, StatsCommand.self,
            SayCommand.self, RenderCommand.self, RenderWorkerCommand.self,
            ImportCommand.self, LookupCommand.self, StrokesCommand.self, RadicalCommand.self,
            DefineCommand.self, RandomCommand.self, LibraryCommand.self, QuizCommand.self, ServeCommand.self,
        ])

    public init() {}

    /// Runs the command line, turning known failures into a message and a meaningful exit code.
    public static func runMain() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if let (message, code) = describe(error) {
                Output.error("vocab: \(message)")
                Foundation.exit(code)
            }
            exit(withError: error)
        }
    }

    static func describe(_ error: Error) -> (String, Int32)? {
        switch error {
        case let e as CatalogError:
            switch e {
            case .badLevel: return (e.description, 64)
            case .unknownCategory, .unknownWord: return (e.description, 1)
            case .invalidData: return (e.description + "\nRun 'vocab validate' for the full list.", 65)
            case .missingCategories: return (e.description, 66)
            }
        case let e as MOEError:
            switch e {
            case .unknownTitle: return (e.description, 1)
            case .invalidJSON, .unexpectedShape, .incompatibleDatabase: return (e.description, 65)
            case .sourceMissing, .notImported: return (e.description, 66)
            case .unreadableSource, .writeFailed: return (e.description, 74)
            }
        case let e as CommandFailure: return (e.description, e.exitCode)
        case let e as CocoaError where e.code == .fileReadNoSuchFile || e.code == .fileNoSuchFile:
            return (e.localizedDescription, 66)
        default: return describeLearning(error)
        }
    }
}
