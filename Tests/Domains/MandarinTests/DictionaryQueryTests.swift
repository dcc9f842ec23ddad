import Foundation
import PostgresMandarin
import SeededRandom
import TestSupport
import Testing

@testable import Mandarin

@Suite("Mandarin queries on the imported sample, on moe.sqlite and on PostgreSQL")
struct DictionaryQueryTests {
    @Test(arguments: StorageEngine.allCases) func lookupGivesEveryReadingOfXingWithSensesGroupedByPartOfSpeech(_ engine: StorageEngine) async throws {
        try await Fixture.withDictionary(engine, importing: Fixture.samplePath) { dictionary async throws in
            let entry = try #require(try await dictionary.lookup("行").first)
            #expect(entry.radical == "行" && entry.strokeCount == 6 && entry.nonRadicalStrokeCount == 0)
            #expect(entry.readings.map(\.pinyin) == ["xíng", "háng", "xìng", "hàng"])
            #expect(entry.readings.map(\.bopomofo) == ["ㄒㄧㄥˊ", "ㄏㄤˊ", "ㄒㄧㄥˋ", "ㄏㄤˋ"])
            #expect(entry.readings.map(\.definitions.count) == [17, 7, 1, 1])

            let groups = entry.readings[0].groups
            #expect(groups.map(\.type) == ["動", "名", "形", "副", "連"])
            #expect(groups.map(\.partOfSpeech) == ["verb", "noun", "adjective", "adverb", "conjunction"])
            #expect(groups.map(\.definitions.count) == [8, 6, 1, 1, 1])
            let walk = groups[0].definitions[0]
            #expect(walk.text == "走、走路。")
            #expect(walk.examples == ["如：「直行」、「寸步難行」、「錦衣夜行」。"])
            #expect(walk.quotes.count == 2)
            #expect(entry.readings[3].groups.map(\.type) == [nil])
        }
    }

    @Test(arguments: StorageEngine.allCases) func lookupKeepsSynonymsAntonymsAndLinksAsLists(_ engine: StorageEngine) async throws {
        try await Fixture.withDictionary(engine, importing: Fixture.samplePath) { dictionary async throws in
            let expert = try #require(try await dictionary.lookup("行家").first)
            let senses = expert.readings.flatMap(\.definitions)
            #expect(senses.contains { $0.synonyms == ["內行"] && $0.antonyms == ["外行"] })
            #expect(senses.contains { $0.links == ["也稱為「經紀人家」、「牙行」。"] })
            let action = try #require(try await dictionary.lookup(" 行動 ").first)
            // The source's "1.步履" names this sense, its only one: the number goes, the word stays.
            #expect(action.readings[0].definitions[0].synonyms == ["活動", "舉動", "舉止", "行徑", "行為", "步履"])
        }
    }

    @Test(arguments: StorageEngine.allCases) func lookupOfAnUnknownTitleSuggestsTitlesWithTheSameFirstCharacterFirst(_ engine: StorageEngine) async throws {
        try await Fixture.withDictionary(engine, importing: Fixture.samplePath) { dictionary async throws in
            do {
                _ = try await dictionary.lookup("行李箱")
                Issue.record("an unknown title was found")
            } catch MOEError.unknownTitle(let title, let suggestions) {
                #expect(title == "行李箱")
                #expect(suggestions.first == "行李")
                #expect(suggestions.count <= 8)
                #expect(suggestions.prefix(5).allSatisfy { $0.hasPrefix("行") })
            }
            // No title starts with 走, but 行 words share its other characters.
            let similar = try await dictionary.suggestions(for: "走行人")
            #expect(similar.contains("行人"))
            #expect(try await dictionary.suggestions(for: "").isEmpty)
        }
    }

    @Test(arguments: StorageEngine.allCases) func searchCandidatesAreTitlesContainingTheTextAndReadingsContinuingTheKey(_ engine: StorageEngine) async throws {
        try await Fixture.withDictionary(engine, importing: Fixture.samplePath) { dictionary async throws in
            let found = try await dictionary.searchCandidates(title: "行", pinyinKey: ReadingKey.pinyin("xing"), bopomofoKey: "")
            let titles = found.filter { $0.field == .title }.map(\.title).sorted()
            #expect(titles == ["行", "行人", "行使", "行動", "行家", "行將就木", "行政院農業委員會", "行書", "行李", "行為", "行話"].sorted())
            let readings = found.filter { $0.field == .pinyin }.sorted { $0.heteronymID! < $1.heteronymID! }
            #expect(readings.map(\.heteronymID!) == [10, 11, 12, 25, 28, 29, 30, 32, 43, 44, 45, 46, 47, 48, 50, 51, 52, 54, 56])
            #expect(readings.first { $0.heteronymID == 45 }.map { [$0.title, $0.reading, $0.matched] } == ["行人", "xíng rén", "xing ren"])
            #expect(try await dictionary.searchCandidates(title: "", pinyinKey: "", bopomofoKey: "").isEmpty)
        }
    }

