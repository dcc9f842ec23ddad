import Foundation
import JSONReading
import SQLiteDB
import TestSupport
import Testing

@testable import Mandarin

@Suite("MOEImporter: building moe.sqlite")
struct ImporterTests {
    @Test func importsTheSampleWithItsCounts() throws {
        let home = try TemporaryDirectory("moe-import")
        defer { home.remove() }
        var phases: [ImportProgress] = []
        let importer = MOEImporter(databasePath: home.file("moe.sqlite")) { phases.append($0) }
        let outside = ContinuousClock.now
        let summary = try importer.importFile(at: Fixture.samplePath)
        let outsideSeconds = Self.seconds(ContinuousClock.now - outside)
        #expect(summary.entries == Fixture.sampleEntries)
        #expect(summary.heteronyms == Fixture.sampleHeteronyms)
        #expect(summary.definitions == Fixture.sampleDefinitions)
        #expect(summary.database == home.file("moe.sqlite"))
        // The time reported is the import's own, in seconds: some, and no more than the call took.
        #expect(summary.seconds > 0 && summary.seconds <= outsideSeconds)
        #expect(phases.suffix(2) == [.indexing, .finishing])

        let db = try Database(path: home.file("moe.sqlite"), mode: .readOnly)
        #expect(try db.scalar("SELECT count(*) FROM entry")?.intValue == Int64(Fixture.sampleEntries))
        #expect(try db.scalar("SELECT count(*) FROM heteronym")?.intValue == Int64(Fixture.sampleHeteronyms))
        #expect(try db.scalar("SELECT count(*) FROM definition")?.intValue == Int64(Fixture.sampleDefinitions))
        #expect(try db.scalar("PRAGMA user_version")?.intValue == Int64(MOESchema.version))
        #expect(try db.scalar("SELECT value FROM meta WHERE key = 'entries'")?.textValue == "40")
        #expect(try db.scalar("SELECT value FROM meta WHERE key = 'source'")?.textValue == "dict-revised-sample.json")
        #expect(try db.scalar("PRAGMA integrity_check")?.textValue == "ok")
    }

