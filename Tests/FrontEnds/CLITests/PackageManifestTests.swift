import Foundation
import TestSupport
import Testing

/// Package.swift declares what each target imports, no more and no less: a module used without
/// being declared builds only while something else happens to pull it in, and one declared but
/// never imported costs build time for nothing.
@Suite("Package.swift: each target's dependencies are what its files import")
struct PackageManifestTests {
    struct Target {
        var name: String
        var path: String
        var dependencies: Set<String>
    }

    /// Modules of the toolchain and the system, which no manifest declares.
    static let system: Set<String> = [
        "Foundation", "FoundationEssentials", "FoundationNetworking", "Glibc", "Musl", "Darwin", "ucrt", "Dispatch", "Synchronization",
        "Testing", "XCTest", "RegexBuilder", "_Concurrency",
    ]

    /// The targets of Package.swift as it is written: each `.target(`, `.executableTarget(` or
    /// `.testTarget(` with its name, path and the target and product names it depends on.
    static func targets() throws -> [Target] {
        let manifest = try String(contentsOfFile: Repository.root + "/Package.swift", encoding: .utf8)
        let starts = manifest.matches(of: /\.(?:target|executableTarget|testTarget|systemLibrary)\(/).map(\.range.lowerBound)
        var targets: [Target] = []
        for (i, start) in starts.enumerated() {
            let block = String(manifest[start..<(i + 1 < starts.count ? starts[i + 1] : manifest.endIndex)])
            guard !block.hasPrefix(".systemLibrary"), let name = block.firstMatch(of: /name: "([\w-]+)"/)?.1,
                let path = block.firstMatch(of: /path: "([^"]+)"/)?.1
            else { continue }
            var dependencies = Set<String>()
            if let list = block.firstMatch(of: /dependencies: \[((?:[^\[\]]|\[[^\[\]]*\])*)\]/)?.1 {
                // A product is named first in `.product(name: "X", package: …)`; a target is a bare string.
                let products = list.matches(of: /\.product\(name: "([\w-]+)"/).map { String($0.1) }
                let withoutProducts = list.replacing(/\.product\([^)]*\)/, with: "")
                dependencies = Set(products + withoutProducts.matches(of: /"([\w-]+)"/).map { String($0.1) })
            }
            targets.append(Target(name: String(name), path: String(path), dependencies: dependencies))
        }
        return targets
    }

    /// The modules a target's Swift files import, outside multi-line strings (the neural voice's
    /// Python program is one).
    static func imports(under path: String) throws -> Set<String> {
        let root = Repository.root + "/" + path
        var found = Set<String>()
        for file in FileManager.default.enumerator(atPath: root)?.compactMap({ $0 as? String }) ?? [] where file.hasSuffix(".swift") {
            var inString = false
            for line in try String(contentsOfFile: root + "/" + file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
                if line.components(separatedBy: "\"\"\"").count % 2 == 0 { inString.toggle() }
                guard !inString,
                    let match = line.firstMatch(of: /^\s*(?:@testable\s+|@_exported\s+|public\s+)?import\s+(?:(?:struct|enum|class|func)\s+)?(\w+)/)
                else { continue }
                found.insert(String(match.1))
            }
        }
        return found.subtracting(system)
    }

    @Test("no target declares a module it does not import, or imports one it does not declare")
    func dependenciesAreImports() throws {
        let targets = try Self.targets()
        #expect(targets.count > 50, "the manifest's targets were found: \(targets.map(\.name))")
        var problems: [String] = []
        for target in targets {
            let imports = try Self.imports(under: target.path)
            // C targets and resource-only targets import nothing.
            if imports.isEmpty { continue }
            let unused = target.dependencies.subtracting(imports).sorted()
            let undeclared = imports.subtracting(target.dependencies).sorted()
            if !unused.isEmpty { problems.append("\(target.name) declares but never imports \(unused)") }
            if !undeclared.isEmpty { problems.append("\(target.name) imports but does not declare \(undeclared)") }
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }
}
