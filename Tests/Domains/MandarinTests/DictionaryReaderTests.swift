import JSONReading
import Testing

@testable import Mandarin

@Suite("DictionaryReader: the dict-revised.json shape")
struct DictionaryReaderTests {
    @Test func readsEntriesReadingsAndDefinitionsWithIdsInDocumentOrder() throws {
        let sink = try RecordingSink.read(
            Fixture.document(
                #"{"heteronyms": [{"bopomofo": "ㄒㄧㄥˊ", "definitions": [{"def": "走。", "type": "動"}, {"def": "道路。", "type": "名"}], "pinyin": "xíng"}, {"bopomofo": "ㄏㄤˊ", "definitions": [{"def": "行列。"}], "pinyin": "háng"}], "non_radical_stroke_count": 0, "radical": "行", "stroke_count": 6, "title": "行"}"#,
                #"{"heteronyms": [{"bopomofo": "ㄒㄧㄥˊ　ㄖㄣˊ", "definitions": [{"def": "走路的人。"}], "pinyin": "xíng rén"}], "title": "行人"}"#))
        #expect(
            sink.entries == [
                .init(id: 1, title: "行", radical: "行", strokes: 6, rest: 0),
                .init(id: 2, title: "行人", radical: nil, strokes: nil, rest: nil),
            ])
        #expect(
            sink.heteronyms == [
                .init(id: 1, entryID: 1, pinyin: "xíng", bopomofo: "ㄒㄧㄥˊ"),
                .init(id: 2, entryID: 1, pinyin: "háng", bopomofo: "ㄏㄤˊ"),
                .init(id: 3, entryID: 2, pinyin: "xíng rén", bopomofo: "ㄒㄧㄥˊ　ㄖㄣˊ"),
            ])
        #expect(sink.definitions.map(\.heteronymID) == [1, 1, 2, 3])
        #expect(sink.definitions.map(\.text) == ["走。", "道路。", "行列。", "走路的人。"])
        #expect(sink.definitions.map(\.type) == ["動", "名", nil, nil])
    }

    @Test func keepsListsAsJSONArrays() throws {
        let sink = try RecordingSink.read(
            Fixture.document(
                #"{"heteronyms": [{"definitions": [{"def": "d", "example": ["如：「甲」。", "如：「乙」。"], "quote": ["《書》：「丙」"], "link": ["通「丁」。"], "synonyms": "活動,舉動﹑舉止\u3000步履，行徑", "antonyms": "放棄"}]}], "title": "t"}"#
            ))
        let d = try #require(sink.definitions.first)
        #expect(d.examples == #"["如：「甲」。","如：「乙」。"]"#)
        #expect(d.quotes == #"["《書》：「丙」"]"#)
        #expect(d.links == #"["通「丁」。"]"#)
        #expect(d.synonyms == #"["活動","舉動","舉止","步履","行徑"]"#)
        #expect(d.antonyms == #"["放棄"]"#)
    }

