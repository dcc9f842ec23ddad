import Foundation
import TestSupport
import Testing

/// The scripts and the browser tests start servers and choose ports one way each, in scripts/lib:
/// a copy elsewhere would drift from how the tests start theirs.
@Suite("the scripts share one server helper and one port helper")
struct ScriptHelpersTests {
    /// The Python files of scripts/ and Tests/Browser/ (a script without an extension is Python
    /// when its first line says so), with their text.
    static func pythonFiles() throws -> [(path: String, text: String)] {
        var found: [(String, String)] = []
        for folder in ["scripts", "scripts/lib", "Tests/Browser"] {
            let path = Repository.root + "/" + folder
            for name in try FileManager.default.contentsOfDirectory(atPath: path).sorted() {
                let file = path + "/" + name
                guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
                if name.hasSuffix(".py") || text.hasPrefix("#!/usr/bin/env python3") || text.hasPrefix("#!/usr/bin/python3") {
                    found.append((folder + "/" + name, text))
                }
            }
        }
        return found
    }

    @Test("only scripts/lib/servers.py starts `vocab serve` from Python")
    func oneServerStarter() throws {
        let files = try Self.pythonFiles()
        #expect(files.count >= 8, "the scripts were found: \(files.map(\.path))")
        let starters = files.filter { $0.text.contains(#""serve", "--"#) }.map(\.path)
        #expect(starters == ["scripts/lib/servers.py"], "\(starters)")
        let users = files.filter { $0.text.contains("from servers import VocabServer") }.map(\.path)
        #expect(Set(["scripts/refresh-readme", "Tests/Browser/webapp.py"]).isSubset(of: Set(users)), "\(users)")
    }

    @Test("only scripts/lib/ports.py asks the kernel for a free port")
    func onePortChooser() throws {
        let choosers = try Self.pythonFiles().filter { $0.text.contains(#"bind(("127.0.0.1", 0))"#) }.map(\.path)
        #expect(choosers == ["scripts/lib/ports.py"], "\(choosers)")
    }
}
