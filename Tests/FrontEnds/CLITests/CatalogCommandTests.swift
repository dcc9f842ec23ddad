import Foundation
import TestSupport
import Testing

/// Runs the built `vocab` binary against a private home folder, as a user would.
struct VocabRunner {
    let home: TemporaryDirectory
    let categories: String

    init(categories: String = Repository.categories) throws {
        home = try TemporaryDirectory("cli-home")
        self.categories = categories
    }

    func run(_ args: String...) throws -> ProcessResult {
        try runProcess(Repository.vocabExecutable, args, environment: ["VOCAB_HOME": home.path, "VOCAB_CATEGORIES": categories])
    }

    func json(_ args: String...) throws -> Any {
        let result = try runProcess(
            Repository.vocabExecutable, args + ["--json"],
            environment: ["VOCAB_HOME": home.path, "VOCAB_CATEGORIES": categories])
        #expect(result.status == 0, "\(args): \(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }
}

@Suite("vocab catalog commands, as a process")
struct CatalogCommandTests {
    @Test func categoriesListsTwentyWithIconsAndCounts() throws {
        let vocab = try VocabRunner()
        let result = try vocab.run("categories")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("indexed"), "first use builds the database and says so")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 21)
        let first = String(lines.first ?? "")
        #expect(first.contains("🐾") && first.contains("animals") && first.contains("Động vật"))
        // The same shape as GET /v1/categories: the level, distinct words, the categories.
        let body = try #require(try vocab.json("categories", "--level", "starters") as? [String: Any])
        #expect(body["level"] as? String == "starters")
        #expect((body["wordCount"] as? Int ?? 0) > 300)
        let list = try #require(body["categories"] as? [[String: Any]])
        #expect(list.count == 20)
        #expect(list.first?["id"] as? String == "animals")
        #expect((list.first?["wordCount"] as? Int ?? 0) > 10)
        #expect(try vocab.run("categories").stderr.isEmpty, "second use does not rebuild")
    }

    @Test func wordsOfACategoryAtALevel() throws {
        let vocab = try VocabRunner()
        let result = try vocab.run("words", "animals", "--level", "starters")
        #expect(result.status == 0)
        #expect(result.stdout.contains("cat") && result.stdout.contains("/kæt/") && result.stdout.contains("con mèo"))
        let page = try #require(try vocab.json("words", "animals", "--level", "starters", "--limit", "3") as? [String: Any])
        let words = try #require(page["words"] as? [[String: Any]])
        #expect(words.count == 3)
        #expect(page["level"] as? String == "starters")
        #expect(words.allSatisfy { ($0["levels"] as? [String])?.contains("starters") == true })
        let headwords = words.compactMap { $0["word"] as? String }
        #expect(headwords == headwords.sorted { $0.lowercased() < $1.lowercased() })
    }

    @Test func secondQueryIsServedFromTheCache() throws {
        let vocab = try VocabRunner()
        #expect(try vocab.run("words", "animals", "--level", "starters", "--verbose").stderr.contains("cache miss"))
        let stats = try #require(try vocab.json("stats") as? [String: Any])
        let file = try #require(stats["cacheDatabase"] as? String)
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(try vocab.run("words", "animals", "--level", "starters", "--verbose").stderr.contains("cache hit"))
        // Answered from the cache, the command wrote nothing: not even a count.
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
        let after = try #require(try vocab.json("stats") as? [String: Any])
        let cache = try #require(after["cache"] as? [String: Any])
        #expect(cache["hits"] == nil)
        #expect(cache["misses"] as? Int == 1)
    }

    @Test func statsPicturesCountsEntriesWithAPicturePerCategoryAndLevel() throws {
        let vocab = try VocabRunner()
        let report = try #require(try vocab.json("stats", "--pictures") as? [String: Any])
        let all = try #require(report["all"] as? [String: Any])
        // Counted again from the category files themselves.
        var entries = 0
        var pictured = 0
        var animals = (0, 0)
        for file in try FileManager.default.contentsOfDirectory(atPath: Repository.categories) where file.hasSuffix(".json") {
            let data = try Data(contentsOf: URL(fileURLWithPath: Repository.categories + "/" + file))
            let words = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["words"] as? [[String: Any]])
            entries += words.count
            // A picture is an emoji or a drawing (a Mulberry symbol has no emoji).
            let shown = words.filter { $0["picture"] != nil || $0["image"] != nil }
            pictured += shown.count
            if file == "animals.json" { animals = (words.count, shown.count) }
        }
        #expect(all["entries"] as? Int == entries)
        #expect(all["withPicture"] as? Int == pictured)
        #expect(pictured > 600)
        let byCategory = try #require(report["byCategory"] as? [[String: Any]])
        let row = try #require(byCategory.first { $0["name"] as? String == "animals" })
        #expect(row["entries"] as? Int == animals.0 && row["withPicture"] as? Int == animals.1, "\(row)")
        #expect((report["byLevel"] as? [[String: Any]])?.map { $0["name"] as? String } == ["starters", "movers", "flyers"])
        let text = try vocab.run("stats", "--pictures")
        #expect(text.status == 0)
        #expect(text.stdout.contains("animals"), "\(text.stdout)")
        #expect(text.stdout.contains("all                   \(String(entries).leftPad(7))"), "\(text.stdout)")
    }

    @Test func twoEntriesOfOneHeadwordAreToldApartByTheirSenseAndPicture() throws {
        let vocab = try VocabRunner()
        let shown = try vocab.run("show", "bat")
        #expect(shown.stdout.contains("bat · animal (con vật)  (noun)"), "\(shown.stdout)")
        #expect(shown.stdout.contains("bat · sports (thể thao)  (noun)"), "\(shown.stdout)")
        #expect(shown.stdout.contains("  Picture     🦇"))
        // The Anki export's front says which bat, with its picture (CSV: one note a line).
        let animals = vocab.home.file("animals.csv")
        let sports = vocab.home.file("sports.csv")
        #expect(try vocab.run("export", "--category", "animals", "--out", animals).status == 0)
        #expect(try vocab.run("export", "--category", "sports-and-leisure", "--out", sports).status == 0)
        #expect(try String(contentsOfFile: animals, encoding: .utf8).contains("\t🦇 bat · animal\t"))
        #expect(try String(contentsOfFile: sports, encoding: .utf8).contains("\t🏏 bat · sports\t"))
        #expect(try String(contentsOfFile: animals, encoding: .utf8).contains("\t🐈 cat\t"))
        // A topic's list names the sense: transport has a lift you ride in and a lift you get.
        let transport = try vocab.run("words", "transport", "--limit", "100").stdout
        #expect(transport.contains("  lift · elevator "), "\(transport)")
        #expect(transport.contains("  lift · ride "), "\(transport)")
        #expect(transport.contains("  bus "), "a headword with one entry has no label")
        // So does a search: right (correct, Starters) and right (the direction, Flyers).
        let right = try vocab.run("search", "right", "--source", "catalog").stdout
        #expect(right.contains("right · correct "), "\(right)")
        #expect(right.contains("right · direction "), "\(right)")
    }

    @Test func categoryCountsAreCachedPerLevelToo() throws {
        let vocab = try VocabRunner()
        let first = try vocab.run("categories", "--level", "movers", "--verbose")
        #expect(first.stderr.contains("cache miss for (categories, movers)"), "\(first.stderr)")
        let second = try vocab.run("categories", "--level", "movers", "--verbose")
        #expect(second.stderr.contains("cache hit for (categories, movers)"), "\(second.stderr)")
        #expect(second.stdout == first.stdout)
        #expect(try vocab.run("categories", "--verbose").stderr.contains("cache miss for (categories, all levels)"))
    }

    @Test func unknownCategorySuggestsAndFails() throws {
        let result = try VocabRunner().run("words", "animl")
        #expect(result.status == 1)
        #expect(result.stderr.contains("unknown category 'animl'"))
        #expect(result.stderr.contains("Did you mean: animals"))
    }

    @Test func badLevelListsTheValidOnes() throws {
        let result = try VocabRunner().run("words", "animals", "--level", "beginner")
        #expect(result.status == 64)
        #expect(result.stderr.contains("starters") && result.stderr.contains("movers") && result.stderr.contains("flyers"))
    }

    @Test func emptyResultSaysSoPlainly() throws {
        let dir = try TemporaryDirectory("cli-cats")
        try dir.write(
            "food.json",
            """
            {"id": "food", "name": {"en": "Food", "vi": "Đồ ăn"}, "icon": "🍎", "color": "#112233", "order": 1, "words": [
             {"word": "cake", "levels": ["flyers"], "categories": ["food"], "pos": ["noun"], "ipa": {"british": "keɪk", "american": "keɪk"},
              "vi": "bánh ngọt", "definition": {"en": "a sweet food", "vi": "món ngọt"}, "examples": {"flyers": "I've made a cake."}}]}
            """)
        let vocab = try VocabRunner(categories: dir.path)
        let result = try vocab.run("words", "food", "--level", "starters")
        #expect(result.status == 0)
        #expect(result.stdout == "No words in Food at starters.\n")
    }

    @Test func showPrintsOneWordInFull() throws {
        let vocab = try VocabRunner()
        let result = try vocab.run("show", "cat")
        #expect(result.status == 0)
        for part in ["British     /kæt/", "American    /kæt/", "con mèo", "starters:", "Definition  a ", "Examples"] {
            #expect(result.stdout.contains(part), "missing \(part)")
        }
        let missing = try vocab.run("show", "catt")
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("Did you mean") && missing.stderr.contains("cat"))
    }

    @Test func searchFindsByPrefixAndVietnamese() throws {
        let vocab = try VocabRunner()
        let body = try #require(try vocab.json("search", "ca") as? [String: Any])
        #expect(body["query"] as? String == "ca" && body["limit"] as? Int == 30)
        let results = try #require(body["results"] as? [[String: Any]])
        let headwords = results.compactMap { $0["title"] as? String }
        #expect(headwords.contains("cat"))
        #expect(headwords.count <= 30)
        let firstOther = headwords.firstIndex { !$0.lowercased().hasPrefix("ca") } ?? headwords.count
        #expect(headwords[..<firstOther].count >= 5, "headwords starting with the text come first: \(headwords)")
        let meo = try #require((try vocab.json("search", "meo") as? [String: Any])?["results"] as? [[String: Any]])
        #expect(meo.contains { $0["title"] as? String == "cat" && $0["match"] as? String == "translation" })
    }

    @Test func validateReportsFileAndWordAndFails() throws {
        let dir = try TemporaryDirectory("cli-bad")
        try dir.write(
            "food.json",
            """
            {"id": "food", "name": {"en": "Food", "vi": "Đồ ăn"}, "icon": "🍎", "color": "#112233", "order": 1, "words": [
             {"word": "cake", "levels": ["flyer"], "categories": ["food"], "pos": ["noun"], "ipa": {"british": "keɪk", "american": "keɪk"},
              "vi": "bánh ngọt", "definition": {"en": "a sweet food", "vi": "món ngọt"}, "examples": {}}]}
            """)
        try dir.write("toys.json", "[1, 2")
        let vocab = try VocabRunner(categories: dir.path)
        let result = try vocab.run("validate")
        #expect(result.status == 65)
        #expect(result.stdout.contains("food.json: word 'cake': unknown level 'flyer'"))
        #expect(result.stdout.contains("toys.json: invalid JSON"))
        let words = try vocab.run("words", "food")
        #expect(words.status == 65, "commands refuse to index invalid data")
        #expect(try VocabRunner().run("validate").status == 0)
    }

    @Test func helpTeachesWithExamples() throws {
        let result = try VocabRunner().run("words", "--help")
        #expect(result.status == 0)
        #expect(result.stdout.contains("vocab words animals --level starters"))
        #expect(result.stdout.contains("--json"))
    }
}

