import Foundation
import TestSupport
import Testing

/// Runs the built `vocab` binary against a private, empty home folder.
private struct MOERunner {
    let home: TemporaryDirectory

    static let sample = Repository.root + "/Tests/Domains/MandarinTests/Fixtures/dict-revised-sample.json"

    init() throws { home = try TemporaryDirectory("cli-moe") }

    /// A runner whose home already holds the imported sample.
    static func imported() throws -> MOERunner {
        let runner = try MOERunner()
        let result = try runner.run("import", "moe", sample)
        #expect(result.status == 0, "\(result.stderr)")
        return runner
    }

    func run(_ args: String...) throws -> ProcessResult { try run(args) }

    func run(_ args: [String]) throws -> ProcessResult {
        try runProcess(Repository.vocabExecutable, args, environment: ["VOCAB_HOME": home.path])
    }

    func json(_ args: String...) throws -> Any {
        let result = try run(args + ["--json"])
        #expect(result.status == 0, "\(args): \(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }

    var files: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: home.path)) ?? []).sorted() }
}

@Suite("vocab MOE dictionary commands, as a process")
struct MOECommandTests {
    // MARK: import

    @Test func importBuildsTheDatabaseAndSaysWhatItImported() throws {
        let vocab = try MOERunner()
        defer { vocab.home.remove() }
        let result = try vocab.run("import", "moe", MOERunner.sample)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Imported 40 entries, 56 readings and 229 definitions in "))
        #expect(result.stdout.contains(vocab.home.file("moe.sqlite")))
        #expect(result.stderr.isEmpty, "no progress when stderr is not a terminal")
        #expect(vocab.files == ["moe.sqlite"])
    }

    @Test func importPrintsAJSONSummary() throws {
        let vocab = try MOERunner()
        defer { vocab.home.remove() }
        let summary = try #require(try vocab.json("import", "moe", MOERunner.sample) as? [String: Any])
        #expect(summary["entries"] as? Int == 40)
        #expect(summary["heteronyms"] as? Int == 56)
        #expect(summary["definitions"] as? Int == 229)
        #expect(summary["seconds"] is Double)
    }

    @Test func malformedJSONFailsWithItsPositionAndKeepsThePreviousImport() throws {
        let vocab = try MOERunner.imported()
        defer { vocab.home.remove() }
        try vocab.home.write("bad.json", "[{\"title\": \"行\",\n  \"heteronyms\": [}]")
        let result = try vocab.run("import", "moe", vocab.home.file("bad.json"))
        #expect(result.status == 65)
        #expect(result.stderr.contains("invalid JSON at line 2, column 18"), "\(result.stderr)")
        #expect(result.stderr.contains("Nothing was imported"))
        #expect(result.stdout.isEmpty)
        #expect(vocab.files == ["bad.json", "moe.sqlite"])
        #expect(try vocab.run("lookup", "行").status == 0, "the previous import still answers")
    }

    @Test func anEmptyFileIsRefusedUnlessForced() throws {
        let vocab = try MOERunner.imported()
        defer { vocab.home.remove() }
        try vocab.home.write("empty.json", "[]")
        let before = try Data(contentsOf: URL(fileURLWithPath: vocab.home.file("moe.sqlite")))
        let result = try vocab.run("import", "moe", vocab.home.file("empty.json"))
        #expect(result.status == 65)
        #expect(
            result.stderr == "vocab: \(vocab.home.file("empty.json")) holds no entries; importing it would leave an empty dictionary. "
                + "Nothing was imported. Add --force to import it anyway.\n", "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(try Data(contentsOf: URL(fileURLWithPath: vocab.home.file("moe.sqlite"))) == before)
        #expect(vocab.files == ["empty.json", "moe.sqlite"])

        let forced = try vocab.run("import", "moe", vocab.home.file("empty.json"), "--force")
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(forced.stdout.hasPrefix("Imported 0 entries, 0 readings and 0 definitions"))
        #expect(try vocab.run("lookup", "行").status == 1)
    }

