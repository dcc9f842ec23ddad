import Foundation
import SeededRandom
import Testing

@testable import TextMatching

@Suite("Searching a string's bytes")
struct ByteSearchTests {
    @Test("finds a needle at the start, in the middle, at the end, and not where it is cut short")
    func positions() {
        #expect(#"{"sense":{"en":"ride"}}"#.containsBytes(#""sense""#))
        #expect(#"{"word":"lift","sense":1}"#.containsBytes(#""sense""#))
        #expect(#"{"word":"lift","x":"sense""#.containsBytes(#""sense""#))
        #expect(!#"{"word":"lift","x":"sens"#.containsBytes(#""sense""#))
        #expect(!"".containsBytes("a") && "".containsBytes("") && "abc".containsBytes(""))
        #expect("ssense".containsBytes("sense") && !"sens".containsBytes("sense"))
    }

    @Test("agrees with the standard contains on text in several scripts, bridged or not")
    func agreesWithContains() {
        var random = SeededGenerator(seed: 45)
        let pieces = ["a", "b", "é", "e\u{301}", "猫", "🐈", "\"", "s", "sense", "\"sense\"", "ng", "ươ"]
        for _ in 0..<2000 {
            let text = (0..<Int(random.next() % 12)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            // "\"sense\"" and "ng" are ASCII: bytes and Characters agree on where they occur.
            #expect(text.containsBytes(#""sense""#) == text.contains(#""sense""#), "\(text)")
            #expect(text.containsBytes("ng") == text.contains("ng"), "\(text)")
            let bridged = NSString(string: text) as String
            #expect(bridged.containsBytes(#""sense""#) == text.contains(#""sense""#))
        }
    }
}