@Suite("The vocab launcher: a small static program that answers `vocab words` and `vocab categories` and hands the rest on")
struct LauncherTests {
    var full: String { Repository.productsDirectory + "/vocab-full" }

    @Test func listingsFromTheLauncherMatchTheFullProgramByteForByte() throws {
        let vocab = try VocabRunner()
        let env = ["VOCAB_HOME": vocab.home.path, "VOCAB_CATEGORIES": vocab.categories]
        for args in [
            ["words", "animals", "--level", "starters"], ["words", "colours", "--limit", "5", "--offset", "3", "--json"],
            ["words", "Animals"], ["words", "animals", "--level", "flyers", "--offset", "500"],
            ["categories"], ["categories", "--level", "movers"], ["categories", "--json", "--level", "flyers"],
        ] {
            // Once first, so both runs below find the same cache entry ("cache": "hit" in JSON).
            _ = try runProcess(full, args, environment: env)
            let fast = try runProcess(Repository.vocabExecutable, args, environment: env)
            let slow = try runProcess(full, args, environment: env)
            #expect(fast.status == slow.status, "\(args)")
            #expect(fast.stdout == slow.stdout, "\(args)")
            #expect(!fast.stdout.isEmpty, "\(args)")
        }
    }

    @Test func errorsAndHelpReadTheSameThroughTheLauncher() throws {
        let vocab = try VocabRunner()
        let env = ["VOCAB_HOME": vocab.home.path, "VOCAB_CATEGORIES": vocab.categories]
        #expect(try vocab.run("index").status == 0)
        for args in [
            ["words", "animl"], ["words", "animals", "--level", "beginner"], ["words", "--help"], ["categories", "--level", "starter"],
            ["categories", "extra"], ["--version"],
        ] {
            let launched = try runProcess(Repository.vocabExecutable, args, environment: env)
            let direct = try runProcess(full, args, environment: env)
            #expect(launched.status == direct.status, "\(args)")
            #expect(launched.stdout == direct.stdout, "\(args)")
            #expect(launched.stderr == direct.stderr, "\(args)")
        }
    }

