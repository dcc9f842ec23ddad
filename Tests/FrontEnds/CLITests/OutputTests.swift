import Testing

@testable import CLICore

@Suite("Text the terminal shows")
struct OutputTests {
    @Test("a text's width counted by scalars is its width counted by characters")
    func widthByScalarsIsWidthByCharacters() {
        let texts = [
            "", "cat", "/ˈænɪməl/", "/θɪŋ/", "/ðə/", "Σ σ", "кот", "bat · animal", "con mèo", "Động vật", "e\u{301}", "a\u{308}b",
            "\r\n", "猫", "🐾 Animals", "👩‍👩‍👧", "🇻🇳", "♥\u{FE0F}", "x\u{200D}y", "ʰ\u{303}",
        ]
        for text in texts {
            #expect(Output.displayWidth(text) == Output.characterWidth(text), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        #expect(Output.displayWidth("/ˈænɪməl/") == 9)
        #expect(Output.displayWidth("猫") == 2)
    }
}