    @Test(arguments: StorageEngine.allCases) func searchGlossesAreTheFirstPinyinAndSenseOfAnEntryOrTheFirstSenseOfAReading(_ engine: StorageEngine) async throws
    {
        try await Fixture.withDictionary(engine, importing: Fixture.samplePath) { dictionary async throws in
            let glosses = try await dictionary.searchGlosses(entries: [33], readings: [30])
            #expect(glosses.entries[33]?.pinyin == "háng jia")
            #expect(glosses.entries[33]?.definition?.hasPrefix("專家，內行的人。") == true, "\(String(describing: glosses.entries[33]?.definition))")
            #expect(glosses.readings[30] == "走、走路。", "\(String(describing: glosses.readings[30]))")
            #expect(try await dictionary.searchGlosses(entries: [], readings: []) == SearchGlosses())
        }
    }

    @Test(arguments: StorageEngine.allCases) func strokesListsCharactersOfThatCountByTitle(_ engine: StorageEngine) async throws {
        try await Fixture.withDictionary(engine, importing: Fixture.samplePath) { dictionary async throws in
            let six = try await dictionary.characters(strokes: 6, limit: 200)
            #expect(six.total == 6)
            #expect(six.characters.map(\.title) == ["休", "好", "汗", "江", "池", "行"])
            let xing = try #require(six.characters.last)
            #expect(xing.pinyin == ["xíng", "háng", "xìng", "hàng"])
            #expect(xing.definition == "走、走路。")

            let limited = try await dictionary.characters(strokes: 6, limit: 2)
            #expect(limited.total == 6 && limited.characters.map(\.title) == ["休", "好"])
            #expect(try await dictionary.characters(strokes: 6, radical: "水", limit: 200).characters.map(\.title) == ["汗", "江", "池"])
            #expect(try await dictionary.characters(strokes: 6, radical: "氵", limit: 200).characters.map(\.title) == ["汗", "江", "池"])
            #expect(try await dictionary.characters(strokes: 9, radical: "行", limit: 200).characters.map(\.title) == ["衍"])
            #expect(try await dictionary.characters(strokes: 99, limit: 200) == CharacterList(total: 0, limit: 200, characters: []))
        }
    }

    @Test(arguments: StorageEngine.allCases) func radicalListsByStrokesBeyondTheRadicalThenTitle(_ engine: StorageEngine) async throws {
        try await Fixture.withDictionary(engine, importing: Fixture.samplePath) { dictionary async throws in
            let water = try await dictionary.characters(radical: "水", limit: 200)
            #expect(water.characters.map(\.title) == ["水", "永", "汁", "求", "汗", "江", "池", "汪", "泳", "海"])
            #expect(water.characters.map(\.nonRadicalStrokeCount) == [0, 1, 2, 2, 3, 3, 3, 4, 5, 7])
            // Variant shapes and the Kangxi Radicals block find the same characters.
            #expect(try await dictionary.characters(radical: "氵", limit: 200) == water)
            #expect(try await dictionary.characters(radical: "\u{2F54}", limit: 200) == water)
            let walk = try await dictionary.characters(radical: "行", limit: 3)
            #expect(walk.total == 8 && walk.characters.map(\.title) == ["行", "衍", "術"])
            #expect(try await dictionary.characters(radical: "龜", limit: 200).total == 0)
            #expect(try await dictionary.radical(of: "海") == "水")
            #expect(try await dictionary.radical(of: "行人") == nil)
        }
    }

