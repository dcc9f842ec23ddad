import Testing

@testable import AnkiExport

@Suite struct ChecksumTests {
    @Test(arguments: [
        ("", UInt32(0)),
        ("123456789", UInt32(0xCBF4_3926)),
        ("The quick brown fox jumps over the lazy dog", UInt32(0x414F_A339)),
    ])
    func crc32KnownVectors(input: String, crc: UInt32) {
        #expect(CRC32.checksum(Array(input.utf8)) == crc)
    }

    @Test func crc32Incremental() {
        let bytes = Array("The quick brown fox jumps over the lazy dog".utf8)
        var crc = CRC32()
        crc.update(bytes[..<10])
        crc.update(bytes[10...])
        #expect(crc.value == 0x414F_A339)
    }

    /// Expected values from `anki.utils.field_checksum` / `strip_html_media` (anki 26.09.3).
    @Test(arguments: [
        ("cat", "cat", Int64(2_644_024_973)),
        ("<b>cat</b>", "cat", Int64(2_644_024_973)),
        ("cat&nbsp;&amp;", "cat &", Int64(3_317_264_839)),
        ("<img src=\"cat.jpg\">", " cat.jpg ", Int64(54_041_269)),
        ("<IMG class=x src='dog 1.png' alt=\"a>b\">", " dog 1.png b\">", Int64(3_960_979_151)),
        ("猫 māo", "猫 māo", Int64(758_544_979)),
        ("a<!-- x -->b<style>p{}</style>c", "abc", Int64(2_845_392_438)),
        ("[sound:cat.wav] cat", "[sound:cat.wav] cat", Int64(795_951_236)),
        ("x &#x732B; &#29483; &lt;&gt;", "x 猫 猫 <>", Int64(2_861_781_881)),
        ("a < b", "a < b", Int64(3_350_909_118)),
        ("<b>bold", "bold", Int64(3_384_240_871)),
    ])
    func fieldChecksumMatchesAnki(field: String, stripped: String, csum: Int64) {
        #expect(AnkiText.stripHTMLPreservingMediaFilenames(field) == stripped)
        #expect(AnkiText.fieldChecksum(field) == csum)
    }

    @Test func guidIsStableAndAnkiStyle() {
        let guid = AnkiGUID.stable(for: "catalog:animals:cat")
        // base91 of the first 8 bytes of SHA-1("catalog:animals:cat"), via anki.utils.base91.
        #expect(guid == "H5U.A[=+tF")
        #expect(AnkiGUID.stable(for: "catalog:animals:cat") == guid)
        #expect(AnkiGUID.stable(for: "catalog:animals:dog") != guid)
        let alphabet = Set(AnkiGUID.base91)
        #expect(guid.allSatisfy(alphabet.contains))
        #expect(AnkiGUID.encode(0) == "a")
        #expect(AnkiGUID.encode(90) == "~")
        #expect(AnkiGUID.encode(91) == "ba")
    }

    @Test func soundReferencesAndEmptyFields() {
        #expect(AnkiText.soundReferences(in: "[sound:a.ogg] x [sound:b c.wav][sound:]") == ["a.ogg", "b c.wav"])
        #expect(AnkiText.fieldIsEmpty(" <br> <div></div>\n"))
        #expect(AnkiText.fieldIsEmpty(""))
        #expect(!AnkiText.fieldIsEmpty("<b></b>"))
        #expect(!AnkiText.fieldIsEmpty("x"))
    }

    @Test func fieldsAreNormalizedLikeAnki() {
        // NFD "é" becomes NFC; control characters other than tab and newline go.
        // Compared as bytes: String's `==` would call NFD and NFC equal.
        #expect(Array(AnkiText.normalizedField("e\u{301}\u{1F}a\tb\nc\u{7}").utf8) == Array("\u{E9}a\tb\nc".utf8))
    }

    @Test func templateFieldReferences() {
        let names = TemplateFields.referencedNames(
            in: "{{Word}} {{ text:Meaning }} {{#Audio}}{{Audio}}{{/Audio}} {{FrontSide}} {{tts en_US:Word}} {{Tags}}")
        #expect(names == ["Word", "Meaning", "Audio"])
    }
}