    @Test func acceptsTheVariationsOfPublishedFiles() throws {
        // Lists as single strings, synonyms as an array, counts as digit strings, nulls, and
        // keys this importer does not use.
        let sink = try RecordingSink.read(
            Fixture.document(
                #"{"id": "a1", "title": "字", "radical": "子", "stroke_count": "6", "non_radical_stroke_count": null, "translation": {"English": ["character", "word"], "Deutsch": ["Schrift"]}, "heteronyms": [{"id": 7, "audio_id": "0001", "pinyin": "zì", "bopomofo": null, "definitions": [{"def": "文字。", "type": null, "example": "如：「字母」。", "quote": null, "synonyms": ["文字", "字母"], "antonyms": "", "extra": [1, {"x": true}]}]}]}"#,
                #"{"title": "空", "heteronyms": null}"#,
                #"{"title": "無", "heteronyms": [{"definitions": null}]}"#))
        #expect(sink.entries.map(\.title) == ["字", "空", "無"])
        #expect(sink.entries[0].strokes == 6 && sink.entries[0].rest == nil)
        #expect(sink.heteronyms.first == .init(id: 1, entryID: 1, pinyin: "zì", bopomofo: nil))
        let d = try #require(sink.definitions.first)
        #expect(d.examples == #"["如：「字母」。"]"#)
        #expect(d.quotes == nil && d.antonyms == nil && d.type == nil)
        #expect(d.synonyms == #"["文字","字母"]"#)
        #expect(sink.definitions.count == 1 && sink.heteronyms.count == 2)
    }

    @Test func keepsEscapesValidInsideStoredLists() throws {
        let sink = try RecordingSink.read(
            Fixture.document(#"{"title": "q", "heteronyms": [{"definitions": [{"def": "a \"b\"", "example": ["say \"hi\"\\n"]}]}]}"#))
        #expect(sink.definitions.first?.text == #"a "b""#)
        #expect(MOEDictionary.list(sink.definitions.first?.examples) == [#"say "hi"\n"#])

        // Synonyms are split after decoding, then escaped again; a literal U+3000 splits too.
        let split = try RecordingSink.read(
            Fixture.document(
                #"{"title": "q", "heteronyms": [{"definitions": [{"def": "d", "synonyms": "甲\"乙\",丙\t丁", "antonyms": "戊"# + "\u{3000}" + #"己"}]}]}"#))
        #expect(split.definitions.first?.synonyms == #"["甲\"乙\"","丙","丁"]"#)
        #expect(MOEDictionary.list(split.definitions.first?.synonyms) == ["甲\"乙\"", "丙", "丁"])
        #expect(split.definitions.first?.antonyms == #"["戊","己"]"#)
    }

    struct ShapeCase: CustomStringConvertible, Sendable {
        let json: String
        let message: String
        let line: Int
        let column: Int
        var description: String { message }
    }

    static let shapeCases: [ShapeCase] = [
        ShapeCase(json: #"{"title": "行"}"#, message: "the file must be a JSON array of entries, found an object", line: 1, column: 1),
        ShapeCase(json: "[\n\"行\"]", message: "each entry must be an object, found a string", line: 2, column: 1),
        ShapeCase(json: "[{\"title\": 6}]", message: "'title' must be a string, found a number", line: 1, column: 12),
        ShapeCase(json: "[{\"title\": \"\"}]", message: "'title' must be a non-empty string", line: 1, column: 12),
        ShapeCase(json: "[{\"heteronyms\": []},\n {\"radical\": \"水\"}]", message: "entry 1 has no 'title'", line: 1, column: 2),
        ShapeCase(json: "[{\"title\": \"a\"}, {\"heteronyms\": {}}]", message: "'heteronyms' must be an array, found an object", line: 1, column: 33),
        ShapeCase(
            json: "[{\"title\": \"a\", \"heteronyms\": [\"x\"]}]", message: "each item of 'heteronyms' must be an object, found a string", line: 1, column: 32),
        ShapeCase(
            json: "[{\"title\": \"a\", \"heteronyms\": [{\"definitions\": \"走\"}]}]", message: "'definitions' must be an array, found a string", line: 1,
            column: 48),
        ShapeCase(
            json: "[{\"title\": \"a\", \"heteronyms\": [{\"definitions\": [1]}]}]", message: "each item of 'definitions' must be an object, found a number",
            line: 1, column: 49),
        ShapeCase(
            json: "[{\"title\": \"a\", \"heteronyms\": [{\"pinyin\": [\"a\"]}]}]", message: "'pinyin' must be a string, found an array", line: 1, column: 43),
        ShapeCase(
            json: "[{\"title\": \"a\", \"heteronyms\": [{\"definitions\": [{\"def\": {}}]}]}]", message: "'def' must be a string, found an object", line: 1,
            column: 57),
        ShapeCase(
            json: "[{\"title\": \"a\", \"heteronyms\": [{\"definitions\": [{\"example\": [1]}]}]}]",
            message: "items of 'example' must be strings, found a number", line: 1, column: 62),
        ShapeCase(
            json: "[{\"title\": \"a\", \"heteronyms\": [{\"definitions\": [{\"quote\": 5}]}]}]",
            message: "'quote' must be a string or an array of strings, found a number", line: 1, column: 59),
        ShapeCase(
            json: "[{\"title\": \"a\", \"stroke_count\": \"six\"}]", message: "'stroke_count' must be a whole number, found \"six\"", line: 1, column: 33),
        ShapeCase(json: "[{\"title\": \"a\", \"stroke_count\": 6.5}]", message: "'stroke_count' must be a whole number, found 6.5", line: 1, column: 33),
        ShapeCase(json: "[{\"title\": \"a\", \"radical\": true}]", message: "'radical' must be a string, found true or false", line: 1, column: 28),
    ]

    @Test(arguments: shapeCases)
    func refusesAWrongShapeAtTheOffendingValue(_ c: ShapeCase) throws {
        do {
            _ = try RecordingSink.read(c.json)
            Issue.record("no error for \(c.json)")
        } catch let error as JSONError {
            #expect(error.kind == .shape)
            #expect(error.message == c.message)
            let position = Fixture.withBytes(c.json) { SourcePosition(offset: error.offset, in: $0) }
            #expect(position.line == c.line && position.column == c.column, "\(position)")
        }
    }

    @Test func syntaxErrorsInsideEntriesStaySyntaxErrors() throws {
        #expect(throws: JSONError(.syntax, "unexpected '}': expected a value", at: 27)) {
            _ = try RecordingSink.read(#"[{"title": "a", "radical": }]"#)
        }
    }
}

@Suite("ReadingKey: tone-free search keys")
struct ReadingKeyTests {
    @Test(arguments: [
        ("xíng", "xing"), ("xìng", "xing"), ("xǐng", "xing"), ("xīng", "xing"), ("XÍNG", "xing"),
        ("xíng rén", "xing ren"), ("xíng\u{3000}rén", "xing ren"), ("  xing   ren ", "xing ren"),
        ("（又音）xīng", "xing"), ("（讀音）lù", "lu"), ("(讀音)lù", "lu"),
        ("lǜ", "lv"), ("lü", "lv"), ("lv4", "lv"), ("LÜ", "lv"), ("nu:3", "nv"), ("nu\u{308}", "nv"), ("nǚ", "nv"),
        ("xing2", "xing"), ("xi'an", "xi an"), ("Xī’ān", "xi an"), ("ề", "e"), ("ｘｉｎｇ", "xing"), ("ḿ", "m"),
        ("děng\u{3000}yī\u{3000}huǐr\u{3000}(變)děng\u{3000}yì\u{3000}huěr", "deng yi huir"),
        ("行", ""), ("123", ""),
    ])
    func pinyin(_ input: String, _ key: String) {
        #expect(ReadingKey.pinyin(input) == key)
    }

    @Test(arguments: [
        ("ㄒㄧㄥˊ", "ㄒㄧㄥ"), ("ㄒㄧㄥ", "ㄒㄧㄥ"), ("˙ㄌㄜ", "ㄌㄜ"), ("ㄒㄧㄥˊ\u{3000}ㄓㄥˋ", "ㄒㄧㄥ ㄓㄥ"),
        ("（又音）ㄒㄧㄥ", "ㄒㄧㄥ"), ("（語音）˙ㄇㄣ", "ㄇㄣ"), ("ㄌㄩˋ", "ㄌㄩ"),
        ("ㄉㄥˇ\u{3000}｜ˋ", "ㄉㄥ ㄧ"), ("ㄍㄜˋ\u{3000}(變)ㄍㄜ", "ㄍㄜ"), ("xing", ""),
    ])
    func bopomofo(_ input: String, _ key: String) {
        #expect(ReadingKey.bopomofo(input) == key)
    }
}
