import Testing

@testable import AnkiExport

@Suite struct ChecksumTests {
    @Test(arguments: [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
        ("The quick brown fox jumps over the lazy dog", "2fd4e1c67a2d28fced849ee1bb76e7391b93eb12"),
        ("猫🐈", "3ad83f333e44f3734590c53c140b805cc479fe81"),
    ])
    func sha1KnownVectors(input: String, hex: String) {
        #expect(SHA1.hex(Array(input.utf8)) == hex)
    }

    /// Lengths around the 55/56/64-byte padding boundaries (values from Python's hashlib).
    @Test(arguments: [
        (55, "c1c8bbdc22796e28c0e15163d20899b65621d65a"),
        (56, "c2db330f6083854c99d4b5bfb6e8f29f201be699"),
        (63, "03f09f5b158a7a8cdad920bddc29b81c18a551f5"),
        (64, "0098ba824b5c16427bd7a1122a5a442a25ec644d"),
        (65, "11655326c708d70319be2610e8a57d9a5b959d3b"),
        (119, "ee971065aaa017e0632a8ca6c77bb3bf8b1dfc56"),
        (120, "f34c1488385346a55709ba056ddd08280dd4c6d6"),
    ])
    func sha1PaddingBoundaries(length: Int, hex: String) {
        #expect(SHA1.hex([UInt8](repeating: UInt8(ascii: "a"), count: length)) == hex)
    }

    @Test func sha1MillionAsInUnevenPieces() {
        var sha = SHA1()
        var remaining = 1_000_000
        var piece = 1
        while remaining > 0 {
            let n = min(piece, remaining)
            sha.update([UInt8](repeating: UInt8(ascii: "a"), count: n))
            remaining -= n
            piece = piece % 97 + 13
        }
        let hex = sha.finalize().map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        #expect(hex == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

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
