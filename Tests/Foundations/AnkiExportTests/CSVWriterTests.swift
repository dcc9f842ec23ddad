import Testing

@testable import AnkiExport

@Suite struct CSVWriterTests {
    @Test func headerAndRows() {
        let type = AnkiNoteType(
            id: 1, name: "Basic", fields: ["Front", "Back"],
            templates: [.init(name: "Card 1", front: "{{Front}}", back: "{{Back}}")])
        let text = AnkiCSVWriter.text(
            noteType: type, deckName: "Vocab::Animals",
            notes: [
                AnkiNote(guid: "abc", fields: ["cat", "feline"], tags: ["animals", "HSK 1"])
            ])
        #expect(
            text == """
                #separator:Tab
                #html:true
                #columns:guid\tFront\tBack\ttags
                #deck:Vocab::Animals
                #notetype:Basic
                #guid column:1
                #tags column:4
                abc\tcat\tfeline\tanimals HSK_1

                """)
    }

    @Test(arguments: [
        ("plain", "plain"),
        ("", ""),
        ("tab\there", "\"tab\there\""),
        ("line\nbreak", "\"line\nbreak\""),
        ("cr\rhere", "\"cr\rhere\""),
        ("crlf\r\nhere", "\"crlf\r\nhere\""),
        ("say \"hi\"", "\"say \"\"hi\"\"\""),
        ("#hash first", "\"#hash first\""),
        ("hash # later", "hash # later"),
        ("semi;colon, comma", "semi;colon, comma"),
    ])
    func quoting(_ value: String, _ expected: String) {
        #expect(AnkiCSVWriter.quoted(value) == expected)
    }

    /// Anki's base91 guids may start with '#'; unquoted, the whole row would be a comment.
    @Test func guidStartingWithHashIsQuoted() {
        let type = AnkiNoteType(
            id: 1, name: "Basic", fields: ["Front", "Back"],
            templates: [.init(name: "Card 1", front: "{{Front}}", back: "{{Back}}")])
        let text = AnkiCSVWriter.text(noteType: type, deckName: "D", notes: [AnkiNote(guid: "#x1", fields: ["a", "b"])])
        #expect(text.hasSuffix("\n\"#x1\"\ta\tb\t\n"))
    }

    @Test func headerValuesStayOnOneLine() {
        let type = AnkiNoteType(
            id: 1, name: "Two\nLines", fields: ["Front"],
            templates: [.init(name: "Card 1", front: "{{Front}}", back: "")])
        let text = AnkiCSVWriter.text(noteType: type, deckName: "A\r\nB", notes: [])
        #expect(text.contains("#deck:A B\n"))
        #expect(text.contains("#notetype:Two Lines\n"))
    }
}