    @Test func aFileWithLessThanHalfTheEntriesIsRefusedUnlessForced() throws {
        let vocab = try MOERunner.imported()
        defer { vocab.home.remove() }
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: MOERunner.sample))) as? [Any])
        let small = vocab.home.file("small.json")
        try JSONSerialization.data(withJSONObject: Array(entries.suffix(10))).write(to: URL(fileURLWithPath: small))
        let result = try vocab.run("import", "moe", small, "--json")
        #expect(result.status == 65)
        #expect(
            result.stderr.contains("holds 10 entries, fewer than half of the 40 in the current dictionary. Nothing was imported. Add --force"),
            "\(result.stderr)")
        #expect(try vocab.run("lookup", "行").status == 0, "the previous import still answers")

        let forced = try #require(try vocab.json("import", "moe", small, "--force") as? [String: Any])
        #expect(forced["entries"] as? Int == 10)
        #expect(try vocab.run("lookup", "行").status == 1)
    }

    @Test func aWrongShapeFailsWithItsPosition() throws {
        let vocab = try MOERunner()
        defer { vocab.home.remove() }
        try vocab.home.write("shape.json", "{\"title\": \"行\"}")
        let result = try vocab.run("import", "moe", vocab.home.file("shape.json"))
        #expect(result.status == 65)
        #expect(result.stderr.contains("not in the dict-revised.json format at line 1, column 1"))
        #expect(result.stderr.contains("must be a JSON array of entries"))
        #expect(vocab.files == ["shape.json"])
    }

    @Test func aMissingSourceFileExits66() throws {
        let vocab = try MOERunner()
        defer { vocab.home.remove() }
        let result = try vocab.run("import", "moe", vocab.home.file("dict-revised.json"))
        #expect(result.status == 66)
        #expect(result.stderr.contains("no file at"))
    }

    @Test func unreadableInputAndUnwritableHomeExit74() throws {
        let vocab = try MOERunner()
        defer { vocab.home.remove() }
        let folder = try vocab.run("import", "moe", vocab.home.path)
        #expect(folder.status == 74)
        #expect(folder.stderr.contains("cannot read \(vocab.home.path): it is a folder"))
        try vocab.home.write("file", "not a folder")
        let home = try vocab.run("import", "moe", MOERunner.sample, "--home", vocab.home.file("file/home"))
        #expect(home.status == 74)
        #expect(home.stderr.contains("could not write the dictionary database"))
    }

    @Test func aDamagedDatabaseAsksForANewImport() throws {
        let vocab = try MOERunner()
        defer { vocab.home.remove() }
        try vocab.home.write("moe.sqlite", "not a database")
        let result = try vocab.run("lookup", "行")
        #expect(result.status == 65)
        #expect(result.stderr.contains("Run 'vocab import moe PATH' again"))
    }

    // MARK: lookup

    @Test func lookupBeforeAnyImportTellsHowToImport() throws {
        let vocab = try MOERunner()
        defer { vocab.home.remove() }
        for args in [["lookup", "行"], ["strokes", "6"], ["radical", "水"], ["search", "--pinyin", "xing"]] {
            let result = try vocab.run(args)
            #expect(result.status == 66, "\(args)")
            #expect(result.stderr.contains("Run 'vocab import moe PATH'"), "\(args)")
        }
    }

    @Test func lookupShowsEveryReadingWithItsSenses() throws {
        let vocab = try MOERunner.imported()
        defer { vocab.home.remove() }
        let result = try vocab.run("lookup", "行")
        #expect(result.status == 0)
        for part in [
            "radical 行, 6 strokes", "(一) xíng  ㄒㄧㄥˊ", "(二) háng  ㄏㄤˊ", "(三) xìng  ㄒㄧㄥˋ", "(四) hàng  ㄏㄤˋ",
            "〔動〕 verb", "〔名〕 noun", "1. 走、走路。", "如：「直行」", "《論語．述而》",
        ] {
            #expect(result.stdout.contains(part), "missing \(part)")
        }
        let words = try vocab.run("lookup", "行使")
        #expect(words.stdout.contains("synonyms: 使用") && words.stdout.contains("antonyms: 放棄"))
    }

    @Test func lookupPrintsJSONWithReadingsAndGroups() throws {
        let vocab = try MOERunner.imported()
        defer { vocab.home.remove() }
        let body = try #require(try vocab.json("lookup", "行") as? [String: Any])
        #expect(body["title"] as? String == "行")
        let entries = try #require(body["entries"] as? [[String: Any]])
        let readings = try #require(entries.first?["readings"] as? [[String: Any]])
        #expect(readings.count == 4)
        #expect(readings.compactMap { $0["pinyin"] as? String } == ["xíng", "háng", "xìng", "hàng"])
        let groups = try #require(readings.first?["groups"] as? [[String: Any]])
        #expect(groups.compactMap { $0["type"] as? String } == ["動", "名", "形", "副", "連"])
        let first = try #require((groups.first?["definitions"] as? [[String: Any]])?.first)
        #expect(first["text"] as? String == "走、走路。")
        #expect((first["quotes"] as? [String])?.count == 2)
        #expect(entries.first?["strokeCount"] as? Int == 6)
    }

    @Test func lookupOfAnUnknownWordSuggestsAndExits1() throws {
        let vocab = try MOERunner.imported()
        defer { vocab.home.remove() }
        let result = try vocab.run("lookup", "行李箱")
        #expect(result.status == 1)
        #expect(result.stderr.contains("'行李箱' is not in the dictionary. Did you mean: 行李"), "\(result.stderr)")
    }

    // MARK: strokes and radical

    @Test func strokesListsCharactersByTitle() throws {
        let vocab = try MOERunner.imported()
        defer { vocab.home.remove() }
        let result = try vocab.run("strokes", "6")
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "6 characters with 6 strokes:")
        #expect(lines.dropFirst().compactMap { $0.split(separator: " ").first.map(String.init) } == ["休", "好", "汗", "江", "池", "行"])
        #expect(result.stdout.contains("xíng, háng, xìng, hàng"))

        let narrowed = try vocab.run("strokes", "9", "--radical", "行")
        #expect(narrowed.stdout.hasPrefix("1 character with 9 strokes under the radical 行:") && narrowed.stdout.contains("衍"))
        let list = try #require(try vocab.json("strokes", "6", "--limit", "2") as? [String: Any])
        #expect(list["total"] as? Int == 6)
        #expect((list["characters"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["休", "好"])
        #expect(try vocab.run("strokes", "6", "--limit", "2").stdout.hasSuffix("… 4 more: use --offset 2\n"))
    }

    @Test func strokesRefusesCountsThatAreNotPositiveWholeNumbers() throws {
        let vocab = try MOERunner.imported()
        defer { vocab.home.remove() }
        for bad in [["0"], ["-3"], ["six"], ["6.5"], ["6", "7"], ["--six"]] {
            let result = try vocab.run(["strokes"] + bad)
            #expect(result.status == 64, "\(bad)")
            #expect(
                result.stderr.contains("The stroke count must be a whole number of 1 or more, like 6 (got '\(bad.joined(separator: " "))')"),
                "\(bad): \(result.stderr)")
        }
        let missing = try vocab.run("strokes")
        #expect(missing.status == 64 && missing.stderr.contains("Give a stroke count, like 6."))
        #expect(try vocab.run("strokes", "6", "--limit", "0").status == 64)
    }

    @Test func noResultsIsSaidPlainly() throws {
        let vocab = try MOERunner.imported()
        defer { vocab.home.remove() }
        let strokes = try vocab.run("strokes", "99")
        #expect(strokes.status == 0)
        #expect(strokes.stdout == "No characters have 99 strokes.\n")
        // A radical with no characters is "not found", like an unknown word: exit 1.
        let radical = try vocab.run("radical", "龜")
        #expect(radical.status == 1)
        #expect(radical.stderr == "vocab: no characters under the radical 龜.\n")
        let filed = try vocab.run("radical", "海")
        #expect(filed.status == 1)
        #expect(filed.stderr == "vocab: no characters under the radical 海. 海 itself is filed under the radical 水: try 'vocab radical 水'.\n")
        let search = try vocab.run("search", "--pinyin", "zzz")
        #expect(search.status == 0)
        #expect(search.stdout == "No readings match 'zzz'.\n")
        let json = try vocab.run("strokes", "99", "--json")
        #expect(json.status == 0 && json.stdout.contains("\"total\" : 0"))
    }

    @Test func radicalListsByStrokesBeyondTheRadical() throws {
        let vocab = try MOERunner.imported()
        defer { vocab.home.remove() }
        let result = try vocab.run("radical", "水")
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "10 characters under the radical 水, by strokes beyond the radical:")
        let titles = lines.dropFirst().map { $0.split(separator: " ", omittingEmptySubsequences: true)[1] }
        #expect(titles == ["水", "永", "汁", "求", "汗", "江", "池", "汪", "泳", "海"])
        #expect(lines[1].hasPrefix("  +0   水"))
        #expect(try vocab.run("radical", "氵").stdout == result.stdout)
        let list = try #require(try vocab.json("radical", "行", "--limit", "3") as? [String: Any])
        #expect(list["total"] as? Int == 8)
        #expect((list["characters"] as? [[String: Any]])?.compactMap { $0["nonRadicalStrokeCount"] as? Int } == [0, 3, 5])
    }

    @Test func radicalRefusesAnythingButOneCharacter() throws {
        let vocab = try MOERunner.imported()
        defer { vocab.home.remove() }
        for bad in ["abc", "水火", "w", ""] {
            let result = try vocab.run("radical", bad)
            #expect(result.status == 64, "\(bad)")
            #expect(result.stderr.contains("Give one radical character"), "\(bad): \(result.stderr)")
        }
        #expect(try vocab.run("strokes", "6", "--radical", "ab").status == 64)
    }

    // MARK: search

    @Test func searchByPinyinIgnoresTones() throws {
        let vocab = try MOERunner.imported()
        defer { vocab.home.remove() }
        let result = try vocab.run("search", "--pinyin", "xing")
        #expect(result.status == 0)
        for reading in ["xíng", "xìng", "xǐng", "xīng"] { #expect(result.stdout.contains(reading), "\(reading)") }
        #expect(result.stdout.split(separator: "\n").dropFirst().first?.hasPrefix("行") == true, "simplest whole reading first, after the heading")
        let page = try #require(try vocab.json("search", "--pinyin", "xíng", "--limit", "5") as? [String: Any])
        let matches = try #require(page["readings"] as? [[String: Any]])
        #expect(matches.count == 5)
        #expect(matches.allSatisfy { $0["exact"] as? Bool == true })
        let umlaut = try #require(try vocab.json("search", "--pinyin", "lv") as? [String: Any])
        #expect((umlaut["readings"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["綠"])
    }

    @Test func searchByBopomofoIgnoresTones() throws {
        let vocab = try MOERunner.imported()
        defer { vocab.home.remove() }
        let matches = try #require((try vocab.json("search", "--bopomofo", "ㄒㄧㄥˊ") as? [String: Any])?["readings"] as? [[String: Any]])
        #expect(matches.contains { $0["title"] as? String == "醒" })
        #expect(matches.contains { $0["bopomofo"] as? String == "ㄒㄧㄥˊ　ㄖㄣˊ" })
        #expect(matches.count <= 30)
    }

    @Test func searchTakesExactlyOneOfTextPinyinAndBopomofo() throws {
        let vocab = try MOERunner.imported()
        defer { vocab.home.remove() }
        for args in [["search"], ["search", "cat", "--pinyin", "xing"], ["search", "--pinyin", "xing", "--bopomofo", "ㄒㄧㄥ"]] {
            let result = try vocab.run(args)
            #expect(result.status == 64, "\(args)")
            #expect(result.stderr.contains("Give exactly one of TEXT, --pinyin or --bopomofo."), "\(args)")
        }
        let letters = try vocab.run("search", "--pinyin", "123")
        #expect(letters.status == 64 && letters.stderr.contains("pinyin needs pinyin letters"))
        let zhuyin = try vocab.run("search", "--bopomofo", "xing")
        #expect(zhuyin.status == 64 && zhuyin.stderr.contains("bopomofo needs zhuyin letters"))
        let tones = try vocab.run("search", "cat", "--tones")
        #expect(tones.status == 64 && tones.stderr.contains("--tones goes with --pinyin or --bopomofo."))
        let source = try vocab.run("search", "--pinyin", "xing", "--source", "moe")
        #expect(source.status == 64 && source.stderr.contains("--source and --user go with TEXT"))
        #expect(try vocab.run("search", "--pinyin", "xing", "--offset", "-1").status == 64)
        #expect(try vocab.run("search", "--pinyin", "xing", "--limit", "1001").status == 64)
    }

    // MARK: entries as learners read them (issue 16)

    @Test func lookupShowsWhatTheSourceMeansNotItsMarkup() throws {
        let vocab = try MOERunner()
        defer { vocab.home.remove() }
        let fixture = Repository.root + "/Tests/Domains/MandarinTests/Fixtures/dict-revised-issue16.json"
        #expect(try vocab.run("import", "moe", fixture).status == 0)
        let late = try vocab.run("lookup", "晚生")
        #expect(late.status == 0 && late.stdout.hasPrefix("晚生\n\nwǎn shēng"), "no 'radical , 0 strokes': \(late.stdout)")
        let sure = try vocab.run("lookup", "一定").stdout
        #expect(sure.components(separatedBy: "antonyms: 不定\n").count == 3, "不定 on senses 1 and 2 only: \(sure)")
        #expect(sure.contains("3. 必然。") && sure.contains("antonyms: 未必") && sure.contains("antonyms: 大概"))
        #expect(!sure.contains("3.未必"))
        let glyph = try vocab.run("lookup", "{[98ab]}佬族")
        #expect(glyph.stdout.hasPrefix("〓佬族\n") && !glyph.stdout.contains("{["), "\(glyph.stdout)")
        let json = try #require(try vocab.json("lookup", "{[98ab]}佬族") as? [String: Any])
        #expect(json["title"] as? String == "{[98ab]}佬族", "JSON keeps the code")
        let entry = try #require((json["entries"] as? [[String: Any]])?.first)
        let lateJSON = try #require(((try vocab.json("lookup", "晚生") as? [String: Any])?["entries"] as? [[String: Any]])?.first)
        #expect(lateJSON["radical"] == nil && lateJSON["strokeCount"] == nil, "absent, not empty or 0")
        #expect(entry["title"] as? String == "{[98ab]}佬族")
    }

    @Test func compoundsAndRandomEntries() throws {
        let vocab = try MOERunner.imported()
        defer { vocab.home.remove() }
        let page = try vocab.run("lookup", "行", "--compounds", "--limit", "4")
        #expect(page.status == 0)
        let lines = page.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "10 words contain 行, those that start with it first:")
        #expect(lines.dropFirst().first?.hasPrefix("  行人") == true && lines.last == "… 6 more: use --offset 4", "\(page.stdout)")
        let json = try #require(try vocab.json("lookup", "行", "--compounds", "--offset", "8") as? [String: Any])
        #expect(json["total"] as? Int == 10 && json["offset"] as? Int == 8)
        #expect((json["entries"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["行將就木", "行政院農業委員會"])
        #expect(try vocab.run("lookup", "行政院農業委員會", "--compounds").stdout == "No words contain 行政院農業委員會.\n")

        let drawn = try #require(try vocab.json("random", "--source", "moe", "--seed", "7", "--count", "3") as? [String: Any])
        #expect(drawn["seed"] as? UInt64 == 7 && drawn["source"] as? String == "moe")
        let titles = (drawn["entries"] as? [[String: Any]])?.compactMap { $0["title"] as? String }
        #expect(titles?.count == 3)
        let again = try #require(try vocab.json("random", "--source", "moe", "--seed", "7", "--count", "3") as? [String: Any])
        #expect((again["entries"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == titles)
        let text = try vocab.run("random", "--source", "moe", "--count", "2")
        #expect(text.status == 0 && text.stdout.contains("'vocab random --source moe --seed "), "\(text.stdout)")
        #expect(try vocab.run("random", "--source", "mars").status == 64)
    }

    @Test func aMissInOneSourcePointsToTheOther() async throws {
        let vocab = try EditableCatalog()
        defer { vocab.dir.remove() }
        #expect(try await vocab.run("import", "moe", MOERunner.sample).status == 0)
        let show = try await vocab.run("show", "行")
        #expect(show.status == 1)
        #expect(show.stderr.hasSuffix("'行' is in the Mandarin dictionary: try 'vocab lookup 行'.\n"), "\(show.stderr)")
        let lookup = try await vocab.run("lookup", "cat")
        #expect(lookup.status == 1)
        #expect(
            lookup.stderr.hasPrefix("vocab: 'cat' is not in the dictionary.") && lookup.stderr.hasSuffix("'cat' is in the catalog: try 'vocab show cat'.\n"),
            "\(lookup.stderr)")
        // A miss everywhere stays a plain miss.
        let nowhere = try await vocab.run("show", "行行行")
        #expect(nowhere.status == 1 && !nowhere.stderr.contains("try 'vocab lookup"), "\(nowhere.stderr)")
        #expect(try await vocab.run("lookup", "zzqx").stderr.contains("vocab show") == false)
    }

    @Test func readingsAreColouredByToneOnlyWhenWantedAndShownInTheChosenStyle() throws {
        let vocab = try MOERunner.imported()
        defer { vocab.home.remove() }
        func run(_ args: [String], _ environment: [String: String]) throws -> ProcessResult {
            try runProcess(Repository.vocabExecutable, args, environment: ["VOCAB_HOME": vocab.home.path].merging(environment) { $1 })
        }
        let plain = try run(["lookup", "行家"], [:])
        #expect(!plain.stdout.contains("\u{1B}["), "a pipe gets no colour")
        let forced = try run(["lookup", "行家"], ["CLICOLOR_FORCE": "1", "NO_COLOR": ""])
        // háng is second tone (green), jia neutral (grey); ㄏㄤˊ second, ˙ㄐㄧㄚ neutral.
        #expect(forced.stdout.contains("\u{1B}[32mháng\u{1B}[0m \u{1B}[90mjia\u{1B}[0m"), "\(forced.stdout)")
        #expect(forced.stdout.contains("\u{1B}[32mㄏㄤˊ\u{1B}[0m\u{3000}\u{1B}[90m˙ㄐㄧㄚ\u{1B}[0m"), "\(forced.stdout)")
        let xing = try run(["search", "--pinyin", "xing", "--limit", "40"], ["CLICOLOR_FORCE": "1", "NO_COLOR": ""]).stdout
        for (tone, syllable) in [("31", "xīng"), ("32", "xíng"), ("34", "xǐng"), ("35", "xìng")] {
            #expect(xing.contains("\u{1B}[\(tone)m\(syllable)\u{1B}[0m"), "\(syllable)")
        }
        #expect(!(try run(["lookup", "行家"], ["CLICOLOR_FORCE": "1", "NO_COLOR": "1"]).stdout.contains("\u{1B}[")), "NO_COLOR wins")

        let bopomofo = try vocab.run("lookup", "行家", "--reading-style", "bopomofo").stdout
        #expect(bopomofo.contains("\nㄏㄤˊ　˙ㄐㄧㄚ\n") && !bopomofo.contains("háng"), "\(bopomofo)")
        let pinyin = try vocab.run("search", "--pinyin", "xing ren", "--reading-style", "pinyin").stdout
        #expect(pinyin.contains("xíng rén") && !pinyin.contains("ㄒ"), "\(pinyin)")
        #expect(try vocab.run("lookup", "行", "--reading-style", "ipa").status == 64)
    }

    // MARK: paging and tones (issue 16)

    @Test func readingSearchesPageLikeWords() throws {
        let vocab = try MOERunner.imported()
        defer { vocab.home.remove() }
        let first = try vocab.run("search", "--pinyin", "xing", "--limit", "5")
        #expect(first.status == 0)
        let lines = first.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "19 readings match 'xing':")
        #expect(lines.count == 7 && lines.last == "… 14 more: use --offset 5", "\(first.stdout)")
        let last = try vocab.run("search", "--pinyin", "xing", "--limit", "5", "--offset", "15")
        #expect(last.stdout.split(separator: "\n").count == 5, "four readings and the heading, no more line: \(last.stdout)")
        #expect(!last.stdout.contains("more: use"))
        let past = try vocab.run("search", "--pinyin", "xing", "--offset", "40")
        #expect(past.status == 0 && past.stdout == "No readings past 40: 19 readings match 'xing'.\n")

        let page = try #require(try vocab.json("search", "--bopomofo", "ㄒㄧㄥ", "--limit", "3", "--offset", "3") as? [String: Any])
        #expect(page["total"] as? Int == 19 && page["offset"] as? Int == 3 && page["limit"] as? Int == 3)
        #expect(page["bopomofo"] as? String == "ㄒㄧㄥ" && page["pinyin"] == nil && page["tones"] as? String == "ignore")
        #expect((page["readings"] as? [Any])?.count == 3)

        let radical = try vocab.run("radical", "水", "--limit", "4", "--offset", "4")
        #expect(radical.stdout.hasSuffix("… 2 more: use --offset 8\n"), "\(radical.stdout)")
        let strokes = try #require(try vocab.json("strokes", "6", "--limit", "4", "--offset", "4") as? [String: Any])
        #expect(strokes["offset"] as? Int == 4 && strokes["total"] as? Int == 6)
        #expect((strokes["characters"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["池", "行"])
    }

    @Test func tonesNarrowAReadingSearchWithTones() throws {
        let vocab = try MOERunner.imported()
        defer { vocab.home.remove() }
        let any = try #require(try vocab.json("search", "--pinyin", "xing2") as? [String: Any])
        #expect(any["total"] as? Int == 19)
        let exact = try #require(try vocab.json("search", "--pinyin", "xing2", "--tones") as? [String: Any])
        #expect(exact["total"] as? Int == 11 && exact["tones"] as? String == "exact")
        #expect((exact["readings"] as? [[String: Any]])?.allSatisfy { ($0["pinyin"] as? String)?.hasPrefix("xíng") == true } == true)
        let text = try vocab.run("search", "--bopomofo", "ㄒㄧㄥ", "--tones")
        #expect(text.stdout.hasPrefix("3 readings match 'ㄒㄧㄥ', tones as given:"), "\(text.stdout)")
    }

    // MARK: word of the day (issue 16)

    @Test func theWordOfTheDayIsTheSameAllDayAndChangesWithTheDate() throws {
        let vocab = try MOERunner.imported()
        defer { vocab.home.remove() }
        let first = try #require(try vocab.json("random", "--source", "moe", "--date", "2026-03-01") as? [String: Any])
        #expect(first["date"] as? String == "2026-03-01" && first["source"] as? String == "moe")
        #expect(first["seed"] as? Int == 20513, "days since 1970-01-01")
        #expect((first["entry"] as? [String: Any])?["title"] as? String == "汪")
        let again = try vocab.run("random", "--source", "moe", "--date", "2026-03-01", "--json")
        #expect(again.stdout == (try vocab.run("random", "--source", "moe", "--date", "2026-03-01", "--json")).stdout)
        let next = try #require(try vocab.json("random", "--source", "moe", "--date", "2026-03-02") as? [String: Any])
        #expect((next["entry"] as? [String: Any])?["title"] as? String == "行人")
        // The same draw as --seed with the day's number.
        let seeded = try #require(try vocab.json("random", "--source", "moe", "--seed", "20513", "--count", "1") as? [String: Any])
        #expect((seeded["entries"] as? [[String: Any]])?.first?["title"] as? String == "汪")

        let text = try vocab.run("random", "--source", "moe", "--date", "2026-03-01")
        #expect(text.status == 0 && text.stdout.hasPrefix("Word of the day, 2026-03-01:\n\n汪    radical 水"), "\(text.stdout)")

        // --today is the local date's entry (read the date on both sides of the run: midnight may pass).
        func localDate() -> String {
            let c = Calendar.current.dateComponents([.year, .month, .day], from: Date())
            return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
        }
        let before = localDate()
        let today = try vocab.run("random", "--source", "moe", "--today", "--json")
        let after = localDate()
        let expected = try Set([before, after].map { try vocab.run("random", "--source", "moe", "--date", $0, "--json").stdout })
        #expect(today.status == 0 && expected.contains(today.stdout), "\(today.stdout)")

        for bad in ["2026-02-30", "2026-3-1", "tomorrow", "2026-13-01", "2025-02-29", ""] {
            let result = try vocab.run("random", "--source", "moe", "--date", bad)
            #expect(result.status == 64, "\(bad)")
            #expect(result.stderr.contains("the date must be a day written YYYY-MM-DD, like 2026-03-01 (got '\(bad)')"), "\(bad): \(result.stderr)")
        }
        #expect(try vocab.run("random", "--source", "moe", "--date", "2024-02-29").status == 0, "a leap day")
        for args in [
            ["random", "--today"], ["random", "--source", "moe", "--today", "--seed", "3"], ["random", "--source", "moe", "--today", "--page", "2"],
        ] {
            let result = try vocab.run(args)
            #expect(result.status == 64 && result.stderr.contains("--today and --date"), "\(args): \(result.stderr)")
        }
    }

    // MARK: help

    @Test(arguments: [
        (["import", "moe", "--help"], "vocab import moe ~/Downloads/dict-revised.json"),
        (["import", "--help"], "vocab import moe dict-revised.json"),
        (["lookup", "--help"], "vocab lookup 行"),
        (["strokes", "--help"], "vocab strokes 9 --radical 行"),
        (["radical", "--help"], "vocab radical 氵 --limit 50"),
        (["search", "--help"], "vocab search --pinyin xing2 --tones"),
    ])
    func helpTeachesWithExamples(_ args: [String], _ example: String) throws {
        let vocab = try MOERunner()
        defer { vocab.home.remove() }
        let result = try vocab.run(args)
        #expect(result.status == 0)
        #expect(result.stdout.contains(example), "\(args)")
        if args.count > 2 || args[0] != "import" { #expect(result.stdout.contains("--json"), "\(args)") }
    }
}