    @Test func radicalFormsFoldWhatNFKCFoldsIntoARadical() {
        // The Kangxi Radicals block, a circled ideograph and a Hangzhou numeral, as Foundation's
        // NFKC maps them; white space around is dropped, other text kept as typed.
        #expect(RadicalForm.candidates(" \u{2F54}\n") == ["\u{2F54}", "水"])
        #expect(RadicalForm.candidates("\u{2F00}") == ["\u{2F00}", "一"])
        #expect(RadicalForm.candidates("\u{2FD5}") == ["\u{2FD5}", "龠"])
        #expect(RadicalForm.candidates("\u{328C}") == ["\u{328C}", "水"])
        #expect(RadicalForm.candidates("\u{3038}") == ["\u{3038}", "十"])
        #expect(RadicalForm.candidates("氵") == ["氵", "水"])
        #expect(RadicalForm.candidates("行") == ["行"])
        #expect(RadicalForm.candidates("\u{3000}") == [])
    }

    @Test(arguments: StorageEngine.allCases) func pinyinSearchIgnoresTones(_ engine: StorageEngine) async throws {
        try await Fixture.withDictionary(engine, importing: Fixture.samplePath) { dictionary async throws in
            let matches = try await dictionary.search(pinyin: "xing", limit: 30).readings
            let exact = matches.filter(\.exact)
            #expect(Set(exact.compactMap(\.pinyin)) == ["xíng", "xìng", "xǐng", "xīng", "（又音）xīng"])
            #expect(Set(exact.map(\.title)) == ["形", "性", "星", "省", "興", "行", "醒"])
            #expect(matches.prefix(exact.count).allSatisfy { $0.exact }, "whole readings come first")
            // Then words that start with the syllable: fewer syllables first, then alphabetically.
            #expect(matches.dropFirst(exact.count).map(\.pinyin).prefix(3) == ["xíng dòng", "xíng lǐ", "xíng rén"])
            #expect(matches.last?.title == "行政院農業委員會")
            #expect(matches.contains { $0.title == "行政院農業委員會" })
            #expect(try await dictionary.search(pinyin: "xíng", limit: 30).readings == matches)
            #expect(try await dictionary.search(pinyin: "XING2", limit: 30).readings == matches)
            #expect(try await dictionary.search(pinyin: "xing", limit: 3).readings.count == 3)
            #expect(try await dictionary.search(pinyin: "xing ren", limit: 30).readings.map(\.title) == ["行人"])
            #expect(try await dictionary.search(pinyin: "xin", limit: 30).readings.isEmpty, "a key matches whole syllables")
        }
    }

    @Test(arguments: StorageEngine.allCases) func pinyinSearchTreatsVAndUmlautAlike(_ engine: StorageEngine) async throws {
        try await Fixture.withDictionary(engine, importing: Fixture.samplePath) { dictionary async throws in
            for query in ["lv", "lü", "lǜ", "lu:"] {
                #expect(try await dictionary.search(pinyin: query, limit: 30).readings.map(\.title) == ["綠"], "\(query)")
            }
            #expect(try await dictionary.search(pinyin: "nv", limit: 30).readings.map(\.pinyin) == ["nǚ", "nǜ"])
            #expect(try await dictionary.search(pinyin: "lu", limit: 30).readings.map(\.pinyin) == ["（讀音）lù"])
        }
    }

    @Test(arguments: StorageEngine.allCases) func bopomofoSearchIgnoresTones(_ engine: StorageEngine) async throws {
        try await Fixture.withDictionary(engine, importing: Fixture.samplePath) { dictionary async throws in
            let plain = try await dictionary.search(bopomofo: "ㄒㄧㄥ", limit: 30).readings
            // Bopomofo keys sort in zhuyin order, so compare the readings found, not their order.
            let byPinyin = try await dictionary.search(pinyin: "xing", limit: 30).readings
            #expect(plain.map(\.title).sorted() == byPinyin.map(\.title).sorted())
            #expect(plain.filter(\.exact) == byPinyin.filter(\.exact))
            #expect(try await dictionary.search(bopomofo: "ㄒㄧㄥˊ", limit: 30).readings == plain)
            #expect(try await dictionary.search(bopomofo: "ㄒㄧㄥˊ　ㄖㄣˊ", limit: 30).readings.map(\.title) == ["行人"])
            #expect(try await dictionary.search(bopomofo: "xing", limit: 30).readings.isEmpty)
        }
    }

    // MARK: paging and tones (issue 16)

