import App
import AppCore
import Catalog
import Testing

@Suite("Failures as both front ends report them")
struct FailureClassifierTests {
    /// Text a user typed comes back in messages; a terminal must never receive its control
    /// characters as they are (ESC would start an escape sequence).
    @Test func userTextInEveryCatalogMessageIsQuoted() {
        let typed = "ca\u{1B}[31mt\u{07}\r"
        let errors: [any Error] = [
            CatalogError.badLevel(typed), CatalogError.unknownCategory(typed, suggestions: []),
            CatalogError.unknownWord(typed, suggestions: []),
        ]
        for error in errors {
            let failure = FailureClassifier.classify(error)
            #expect(!failure.description.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(error)")
            #expect(failure.description.contains("ca\\u{1B}[31mt"), "\(failure.description)")
        }
    }
}