@Suite("The launcher answers the Mandarin listings itself, byte for byte as the full program, and hands the rest on")
struct MandarinLauncherTests {
    var full: String { Repository.productsDirectory + "/vocab-full" }

    /// Runs both programs on the same home and arguments.
    func both(_ args: [String], _ home: TemporaryDirectory, _ extra: [String: String] = [:]) throws -> (fast: ProcessResult, slow: ProcessResult) {
        let env = ["VOCAB_HOME": home.path, "NO_COLOR": "", "CLICOLOR_FORCE": ""].merging(extra) { $1 }
        return (try runProcess(Repository.vocabExecutable, args, environment: env), try runProcess(full, args, environment: env))
    }

    static let listings: [[String]] = [
        ["lookup", "行"], ["lookup", "行", "--json"], ["lookup", "行家", "--reading-style", "bopomofo"],
        ["lookup", "行家", "--reading-style", "pinyin", "-v"], ["lookup", " 行 "], ["lookup", "行使", "--json"],
        ["lookup", "行", "--compounds", "--limit", "4"], ["lookup", "行", "--compounds", "--offset", "8", "--json"],
        ["lookup", "行", "--compounds", "--offset", "40"], ["lookup", "行政院農業委員會", "--compounds"],
        ["strokes", "6"], ["strokes", "6", "--json"], ["strokes", "6", "--limit", "2", "--offset", "2"],
        ["strokes", "6", "--offset", "4", "--limit", "4", "--json"], ["strokes", "9", "--radical", "行"], ["strokes", "9", "--radical", "行", "--json"],
        ["strokes", "6", "--radical", "氵"], ["strokes", "99"], ["strokes", "99", "--json"], ["strokes", "6", "--offset", "50"], ["strokes", " 6", "--json"],
        ["radical", "水"], ["radical", "氵", "--json"], ["radical", "水", "--limit", "4", "--offset", "4"], ["radical", "行", "--limit", "3", "--json"],
        ["radical", "水", "--offset", "50"],
        ["search", "--pinyin", "xing"], ["search", "--pinyin", "xing", "--json"], ["search", "--pinyin", "xing", "--limit", "5", "--offset", "15"],
        ["search", "--pinyin", "xing2", "--tones"], ["search", "--pinyin", "xing2", "--tones", "--json", "--limit", "3", "--offset", "1"],
        ["search", "--bopomofo", "ㄒㄧㄥ", "--tones"], ["search", "--bopomofo", "ㄒㄧㄥ", "--limit", "3", "--offset", "3", "--json"],
        ["search", "--pinyin", "xing ren", "--reading-style", "pinyin"], ["search", "--pinyin", "xing", "--reading-style", "bopomofo"],
        ["search", "--pinyin", "zzz"], ["search", "--pinyin", "xing", "--offset", "40"], ["search", "--pinyin", "lv", "--json"],
    ]

