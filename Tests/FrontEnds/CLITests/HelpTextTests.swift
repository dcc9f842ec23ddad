import Foundation
import TestSupport
import Testing

/// What `--help` prints, for every command and subcommand, read from argument-parser's own dump
/// of the whole tree.
@Suite("Help texts")
struct HelpTextTests {
    /// Every command's texts: its abstract and discussion, and its arguments' help.
    static func texts() throws -> [(command: String, text: String)] {
        let dump = try runProcess(Repository.productsDirectory + "/vocab-full", ["--experimental-dump-help"])
        #expect(dump.status == 0, "\(dump.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        var found: [(String, String)] = []
        func walk(_ command: [String: Any], _ path: String) {
            for key in ["abstract", "discussion"] { if let text = command[key] as? String { found.append((path, text)) } }
            for argument in command["arguments"] as? [[String: Any]] ?? [] {
                for key in ["abstract", "discussion"] { if let text = argument[key] as? String { found.append((path, text)) } }
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                walk(sub, path + " " + (sub["commandName"] as? String ?? "?"))
            }
        }
        walk(try #require(root["command"] as? [String: Any]), "vocab")
        return found
    }

    @Test("no line of any help ends in a backslash: a wrapped sentence reads as one (a doubled backslash in the source printed one)")
    func noStrayBackslashes() throws {
        let texts = try Self.texts()
        #expect(texts.contains { $0.command == "vocab serve" }, "the dump reaches the subcommands")
        for (command, text) in texts {
            let stray = text.split(separator: "\n").filter { $0.hasSuffix("\\") }
            #expect(stray.isEmpty, "\(command): \(stray)")
        }
    }
}
