import CLICore
import Foundation
import TestSupport
import Testing

/// The launcher's hand-written grammar (`FastPath`) against argument-parser's definitions of the
/// same commands: every option it reads exists there with the same arity, its positional count
/// fits, and its number ranges are the full program's (the bound passes, one beyond is refused).
@Suite("The launcher's grammar matches argument-parser's definitions")
struct FastPathGrammarTests {
    static let full = Repository.productsDirectory + "/vocab-full"
    /// Arguments that make each command's plain form, for the range checks.
    static let plain: [String: [String]] = [
        "words": ["animals"], "categories": [], "lookup": ["行"], "strokes": ["6"],
        "radical": ["水"], "search": ["--pinyin", "xing"], "say": ["cat"],
    ]

    struct Definition {
        var positional: (required: Int, all: Int) = (0, 0)
        var options: Set<String> = []
        var flags: Set<String> = []
    }

    static func definition(of command: String) throws -> Definition {
        let dump = try runProcess(full, [command, "--experimental-dump-help"])
        #expect(dump.status == 0, "\(dump.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any]
        var out = Definition()
        for argument in (object?["command"] as? [String: Any])?["arguments"] as? [[String: Any]] ?? [] {
            let names = (argument["names"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "long" }.compactMap { $0["name"] as? String }
            switch argument["kind"] as? String {
            case "positional":
                out.positional.all += 1
                if argument["isOptional"] as? Bool == false { out.positional.required += 1 }
            case "option": out.options.formUnion(names.map { "--" + $0 })
            case "flag": out.flags.formUnion(names.map { "--" + $0 })
            default: break
            }
        }
        return out
    }

    @Test("every option the launcher reads is one argument-parser defines, as a value or a flag alike, and the positional count fits")
    func optionsAndArities() throws {
        #expect(Set(FastPath.grammars.keys) == Set(Self.plain.keys))
        for (command, grammar) in FastPath.grammars {
            let defined = try Self.definition(of: command)
            let values = Set(grammar.values + FastPath.sharedValues)
            let flags = Set(grammar.flags + FastPath.sharedFlags)
            #expect(values.isSubset(of: defined.options), "\(command): \(values.subtracting(defined.options)) are not options there")
            #expect(flags.isSubset(of: defined.flags), "\(command): \(flags.subtracting(defined.flags)) are not flags there")
            #expect(
                (defined.positional.required...defined.positional.all).contains(grammar.positional),
                "\(command): \(grammar.positional) positional, argument-parser takes \(defined.positional)")
            #expect(Set(grammar.limits.map(\.option)).isSubset(of: grammar.values), "\(command): a limit on an option it does not read")
        }
    }

    @Test("each number range is the full program's: the bound passes its checks, one beyond is refused with 64")
    func limits() throws {
        let home = try TemporaryDirectory("fastpath-limits")
        defer { home.remove() }
        let env = ["VOCAB_HOME": home.path]
        for (command, grammar) in FastPath.grammars {
            for limit in grammar.limits {
                let (option, range) = (limit.option, limit.range)
                for (value, refused) in [(range.upperBound, false), (range.upperBound + 1, true), (range.lowerBound, false), (range.lowerBound - 1, true)] {
                    let run = try runProcess(Self.full, [command] + Self.plain[command]! + [option, String(value)], environment: env)
                    #expect((run.status == 64) == refused, "\(command) \(option) \(value): \(run.status) \(run.stderr)")
                }
            }
        }
    }
}
