import CLICore
import Foundation
import TestSupport
import Testing

/// docs/design.md describes the tree; these hold it to the tree, so the page cannot drift from
/// the code it maps.
@Suite("docs/design.md matches the tree it describes")
struct DesignTests {
    static let page = (try? String(contentsOfFile: Repository.root + "/docs/design.md", encoding: .utf8)) ?? ""
    /// The page's map of Sources/, its first fenced block.
    static var map: String { page.components(separatedBy: "```").dropFirst().first ?? "" }

    static func folders(_ path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path + "/" + name, isDirectory: &isDirectory) && isDirectory.boolValue
        }.sorted()
    }

    /// Every module folder of Sources/, as "Layer/Module" (Learning/ holds modules of its own).
    static func modules() throws -> [(layer: String, name: String)] {
        let sources = Repository.root + "/Sources"
        var modules: [(String, String)] = []
        for layer in try folders(sources) {
            for name in try folders(sources + "/" + layer) {
                if layer == "Domains", name == "Learning" {
                    modules += try folders(sources + "/Domains/Learning").map { (layer, $0) }
                } else {
                    modules.append((layer, name))
                }
            }
        }
        return modules
    }

    @Test("the map of Sources/ names every module")
    func mapNamesEveryModule() throws {
        let words = Set(Self.map.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-") }).map(String.init))
        let modules = try Self.modules()
        #expect(modules.count > 30)
        let unnamed = modules.filter { !words.contains($0.name) }.map { "\($0.layer)/\($0.name)" }
        #expect(unnamed.isEmpty, "docs/design.md's map does not name \(unnamed)")
    }

    @Test("the launcher's line names exactly the commands the launcher answers")
    func launcherCommands() throws {
        let line = try #require(Self.map.split(separator: "\n").first { $0.contains("vocab ") && $0.contains("launcher") })
        let named = Set(line.matches(of: /`([a-z]+)`/).map { String($0.1) })
        #expect(named == Set(FastPath.grammars.keys), "the map says \(named.sorted()); FastPath answers \(FastPath.grammars.keys.sorted())")
    }

    @Test("every test folder is named after a module of its layer, or is named on the page as testing one")
    func testFoldersMirrorSources() throws {
        let modules = try Self.modules()
        let tests = Repository.root + "/Tests"
        var strays: [String] = []
        for layer in try Self.folders(tests) where layer != "Support" {
            for folder in try Self.folders(tests + "/" + layer) {
                let module = String(folder.dropLast("Tests".count))
                let mirrors = modules.contains { $0.layer == layer && $0.name == module }
                // A folder that tests another module says which on the page ("`HTTPTests` tests HTTPAPI").
                let explained = Self.page.contains("`\(folder)` tests") || Self.page.contains("`\(folder)` the")
                if !folder.hasSuffix("Tests") || !(mirrors || explained) { strays.append("\(layer)/\(folder)") }
            }
        }
        #expect(strays.isEmpty, "test folders that mirror no module of their layer: \(strays)")
    }
}