    @Test func withoutTheFullProgramOnlyTheListingsWorkAndTheErrorSaysWhy() throws {
        let vocab = try VocabRunner()
        let alone = try TemporaryDirectory("launcher-alone")
        defer { alone.remove() }
        let copy = alone.file("vocab")
        // Copied by cp, not by this process: a file it held open for writing would be inherited by
        // whatever another test spawns meanwhile, and executing the copy would fail with "Text
        // file busy" (ETXTBSY) until that child exits.
        let copied = try runProcess("/bin/cp", [Repository.vocabExecutable, copy])
        try #require(copied.status == 0, "\(copied.stderr)")
        let env = ["VOCAB_HOME": vocab.home.path, "VOCAB_CATEGORIES": vocab.categories]
        let words = try runProcess(copy, ["words", "animals", "--level", "starters"], environment: env)
        #expect(words.status == 0 && words.stdout.contains("/kæt/"), "\(words.stderr)")
        #expect(try runProcess(copy, ["categories"], environment: env).status == 0)
        let other = try runProcess(copy, ["show", "cat"], environment: env)
        #expect(other.status == 70)
        #expect(other.stderr.contains("cannot find 'vocab-full'"), "\(other.stderr)")
    }

    #if os(Linux)
        /// A command typed in a loop reads and prints: once the catalog is indexed and its answer
        /// cached, `vocab words` and `vocab categories` make no write to any file but standard
        /// output and standard error, and start no thread (strace follows every child).
        @Test func theListingsOnlyReadAndStartNoThread() throws {
            let vocab = try VocabRunner()
            let env = ["VOCAB_HOME": vocab.home.path, "VOCAB_CATEGORIES": vocab.categories]
            let trace = vocab.home.file("trace")
            for args in [["words", "animals", "--level", "starters"], ["categories", "--level", "movers"]] {
                #expect(try runProcess(Repository.vocabExecutable, args, environment: env).status == 0)
                let traced = try runProcess(
                    "/usr/bin/strace",
                    ["-f", "-qq", "-o", trace, "-e", "trace=clone,clone3,fork,vfork,write,pwrite64,ftruncate,fallocate,rename,unlink"]
                        + [Repository.vocabExecutable] + args, environment: env)
                #expect(traced.status == 0 && !traced.stdout.isEmpty, "\(args): \(traced.stderr)")
                let calls = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map(String.init)
                let threads = calls.filter { $0.contains("clone") || $0.contains("fork(") }
                #expect(threads.isEmpty, "\(args) started threads: \(threads)")
                let writes = calls.filter {
                    ($0.contains("write(") && !$0.contains("write(1,") && !$0.contains("write(2,")) || $0.contains("pwrite64(")
                        || $0.contains("ftruncate(") || $0.contains("fallocate(") || $0.contains("rename(") || $0.contains("unlink(")
                }
                #expect(writes.isEmpty, "\(args) wrote: \(writes)")
            }
        }

        /// No PT_INTERP program header: the kernel starts it without the dynamic loader, which is
        /// most of what separates a 3 ms from an 8 ms `vocab words`.
        @Test func theLauncherIsAStaticExecutable() throws {
            let elf = try Data(contentsOf: URL(fileURLWithPath: Repository.vocabExecutable))
            func integer<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> Int {
                Int(elf[offset..<offset + MemoryLayout<T>.size].reversed().reduce(T(0)) { $0 << 8 | T($1) })
            }
            #expect(elf.prefix(4) == Data([0x7F, 0x45, 0x4C, 0x46]))
            let headers = integer(0x20, UInt64.self)
            let size = integer(0x36, UInt16.self)
            let count = integer(0x38, UInt16.self)
            let types = (0..<count).map { integer(headers + $0 * size, UInt32.self) }
            #expect(!types.isEmpty)
            #expect(!types.contains(3), "PT_INTERP present: the launcher is dynamically linked")
        }
    #endif
}

extension String {
    fileprivate func leftPad(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