    @Test func listingsMatchTheFullProgramByteForByte() throws {
        let vocab = try MOERunner.imported()
        defer { vocab.home.remove() }
        for args in Self.listings {
            let (fast, slow) = try both(args, vocab.home)
            #expect(fast.status == 0 && slow.status == 0, "\(args): \(slow.stderr)")
            #expect(fast.stdout == slow.stdout, "\(args)")
            #expect(fast.stderr == slow.stderr, "\(args)")
            #expect(!fast.stdout.isEmpty, "\(args)")
        }
        // The home given as a flag, and readings coloured by tone for a pipe when forced.
        for args in [["lookup", "行家", "--home", vocab.home.path], ["search", "--pinyin", "xing", "--limit", "40", "--home", vocab.home.path]] {
            let (fast, slow) = try both(args, try TemporaryDirectory("cli-moe-other"), ["CLICOLOR_FORCE": "1"])
            #expect(fast.status == 0 && fast.stdout == slow.stdout, "\(args): \(fast.stderr)")
            #expect(fast.stdout.contains("\u{1B}[32m"), "coloured: \(args)")
        }
        let (fast, slow) = try both(["lookup", "行家"], vocab.home, ["CLICOLOR_FORCE": "1", "NO_COLOR": "1"])
        #expect(fast.stdout == slow.stdout && !fast.stdout.contains("\u{1B}["), "NO_COLOR wins in both")

        // Placeholders for missing glyphs, senses numbered by the source, no radical.
        let other = try MOERunner()
        defer { other.home.remove() }
        #expect(try other.run("import", "moe", Repository.root + "/Tests/Domains/MandarinTests/Fixtures/dict-revised-issue16.json").status == 0)
        for args in [["lookup", "{[98ab]}佬族"], ["lookup", "{[98ab]}佬族", "--json"], ["lookup", "一定"], ["lookup", "晚生", "--json"]] {
            let (fast, slow) = try both(args, other.home)
            #expect(fast.status == 0 && fast.stdout == slow.stdout && fast.stderr == slow.stderr, "\(args): \(slow.stderr)")
        }
    }