    @Test(arguments: StorageEngine.allCases) func everyListingPagesWithTotalOffsetAndLimit(_ engine: StorageEngine) async throws {
        try await Fixture.withDictionary(engine, importing: Fixture.samplePath) { dictionary async throws in
            let all = try await dictionary.search(pinyin: "xing", limit: 100)
            #expect(all.total == 19 && all.readings.count == 19 && all.offset == 0 && all.limit == 100)
            var paged: [ReadingMatch] = []
            for offset in stride(from: 0, to: 25, by: 5) {
                let page = try await dictionary.search(pinyin: "xing", limit: 5, offset: offset)
                #expect(page.total == 19 && page.offset == offset && page.limit == 5)
                paged += page.readings
            }
            #expect(paged == all.readings, "pages in order make the whole list, nothing twice or missed")
            #expect(
                try await dictionary.search(bopomofo: "ㄒㄧㄥ", limit: 4, offset: 16).readings
                    == Array(try await dictionary.search(bopomofo: "ㄒㄧㄥ", limit: 100).readings.suffix(3)))

            let six = try await dictionary.characters(strokes: 6, limit: 200)
            let (first, second) = (try await dictionary.characters(strokes: 6, limit: 4), try await dictionary.characters(strokes: 6, limit: 4, offset: 4))
            #expect(first.total == 6 && second.total == 6 && second.offset == 4)
            #expect(first.characters + second.characters == six.characters)
            let water = try await dictionary.characters(radical: "水", limit: 200)
            #expect(try await dictionary.characters(radical: "氵", limit: 3, offset: 9).characters == Array(water.characters.suffix(1)))
            #expect(try await dictionary.characters(radical: "水", limit: 3, offset: 10).characters.isEmpty)
        }
    }

    @Test(arguments: StorageEngine.allCases) func tonesNarrowTheSearchOnlyWhenAskedAndTyped(_ engine: StorageEngine) async throws {
        try await Fixture.withDictionary(engine, importing: Fixture.samplePath) { dictionary async throws in
            func titles(_ list: ReadingMatchList) -> [String] { list.readings.map(\.title) }
            // Ignored by default: xing2 finds every tone.
            #expect(try await dictionary.search(pinyin: "xing2", limit: 100).total == 19)
            let second = try await dictionary.search(pinyin: "xing2", tones: .exact, limit: 100)
            #expect(second.total == 11)
            #expect(second.readings.allSatisfy { $0.pinyin?.hasPrefix("xíng") == true })
            #expect(try await dictionary.search(pinyin: "xíng", tones: .exact, limit: 100) == second)
            #expect(try await dictionary.search(bopomofo: "ㄒㄧㄥˊ", tones: .exact, limit: 100).readings.map(\.title).sorted() == titles(second).sorted())
            // Paging counts what the tones leave.
            #expect(try await dictionary.search(pinyin: "xing2", tones: .exact, limit: 4, offset: 8).readings == Array(second.readings.suffix(3)))
            // First tone, in pinyin and in zhuyin (where an unmarked syllable is first tone), the variant reading included.
            #expect(Set(titles(try await dictionary.search(pinyin: "xīng", tones: .exact, limit: 100))) == ["星", "興", "醒"])
            #expect(Set(titles(try await dictionary.search(bopomofo: "ㄒㄧㄥ", tones: .exact, limit: 100))) == ["星", "興", "醒"])
            #expect(titles(try await dictionary.search(pinyin: "xing3", tones: .exact, limit: 100)).sorted() == ["省", "醒"])
            // A syllable typed without a tone matches any; the neutral tone is 5 (˙ in zhuyin).
            #expect(titles(try await dictionary.search(pinyin: "xing ren2", tones: .exact, limit: 100)) == ["行人"])
            #expect(titles(try await dictionary.search(pinyin: "xing ren4", tones: .exact, limit: 100)) == [])
            #expect(titles(try await dictionary.search(pinyin: "hang jia5", tones: .exact, limit: 100)) == ["行家"])
            #expect(titles(try await dictionary.search(pinyin: "hang jia1", tones: .exact, limit: 100)) == [])
            #expect(titles(try await dictionary.search(bopomofo: "ㄏㄤˊ　˙ㄐㄧㄚ", tones: .exact, limit: 100)) == ["行家"])
            #expect(titles(try await dictionary.search(pinyin: "lu4", tones: .exact, limit: 100)) == ["綠"])
            #expect(titles(try await dictionary.search(pinyin: "lv4", tones: .exact, limit: 100)) == ["綠"])
            #expect(try await dictionary.search(pinyin: "lv3", tones: .exact, limit: 100).total == 0)
        }
    }

    @Test func syllableTonesFollowTheKeysSyllables() {
        #expect(ReadingKey.syllableTones("xíng zheng4", pinyin: true) == [[2], [4]])
        #expect(ReadingKey.syllableTones("xing", pinyin: true) == [[]])
        #expect(ReadingKey.syllableTones("（又音）xīng", pinyin: true) == [[1]])
        #expect(ReadingKey.syllableTones("Lu:4", pinyin: true) == [[4]])
        #expect(ReadingKey.syllableTones("ㄒㄧㄥˊ　˙ㄗ", pinyin: false) == [[2], [5]])
        #expect(ReadingKey.syllableTones("ㄒㄧㄥ", pinyin: false) == [[]])
        for text in ["xíng zhèng yuàn", "（讀音）lù", "hang2 jia5", "Xī'ān"] {
            #expect(ReadingKey.syllableTones(text, pinyin: true).count == ReadingKey.pinyin(text).split(separator: " ").count, "\(text)")
        }
    }

    @Test func openingWithoutAnImportSaysHowToImport() throws {
        let home = try TemporaryDirectory("moe-none")
        defer { home.remove() }
        let path = home.file("moe.sqlite")
        #expect(throws: MOEError.notImported(database: path)) { try MOEDictionary(path: path) }
        #expect(MOEError.notImported(database: path).description.contains("vocab import moe PATH"))
        try home.write("moe.sqlite", "not a database")
        #expect(throws: MOEError.incompatibleDatabase(path)) { try MOEDictionary(path: path) }
    }
}