    @Test func timesTheImportFromTheInstantTheCallerGives() throws {
        // `vocab import moe` starts the clock before it maps the file; the summary counts from there.
        let home = try TemporaryDirectory("moe-import")
        defer { home.remove() }
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Fixture.samplePath)))
        let outside = ContinuousClock.now
        let summary = try bytes.withUnsafeBufferPointer { buffer in
            try MOEImporter(databasePath: home.file("moe.sqlite"))
                .importJSON(buffer, source: "sample", started: outside - .seconds(5))
        }
        let outsideSeconds = Self.seconds(ContinuousClock.now - outside)
        #expect(summary.seconds > 5 && summary.seconds <= 5 + outsideSeconds)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    @Test func createsTheIndexesTheQueriesUse() throws {
        let home = try TemporaryDirectory("moe-import")
        defer { home.remove() }
        _ = try MOEImporter(databasePath: home.file("moe.sqlite")).importFile(at: Fixture.samplePath)
        let db = try Database(path: home.file("moe.sqlite"), mode: .readOnly)
        let names = try db.query("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name") { $0.text(0) ?? "" }
        #expect(
            names == [
                "definition_heteronym", "entry_radical", "entry_strokes", "entry_title",
                "heteronym_bopomofo", "heteronym_entry", "heteronym_pinyin",
            ])
        func plan(_ sql: String, _ values: [SQLValue]) throws -> String {
            try db.query("EXPLAIN QUERY PLAN " + sql, values) { $0.text(3) ?? "" }.joined(separator: "; ")
        }
        #expect(try plan("SELECT id FROM entry WHERE title = ?", [.text("行")]).contains("entry_title"))
        #expect(try plan("SELECT id FROM entry WHERE stroke_count = ? ORDER BY title", [.integer(6)]).contains("entry_strokes"))
        #expect(try plan("SELECT id FROM entry WHERE radical = ? ORDER BY non_radical_stroke_count, title", [.text("水")]).contains("entry_radical"))
        #expect(try plan("SELECT id FROM heteronym WHERE pinyin_key >= ? AND pinyin_key < ?", [.text("xing"), .text("xing!")]).contains("heteronym_pinyin"))
        #expect(
            try plan("SELECT id FROM heteronym WHERE bopomofo_key >= ? AND bopomofo_key < ?", [.text("ㄒㄧㄥ"), .text("ㄒㄧㄥ!")]).contains("heteronym_bopomofo"))
    }

    @Test func preservesTheStructureOfEveryEntry() throws {
        let home = try TemporaryDirectory("moe-import")
        defer { home.remove() }
        _ = try MOEImporter(databasePath: home.file("moe.sqlite")).importFile(at: Fixture.samplePath)
        let db = try Database(path: home.file("moe.sqlite"), mode: .readOnly)

        let xing = try db.query(
            """
            SELECT e.radical, e.stroke_count, e.non_radical_stroke_count, h.pinyin, h.bopomofo, h.pinyin_key, h.bopomofo_key
            FROM entry e JOIN heteronym h ON h.entry_id = e.id WHERE e.title = '行' ORDER BY h.id
            """
        ) { row in (0..<7).map { row.value($0) } }
        #expect(xing.count == 4)
        #expect(xing.map { $0[3].textValue } == ["xíng", "háng", "xìng", "hàng"])
        #expect(xing.map { $0[4].textValue } == ["ㄒㄧㄥˊ", "ㄏㄤˊ", "ㄒㄧㄥˋ", "ㄏㄤˋ"])
        #expect(xing.map { $0[5].textValue } == ["xing", "hang", "xing", "hang"])
        #expect(xing.map { $0[6].textValue } == ["ㄒㄧㄥ", "ㄏㄤ", "ㄒㄧㄥ", "ㄏㄤ"])
        #expect(xing[0][0] == .text("行") && xing[0][1] == .integer(6) && xing[0][2] == .integer(0))

        // The first sense of 行 keeps one example and two quotes as JSON arrays.
        let first = try db.query(
            """
            SELECT d.type, d.def, d.example, d.quote, d.link FROM definition d JOIN heteronym h ON h.id = d.heteronym_id
            JOIN entry e ON e.id = h.entry_id WHERE e.title = '行' ORDER BY d.id LIMIT 1
            """
        ) { row in (0..<5).map { row.text($0) } }.first
        #expect(first?[0] == "動" && first?[1] == "走、走路。")
        #expect(first?[2] == #"["如：「直行」、「寸步難行」、「錦衣夜行」。"]"#)
        #expect(MOEDictionary.list(first?[3]) == ["《論語．述而》：「三人行，必有我師焉？」", "唐．王維〈終南別業〉詩：「行到水窮處，坐看雲起時。」"])
        #expect(first?[4] == nil)

        // Synonyms, antonyms and links stay lists; every stored list is valid JSON.
        let row = try db.query(
            """
            SELECT d.synonyms, d.antonyms FROM definition d JOIN heteronym h ON h.id = d.heteronym_id
            JOIN entry e ON e.id = h.entry_id WHERE e.title = '行為' AND d.synonyms IS NOT NULL
            """
        ) { [$0.text(0), $0.text(1)] }.first
        #expect(row == [#"["舉動","行動","行徑"]"#, #"["思想"]"#])
        let invalid = try db.scalar(
            """
            SELECT count(*) FROM definition WHERE NOT (json_valid(coalesce(example, '[]')) AND json_valid(coalesce(quote, '[]'))
              AND json_valid(coalesce(link, '[]')) AND json_valid(coalesce(synonyms, '[]')) AND json_valid(coalesce(antonyms, '[]')))
            """)
        #expect(invalid?.intValue == 0)
        #expect(try db.scalar("SELECT count(*) FROM definition WHERE link IS NOT NULL")?.intValue == 8)
        #expect(try db.scalar("SELECT sum(json_array_length(quote)) FROM definition")?.intValue ?? 0 > 100)

        // The one entry with escaped quotes is stored decoded.
        let mail = try db.scalar(
            """
            SELECT d.def FROM definition d JOIN heteronym h ON h.id = d.heteronym_id JOIN entry e ON e.id = h.entry_id
            WHERE e.title = '電子郵件地址'
            """)?.textValue
        #expect(mail?.contains(#""diction"為使用者網路的帳號"#) == true)
    }

    @Test func reimportReplacesThePreviousImportAsAWhole() throws {
        let home = try TemporaryDirectory("moe-import")
        defer { home.remove() }
        let path = home.file("moe.sqlite")
        _ = try MOEImporter(databasePath: path).importFile(at: Fixture.samplePath)
        // A reader that opened the first import keeps seeing it, whole, while the second replaces it.
        let before = try MOEDictionary(path: path)
        try home.write(
            "small.json",
            Fixture.document(
                #"{"title": "新", "heteronyms": [{"pinyin": "xīn", "bopomofo": "ㄒㄧㄣ", "definitions": [{"def": "剛出現的。", "type": "形"}]}]}"#))
        let summary = try MOEImporter(databasePath: path, force: true).importFile(at: home.file("small.json"))
        #expect(summary.entries == 1 && summary.heteronyms == 1 && summary.definitions == 1)

        #expect(try before.lookup("行").first?.readings.count == 4)
        let after = try MOEDictionary(path: path)
        #expect(try after.lookup("新").first?.readings.first?.pinyin == "xīn")
        #expect(throws: MOEError.self) { try after.lookup("行") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).sorted() == ["moe.sqlite", "small.json"])
    }

    @Test func aFailedImportKeepsThePreviousDatabaseAndLeavesNoTemporaryFile() throws {
        let home = try TemporaryDirectory("moe-import")
        defer { home.remove() }
        let path = home.file("moe.sqlite")
        _ = try MOEImporter(databasePath: path).importFile(at: Fixture.samplePath)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))

        // Valid entries first, so rows were already written to the temporary file when it fails.
        let good = #"{"title": "新", "heteronyms": []}"#
        try home.write("broken.json", "[" + good + ",\n" + good + ",\n" + #"{"title": "壞", "heteronyms": [{"pinyin": "huài",, }]}"# + "]")
        #expect(
            throws: MOEError.invalidJSON(
                file: home.file("broken.json"), message: "unexpected ',': expected a member name in double quotes",
                position: SourcePosition(line: 3, column: 49, offset: 124))
        ) {
            try MOEImporter(databasePath: path).importFile(at: home.file("broken.json"))
        }
        try home.write("shape.json", "[" + good + ",\n" + #"{"title": ["壞"]}"# + "]")
        #expect(
            throws: MOEError.unexpectedShape(
                file: home.file("shape.json"), message: "'title' must be a string, found an array",
                position: SourcePosition(line: 2, column: 11, offset: 47))
        ) {
            try MOEImporter(databasePath: path).importFile(at: home.file("shape.json"))
        }

        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
        #expect(try MOEDictionary(path: path).lookup("行").first?.readings.count == 4)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).sorted() == ["broken.json", "moe.sqlite", "shape.json"])
    }

    @Test func aFailedFirstImportCreatesNothing() throws {
        let home = try TemporaryDirectory("moe-import")
        defer { home.remove() }
        try home.write("truncated.json", String(decoding: try Data(contentsOf: URL(fileURLWithPath: Fixture.samplePath)).prefix(20_000), as: UTF8.self))
        #expect(throws: MOEError.self) { try MOEImporter(databasePath: home.file("moe.sqlite")).importFile(at: home.file("truncated.json")) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path) == ["truncated.json"])
        #expect(throws: MOEError.notImported(database: home.file("moe.sqlite"))) { try MOEDictionary(path: home.file("moe.sqlite")) }
    }

    @Test func reportsAMissingOrCompressedSource() throws {
        let home = try TemporaryDirectory("moe-import")
        defer { home.remove() }
        let importer = MOEImporter(databasePath: home.file("moe.sqlite"))
        #expect(throws: MOEError.sourceMissing(home.file("nope.json"))) { try importer.importFile(at: home.file("nope.json")) }
        #expect(throws: MOEError.unreadableSource(home.path, reason: "it is a folder")) { try importer.importFile(at: home.path) }
        try Data([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0x00]).write(to: URL(fileURLWithPath: home.file("d.json.xz")))
        do {
            _ = try importer.importFile(at: home.file("d.json.xz"))
            Issue.record("an xz file was accepted")
        } catch let MOEError.invalidJSON(_, message, position) {
            #expect(message.contains("xz -dk"))
            #expect(position == SourcePosition(line: 1, column: 1, offset: 0))
        }
    }

    @Test func refusesAnEmptyArrayUnlessForced() throws {
        let home = try TemporaryDirectory("moe-import")
        defer { home.remove() }
        let path = home.file("moe.sqlite")
        try home.write("empty.json", " [ ] \n")
        // Not even a first import: an empty dictionary is never what was meant.
        #expect(throws: MOEError.noEntries(file: home.file("empty.json"))) {
            try MOEImporter(databasePath: path).importFile(at: home.file("empty.json"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path) == ["empty.json"])
        _ = try MOEImporter(databasePath: path).importFile(at: Fixture.samplePath)
        #expect(throws: MOEError.noEntries(file: home.file("empty.json"))) {
            try MOEImporter(databasePath: path).importFile(at: home.file("empty.json"))
        }
        #expect(try MOEDictionary(path: path).lookup("行").first?.readings.count == 4)
        let summary = try MOEImporter(databasePath: path, force: true).importFile(at: home.file("empty.json"))
        #expect(summary.entries == 0 && summary.heteronyms == 0 && summary.definitions == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).sorted() == ["empty.json", "moe.sqlite"])
    }

    @Test func refusesToCutTheDictionaryToLessThanHalfUnlessForced() throws {
        let home = try TemporaryDirectory("moe-import")
        defer { home.remove() }
        let path = home.file("moe.sqlite")
        _ = try MOEImporter(databasePath: path).importFile(at: Fixture.samplePath)
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Fixture.samplePath))) as? [Any])
        func write(_ name: String, first count: Int) throws -> String {
            try JSONSerialization.data(withJSONObject: Array(entries.prefix(count))).write(to: URL(fileURLWithPath: home.file(name)))
            return home.file(name)
        }
        let nineteen = try write("19.json", first: 19)
        #expect(throws: MOEError.wouldShrink(file: nineteen, entries: 19, previous: 40)) {
            try MOEImporter(databasePath: path).importFile(at: nineteen)
        }
        #expect(try MOEDictionary(path: path).lookup("行").first?.readings.count == 4, "the previous import is kept")
        // Exactly half is allowed; the check compares with the dictionary in place, now 20.
        #expect(try MOEImporter(databasePath: path).importFile(at: try write("20.json", first: 20)).entries == 20)
        #expect(try MOEImporter(databasePath: path).importFile(at: try write("10.json", first: 10)).entries == 10)
        #expect(try MOEImporter(databasePath: path, force: true).importFile(at: try write("1.json", first: 1)).entries == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).filter { $0.hasPrefix("moe") } == ["moe.sqlite"])
    }

    @Test func theSizeRuleInFull() throws {
        #expect(throws: MOEError.noEntries(file: "f")) { try MOEImporter.checkSize(entries: 0, previous: nil, source: "f", force: false) }
        #expect(throws: MOEError.wouldShrink(file: "f", entries: 81_543, previous: 163_087)) {
            try MOEImporter.checkSize(entries: 81_543, previous: 163_087, source: "f", force: false)
        }
        try MOEImporter.checkSize(entries: 81_544, previous: 163_087, source: "f", force: false)
        try MOEImporter.checkSize(entries: 1, previous: nil, source: "f", force: false)
        try MOEImporter.checkSize(entries: 0, previous: 163_087, source: "f", force: true)
    }

    @Test func removesTheTemporariesOfKilledImportsButNotOfRunningOnes() throws {
        let home = try TemporaryDirectory("moe-import")
        defer { home.remove() }
        let finished = try ChildProcess.start("/bin/true", arguments: [])
        finished.waitUntilExit()
        let dead = finished.pid
        let stale = ["moe.sqlite.importing-\(dead)-1a2b3c4d", "moe.sqlite.importing-\(dead)-1a2b3c4d-journal"]
        // This test's own process is running: an import in progress elsewhere looks like this.
        let running = ["moe.sqlite.importing-\(getpid())-5e6f7a8b"]
        let unrelated = ["moe.sqlite.backup", "moe.sqlite.importing-notapid-1"]
        for name in stale + running + unrelated { try home.write(name, "partial") }
        _ = try MOEImporter(databasePath: home.file("moe.sqlite")).importFile(at: Fixture.samplePath)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).sorted() == (["moe.sqlite"] + running + unrelated).sorted())
    }

    @Test func readsFromAPipe() throws {
        // Not every path is a regular file that can be mapped: /dev/stdin, process substitution.
        let home = try TemporaryDirectory("moe-import")
        defer { home.remove() }
        let fifo = home.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let text = Fixture.document(#"{"title": "管", "heteronyms": [{"pinyin": "guǎn", "definitions": [{"def": "管子。"}]}]}"#)
        let writer = Thread {
            if let handle = FileHandle(forWritingAtPath: fifo) {
                handle.write(Data(text.utf8))
                try? handle.close()
            }
        }
        writer.start()
        let summary = try MOEImporter(databasePath: home.file("moe.sqlite")).importFile(at: fifo)
        #expect(summary.entries == 1 && summary.definitions == 1)
    }

    /// Thousands of entries: many batches through the queue between the two threads, several
    /// megabytes of mapped input given back as the import moves on, entries whose title comes
    /// before their readings (so it is held while later input is released), escapes and lists.
    @Test func importsADocumentOfManyBatchesExactly() throws {
        let home = try TemporaryDirectory("moe-import")
        defer { home.remove() }
        let count = 12_000
        var entries: [String] = []
        for i in 1...count {
            let title = "詞\(i)"
            let heteronyms = (0..<(i % 3)).map { h in
                let definitions = (0...(h + i % 2)).map { d in
                    #"{"def": "第\#(i)條第\#(h)音第\#(d)義，\"引\"。", "example": ["如：「\#(i)」。"], "synonyms": "甲\#(d),乙\#(d)"}"#
                }
                return #"{"bopomofo": "ㄒㄧㄥˊ", "definitions": [\#(definitions.joined(separator: ", "))], "pinyin": "xíng\#(h)"}"#
            }
            let padding = String(repeating: "。", count: 100)
            entries.append(
                i % 2 == 0
                    ? #"{"title": "\#(title)", "note": "\#(padding)", "heteronyms": [\#(heteronyms.joined(separator: ", "))]}"#
                    : #"{"heteronyms": [\#(heteronyms.joined(separator: ", "))], "note": "\#(padding)", "title": "\#(title)"}"#)
        }
        try home.write("many.json", "[" + entries.joined(separator: ",\n") + "]")
        var read: [Int] = []
        let summary = try MOEImporter(databasePath: home.file("moe.sqlite")) { phase in
            if case .reading(_, let entries) = phase { read.append(entries) }
        }.importFile(at: home.file("many.json"))
        // Progress comes from the inserting thread, once per batch of entries, up to the last.
        #expect(read.count > 5 && read == read.sorted() && read.last == count)
        let heteronyms = (1...count).reduce(0) { $0 + $1 % 3 }
        let definitions = (1...count).reduce(0) { sum, i in sum + (0..<(i % 3)).reduce(0) { $0 + $1 + i % 2 + 1 } }
        #expect(summary.entries == count && summary.heteronyms == heteronyms && summary.definitions == definitions)

        let db = try Database(path: home.file("moe.sqlite"), mode: .readOnly)
        // Ids follow document order in every table, and each row has its own values.
        #expect(try db.scalar("SELECT count(*) FROM entry WHERE title != '詞' || id")?.intValue == 0)
        #expect(try db.scalar("SELECT max(id) FROM definition")?.intValue == Int64(definitions))
        let mismatched = try db.scalar(
            """
            SELECT count(*) FROM definition d JOIN heteronym h ON h.id = d.heteronym_id JOIN entry e ON e.id = h.entry_id
            WHERE d.def != '第' || e.id || '條第' || substr(h.pinyin, 5) || '音第' || (d.id - (SELECT min(id) FROM definition WHERE heteronym_id = h.id)) || '義，"引"。'
               OR d.example != '["如：「' || e.id || '」。"]'
               OR d.synonyms != '["甲' || (d.id - (SELECT min(id) FROM definition WHERE heteronym_id = h.id)) || '","乙' || (d.id - (SELECT min(id) FROM definition WHERE heteronym_id = h.id)) || '"]'
            """)
        #expect(mismatched?.intValue == 0)
        #expect(try db.scalar("SELECT count(*) FROM heteronym WHERE pinyin_key != 'xing' OR bopomofo_key != 'ㄒㄧㄥ'")?.intValue == 0)
        #expect(try db.scalar("PRAGMA integrity_check")?.textValue == "ok")
    }

    @Test func anErrorAfterManyBatchesStopsBothThreadsAndLeavesNothing() throws {
        let home = try TemporaryDirectory("moe-import")
        defer { home.remove() }
        let good = #"{"heteronyms": [{"definitions": [{"def": "好。"}], "pinyin": "hǎo"}], "title": "好"}"#
        try home.write("late.json", "[" + Array(repeating: good, count: 20_000).joined(separator: ",\n") + ",\n" + #"{"title": 7}"# + "]")
        #expect(
            throws: MOEError.unexpectedShape(
                file: home.file("late.json"), message: "'title' must be a string, found a number",
                position: SourcePosition(line: 20_001, column: 11, offset: 20_000 * (good.utf8.count + 2) + 11))
        ) {
            try MOEImporter(databasePath: home.file("moe.sqlite")).importFile(at: home.file("late.json"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path) == ["late.json"])
    }

    @Test func theQueueStopsAWaitingParserWhenTheInserterGivesUp() throws {
        let queue = BatchQueue(capacity: 2)
        for _ in 0..<2 { try queue.send(RowBatch(table: .entry, rows: 1)) }
        // A third batch has to wait for room; cancelling wakes the parser with an error.
        let parser = try #require(
            JoinableThread.start {
                do {
                    try queue.send(RowBatch(table: .entry, rows: 1))
                    queue.finish(.finished(entries: 0, heteronyms: 0, definitions: 0))
                } catch {
                    queue.finish(.failed(error))
                }
            })
        queue.cancel()
        parser.join()
        var messages: [String] = []
        for _ in 0..<3 {
            switch queue.receive() {
            case .batch: messages.append("batch")
            case .finished: messages.append("finished")
            case .failed(let error): messages.append(error is LoadCancelled ? "cancelled" : "\(error)")
            }
        }
        #expect(messages == ["batch", "batch", "cancelled"])
    }
}