    /// A copy of the launcher with no full program beside it answers what it understands, and
    /// says it cannot find the full program for everything else: so the listings above really
    /// came from the launcher, and misses, errors and help from the full program.
    @Test func theLauncherAloneAnswersTheListingsAndNothingElse() throws {
        let vocab = try MOERunner.imported()
        defer { vocab.home.remove() }
        let alone = try TemporaryDirectory("launcher-moe-alone")
        defer { alone.remove() }
        let copy = alone.file("vocab")
        try FileManager.default.copyItem(atPath: Repository.vocabExecutable, toPath: copy)
        let env = ["VOCAB_HOME": vocab.home.path]
        for args in [
            ["lookup", "行"], ["lookup", "行", "--compounds"], ["strokes", "6", "--json"], ["radical", "水", "--limit", "3"],
            ["search", "--pinyin", "xing2", "--tones", "--reading-style", "pinyin"],
        ] {
            let result = try runProcess(copy, args, environment: env)
            #expect(result.status == 0 && !result.stdout.isEmpty && result.stderr.isEmpty, "\(args): \(result.stderr)")
        }
        for args in [
            ["lookup", "行李箱"], ["radical", "龜"], ["strokes", "0"], ["lookup", "行", "--limit=5"], ["search", "cat"],
            ["search", "--pinyin", "xing", "--json", "--json"], ["lookup", "--help"],
        ] {
            let result = try runProcess(copy, args, environment: env)
            #expect(result.status == 70 && result.stderr.contains("cannot find 'vocab-full'"), "\(args): \(result.stderr)")
        }
    }