@Suite("EntryText: the reader's layout")
struct EntryTextTests {
    @Test(arguments: StorageEngine.allCases) func numbersReadingsAndGroupsSensesUnderTheirPartOfSpeech(_ engine: StorageEngine) async throws {
        try await Fixture.withDictionary(engine, importing: Fixture.samplePath) { dictionary async throws in
            let lines = EntryText.lines(try #require(try await dictionary.lookup("行").first))
            #expect(lines[0] == "行    radical 行, 6 strokes (0 beyond the radical)")
            for expected in [
                "(一) xíng  ㄒㄧㄥˊ", "(二) háng  ㄏㄤˊ", "(三) xìng  ㄒㄧㄥˋ", "(四) hàng  ㄏㄤˋ",
                "  〔動〕 verb", "    1. 走、走路。", "       如：「直行」、「寸步難行」、「錦衣夜行」。", "  〔連〕 conjunction",
            ] {
                #expect(lines.contains(expected), "missing \(expected)")
            }
            #expect(lines.last == "  參見「行行」、「樹行子」等條。")
        }
    }

    @Test(arguments: StorageEngine.allCases) func showsSynonymsAntonymsAndLinks(_ engine: StorageEngine) async throws {
        try await Fixture.withDictionary(engine, importing: Fixture.samplePath) { dictionary async throws in
            let lines = EntryText.lines(try #require(try await dictionary.lookup("行家").first))
            #expect(lines[0] == "行家")
            #expect(lines.contains { $0.hasSuffix("synonyms: 內行") })
            #expect(lines.contains { $0.hasSuffix("antonyms: 外行") })
            #expect(lines.contains { $0.hasSuffix("也稱為「經紀人家」、「牙行」。") })
        }
    }

    @Test func writesReadingNumbersInChinese() {
        #expect([1, 4, 10, 12, 20, 35].map(EntryText.chineseNumber) == ["一", "四", "十", "十二", "二十", "三十五"])
    }
}

/// 一定, 晚生, 侲 and {[98ab]}佬族, cut from the real dictionary (Fixtures/ATTRIBUTION.md).
@Suite("Mandarin entries as learners read them (issue 16), on both engines")
struct LearnerReadingTests {
    static var issue16Path: String { Bundle.module.resourceURL!.appendingPathComponent("Fixtures/dict-revised-issue16.json").path }

    @Test(arguments: StorageEngine.allCases) func numberedSynonymsAndAntonymsGoToTheirSense(_ engine: StorageEngine) async throws {
        try await Fixture.withDictionary(engine, importing: LearnerReadingTests.issue16Path) { dictionary async throws in
            // The source writes "不定　3.未必  4.大概" on senses 1 and 2.
            let senses = try #require(try await dictionary.lookup("一定").first?.readings.first?.definitions)
            #expect(senses.map(\.antonyms) == [["不定"], ["不定"], ["未必"], ["大概"]])
            #expect(senses.allSatisfy { $0.synonyms.isEmpty })
        }
    }

    @Test func senseNumbersOutsideTheReadingStayAsWritten() {
        let senses = [Definition(type: nil, text: "a", synonyms: ["甲", "2.乙", "9.丙"]), Definition(type: nil, text: "b", synonyms: ["2.乙"])]
        #expect(SenseNumbers.attach(senses).map(\.synonyms) == [["甲", "9.丙"], ["乙"]])
        #expect(SenseNumbers.split("3．未必")! == (3, "未必"))
        #expect(SenseNumbers.split("3D") == nil && SenseNumbers.split("3.") == nil)
    }

    @Test(arguments: StorageEngine.allCases) func anEmptyRadicalAndZeroStrokesAreAbsent(_ engine: StorageEngine) async throws {
        try await Fixture.withDictionary(engine, importing: LearnerReadingTests.issue16Path) { dictionary async throws in
            let entry = try #require(try await dictionary.lookup("晚生").first)
            #expect(entry.radical == nil && entry.strokeCount == nil && entry.nonRadicalStrokeCount == nil)
            #expect(EntryText.lines(entry).first == "晚生")
            let xing = try #require(try await dictionary.lookup("侲").first)
            #expect(EntryText.lines(xing).first == "侲    radical 人, 9 strokes (7 beyond the radical)")
        }
    }

    @Test(arguments: StorageEngine.allCases) func glyphPlaceholdersShowAsOneMarkInTextAndStayInData(_ engine: StorageEngine) async throws {
        try await Fixture.withDictionary(engine, importing: LearnerReadingTests.issue16Path) { dictionary async throws in
            let entry = try #require(try await dictionary.lookup("{[98ab]}佬族").first)
            #expect(entry.title == "{[98ab]}佬族")
            #expect(entry.readings.first?.definitions.first?.text.contains("羅城{[98ab]}佬族自治縣") == true)
            let text = EntryText.lines(entry).joined(separator: "\n")
            #expect(text.hasPrefix("〓佬族") && text.contains("羅城〓佬族自治縣") && !text.contains("{["))
            let quote = EntryText.lines(try #require(try await dictionary.lookup("侲").first)).joined(separator: "\n")
            #expect(quote.contains("「虜〓侲，驅騾驢。」"))

            #expect(MissingGlyph.shown("a{[97d2]}b{[fc7a]}") == "a〓b〓")
            #expect(MissingGlyph.shown("{[2a6a5]}") == "〓", "five hex digits")
            for kept in ["{[97d]}", "{[97d2]", "{[zzzz]}", "{97d2}", "{[97d2a6]}"] { #expect(MissingGlyph.shown(kept) == kept) }
        }
    }
}

@Suite("Mandarin compounds and random entries (issue 16), on both engines")
struct CompoundAndRandomTests {
    @Test(arguments: StorageEngine.allCases) func compoundsStartWithTheCharacterFirstAndArePaged(_ engine: StorageEngine) async throws {
        try await Fixture.withDictionary(engine, importing: Fixture.samplePath) { dictionary async throws in
            let all = try await dictionary.compounds(of: "行", limit: 100)
            #expect(all.total == 10)
            #expect(all.characters.map(\.title) == ["行人", "行使", "行動", "行家", "行書", "行李", "行為", "行話", "行將就木", "行政院農業委員會"])
            #expect(try await dictionary.compounds(of: "行", limit: 4, offset: 8).characters.map(\.title) == ["行將就木", "行政院農業委員會"])
            #expect(try await dictionary.compounds(of: "政院", limit: 100).characters.map(\.title) == ["行政院農業委員會"], "contains, not only starts with")
            #expect(try await dictionary.compounds(of: "行政院農業委員會", limit: 100).total == 0, "not the title itself")
            #expect(all.characters.first?.pinyin == ["xíng rén"])
        }
    }

    @Test(arguments: StorageEngine.allCases) func randomEntriesAreReproducibleFromTheirSeed(_ engine: StorageEngine) async throws {
        try await Fixture.withDictionary(engine, importing: Fixture.samplePath) { dictionary async throws in
            func draw(_ seed: UInt64, _ count: Int) async throws -> [String] {
                var generator = SeededGenerator(seed: seed)
                return try await dictionary.randomEntries(count: count, using: &generator).map(\.title)
            }
            let five = try await draw(7, 5)
            #expect(five.count == 5 && Set(five).count == 5)
            #expect(try await draw(7, 5) == five)
            #expect(try await draw(8, 5) != five)
            #expect(Set(try await draw(1, 100)).count == 40, "never more than the dictionary has, each once")
        }
    }
}
