import Foundation
import Testing

@testable import TextMatching

@Suite("Accent folding for search")
struct SearchTextTests {
    /// What the fold must equal: canonical decomposition with the marks dropped.
    func foundationFold(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars
        where scalar.properties.generalCategory != .nonspacingMark {
            out.append(scalar == "đ" ? "d" : scalar)
        }
        return String(out)
    }

    @Test func agreesWithCanonicalDecompositionOverLatinLetters() {
        let ranges: [ClosedRange<UInt32>] = [0x20...0x7E, 0xC0...0x24F, 0x1E00...0x1EFF]
        for range in ranges {
            for value in range {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let text = String(Character(scalar))
                #expect(SearchText.fold(text) == foundationFold(text), "U+\(String(value, radix: 16, uppercase: true)) \(text)")
            }
        }
    }

    @Test func foldsVietnameseToPlainLetters() {
        #expect(SearchText.fold("Con Mèo") == "con meo")
        #expect(SearchText.fold("đường phố") == "duong pho")
        #expect(SearchText.fold("Người nhện") == "nguoi nhen")
        // Already decomposed input (a combining grave after e) folds the same way.
        #expect(SearchText.fold("me\u{300}o") == "meo")
    }
}