    @Test func missesErrorsAndHelpReadTheSameThroughTheLauncher() throws {
        let vocab = try MOERunner.imported()
        defer { vocab.home.remove() }
        let empty = try MOERunner()
        defer { empty.home.remove() }
        let cases: [(args: [String], status: Int32)] = [
            (["lookup", "行李箱"], 1), (["lookup", "cat"], 1), (["radical", "龜"], 1), (["radical", "海"], 1), (["radical", "海", "--json"], 1),
            (["strokes", "0"], 64), (["strokes", "-3"], 64), (["strokes", "6", "7"], 64), (["strokes", "6", "--limit", "0"], 64),
            (["strokes", "6", "--radical", "ab"], 64), (["radical", "水火"], 64), (["radical", "水", "--offset", "-1"], 64),
            (["lookup", "行", "--reading-style", "ipa"], 64), (["lookup", "行", "--limit", "1001"], 64), (["lookup", "a/b"], 64),
            (["search", "--pinyin", "123"], 64), (["search", "--pinyin", "xing", "--bopomofo", "ㄒㄧㄥ"], 64),
            (["search", "--pinyin", "xing", "--limit", "1001"], 64),
            // Repeated flags are left to argument-parser, which takes them.
            (["search", "--pinyin", "xing", "--tones", "--tones"], 0),
            (["search", "--pinyin"], 64), (["lookup", "行", "--home"], 64), (["lookup", "行", "--bogus"], 64),
            (["strokes", "--help"], 0), (["lookup", "--help"], 0),
        ]
        for (args, status) in cases {
            let (fast, slow) = try both(args, vocab.home)
            #expect(slow.status == status, "\(args): \(slow.stderr)")
            #expect(fast.status == slow.status, "\(args)")
            #expect(fast.stdout == slow.stdout, "\(args)")
            #expect(fast.stderr == slow.stderr, "\(args)")
        }
        for args in [["lookup", "行"], ["strokes", "6"], ["radical", "水"], ["search", "--pinyin", "xing"]] {
            let (fast, slow) = try both(args, empty.home)
            #expect(fast.status == 66 && slow.status == 66, "\(args): not imported")
            #expect(fast.stderr == slow.stderr && fast.stderr.contains("Run 'vocab import moe PATH'"), "\(args)")
        }
    }
}

