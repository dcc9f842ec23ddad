import Foundation
import TestSupport
import Testing

/// `vocab search TEXT` through the built binary, over the learning fixture catalog with the MOE
/// sample imported.
@Suite("vocab search across sources, as a process")
struct SearchCommandTests {
    struct Runner {
        let dir: TemporaryDirectory

        init(mandarin: Bool = true) throws {
            dir = try TemporaryDirectory("cli-search")
            try LearningFixtures.writeCatalog(in: dir)
            if mandarin {
                let imported = try run(["import", "moe", Repository.moeSample])
                #expect(imported.status == 0, "\(imported.stderr)")
            }
        }

        func run(_ args: [String]) throws -> ProcessResult {
            try runProcess(Repository.vocabExecutable, args, environment: ["VOCAB_HOME": dir.file("home"), "VOCAB_CATEGORIES": dir.file("Categories")])
        }

        func json(_ args: [String], status: Int32 = 0) throws -> [String: Any] {
            let result = try run(args + ["--json"])
            #expect(result.status == status, "\(args): \(result.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        }
    }

    @Test("text: a line per result with its title, source, reading, gloss, why and entry")
    func text() throws {
        let vocab = try Runner()
        defer { vocab.dir.remove() }
        let cat = try vocab.run(["search", "cat"])
        #expect(cat.status == 0, "\(cat.stderr)")
        let lines = cat.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "2 results for 'cat' in catalog, moe, library:")
        let first = try #require(lines.dropFirst().first)
        for part in ["cat", "catalog", "/kæt/", "con mèo", "headword", "catalog:animals/cat"] { #expect(first.contains(part), "\(part) in \(first)") }
        #expect(lines.last?.contains("definition, inside") == true && lines.last?.hasSuffix("catalog:animals/lion") == true)

        let han = try vocab.run(["search", "行"])
        let hanLines = han.stdout.split(separator: "\n").map(String.init)
        #expect(hanLines.first == "11 results for '行' in catalog, moe, library:")
        #expect(hanLines.dropFirst().first.map { $0.hasPrefix("行") && $0.contains("moe") && $0.contains("xíng") && $0.hasSuffix("moe:行") } == true)
    }

    @Test("--json: the same page as GET /v1/search")
    func json() throws {
        let vocab = try Runner()
        defer { vocab.dir.remove() }
        let body = try vocab.json(["search", "ca"])
        #expect(body["query"] as? String == "ca" && body["source"] as? String == "all" && body["limit"] as? Int == 30 && body["offset"] as? Int == 0)
        #expect(body["sources"] as? [String] == ["catalog", "moe", "library"])
        let results = try #require(body["results"] as? [[String: Any]])
        #expect(results.map { $0["reference"] as? String } == ["catalog:food/cake", "catalog:animals/cat", "catalog:animals/fish"])
        #expect(results.map { $0["rank"] as? String } == ["prefix", "prefix", "contains"])
        #expect(results.last?["match"] as? String == "translation" && results.last?["gloss"] as? String == "con cá")
        #expect(body["total"] as? Int == 3)
        let moe = try vocab.json(["search", "xíng", "--source", "moe", "--limit", "3"])
        #expect(moe["sources"] as? [String] == ["moe"])
        #expect((moe["results"] as? [[String: Any]])?.allSatisfy { $0["source"] as? String == "moe" && $0["match"] as? String == "pinyin" } == true)
    }

    @Test("a page at a time: the more line names the next offset; the pages together are the whole list")
    func paging() throws {
        let vocab = try Runner()
        defer { vocab.dir.remove() }
        let all = try vocab.json(["search", "xing", "--limit", "100"])
        let total = try #require(all["total"] as? Int)
        #expect(total > 10)
        let first = try vocab.run(["search", "xing", "--limit", "5"])
        let lines = first.stdout.split(separator: "\n")
        #expect(lines.count == 7)
        #expect(lines.last == "… \(total - 5) more: use --offset 5")
        var references: [String] = []
        for offset in stride(from: 0, to: total, by: 5) {
            let page = try vocab.json(["search", "xing", "--limit", "5", "--offset", String(offset)])
            #expect(page["total"] as? Int == total && page["offset"] as? Int == offset)
            references += (page["results"] as? [[String: Any]] ?? []).compactMap { $0["reference"] as? String }
        }
        #expect(references == (all["results"] as? [[String: Any]] ?? []).compactMap { $0["reference"] as? String })
        let past = try vocab.run(["search", "xing", "--offset", "500"])
        #expect(past.status == 0 && past.stdout.contains("No results past 500"))
    }

    @Test("nothing anywhere: a clear message with close spellings and exit 1; --json still prints the page")
    func miss() throws {
        let vocab = try Runner()
        defer { vocab.dir.remove() }
        let miss = try vocab.run(["search", "catt"])
        #expect(miss.status == 1 && miss.stdout.isEmpty)
        #expect(
            miss.stderr.contains("vocab: nothing matches 'catt' in the catalog, the Mandarin dictionary or your library.")
                && miss.stderr.contains("Did you mean: cat"), "\(miss.stderr)")
        let body = try vocab.json(["search", "zzzz"], status: 1)
        #expect(body["total"] as? Int == 0 && (body["results"] as? [Any])?.isEmpty == true)
        let narrowed = try vocab.run(["search", "行人", "--source", "catalog"])
        #expect(narrowed.status == 1 && narrowed.stderr.contains("'行人' is in the Mandarin dictionary: try 'vocab lookup 行人'"), "\(narrowed.stderr)")
        let inside = try vocab.run(["search", "人", "--source", "catalog"])
        #expect(inside.status == 1 && inside.stderr.contains("try without --source"), "\(inside.stderr)")
        let bad = try vocab.run(["search", "cat", "--source", "web"])
        #expect(bad.status == 64 && bad.stderr.contains("not a source"), "\(bad.stderr)")
        #expect(try vocab.run(["search", "cat", "--tones"]).status == 64)
        #expect(try vocab.run(["search", "cat", "--limit", "101"]).status == 64)
    }

    @Test("the library of the command line's learner, or of --user; without a user file none is made")
    func library() throws {
        let vocab = try Runner(mandarin: false)
        defer { vocab.dir.remove() }
        #expect(try vocab.json(["search", "cat", "--source", "library"], status: 1)["total"] as? Int == 0)
        #expect(!FileManager.default.fileExists(atPath: vocab.dir.file("home/user.sqlite")), "a search saves nothing")
        #expect(try vocab.run(["library", "add", "cat"]).status == 0)
        let mine = try vocab.json(["search", "cat", "--source", "library"])
        #expect((mine["results"] as? [[String: Any]])?.map { "\($0["source"] ?? "") \($0["reference"] ?? "")" } == ["library catalog:animals/cat"])
        // Without the dictionary imported, the whole search is the catalog and the library.
        #expect(try vocab.json(["search", "cat"])["sources"] as? [String] == ["catalog", "library"])
        #expect(try vocab.run(["search", "cat", "--user", "nobody"]).status == 1)
    }

    @Test("--help teaches with examples; --pinyin keeps its own listing")
    func help() throws {
        let vocab = try Runner()
        defer { vocab.dir.remove() }
        let help = try vocab.run(["search", "--help"])
        for part in ["vocab search 行", "--source", "vocab search --pinyin xing"] { #expect(help.stdout.contains(part), "\(part)") }
        #expect(try vocab.json(["search", "--pinyin", "xing", "--limit", "3"])["readings"] != nil)
    }
}