/// Issue 32: sources that are not a dictionary file are refused at once, before they fill the
/// memory or the disk, and a FIFO nobody writes to does not block for ever.
@Suite("vocab import moe refuses devices, huge files, silent FIFOs and non-JSON at once")
struct MOEImportSourceTests {
    @Test("/dev/zero, a 600 MB file, a FIFO without a writer and a stream of non-JSON fail with a clear reason, and nothing is imported")
    func strangeSources() throws {
        let vocab = try MOERunner()
        defer { vocab.home.remove() }
        let device = try vocab.run("import", "moe", "/dev/zero")
        #expect(device.status != 0 && device.stderr.contains("device"), "\(device.stderr)")

        let huge = vocab.home.file("huge.json")
        #expect(FileManager.default.createFile(atPath: huge, contents: nil) && truncate(huge, 600 << 20) == 0, "a sparse file: no disk used")
        let big = try vocab.run("import", "moe", huge)
        #expect(big.status != 0 && big.stderr.contains("MiB"), "\(big.stderr)")

        let fifo = vocab.home.file("silent.fifo")
        #expect(mkfifo(fifo, 0o644) == 0)
        let silent = try vocab.run("import", "moe", fifo)
        #expect(silent.status != 0 && silent.stderr.contains("nothing was written"), "\(silent.stderr)")

        // 64 MB of something that is not JSON through a pipe: refused at its first byte.
        let noise = try runProcess(
            "/bin/sh", ["-c", "head -c 67108864 /dev/zero | tr '\\\\0' 'x' | '\(Repository.vocabExecutable)' import moe /dev/stdin"],
            environment: ["VOCAB_HOME": vocab.home.path])
        #expect(noise.status == 65 && noise.stderr.contains("invalid JSON at line 1, column 1"), "\(noise.stderr)")
        #expect(!FileManager.default.fileExists(atPath: vocab.home.file("moe.sqlite")), "nothing was imported")
    }
}
