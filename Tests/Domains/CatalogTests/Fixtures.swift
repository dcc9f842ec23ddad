import Foundation
import TestSupport

/// Small, hand-written category files for tests that need to control the data.
enum Fixture {
    static func word(_ word: String, levels: [String] = ["starters", "movers", "flyers"], category: String = "animals",
                     vi: String = "con vật", extra: String = "") -> String {
        let examples = levels.map { "\"\($0)\": \"A \(word) sentence for \($0).\"" }.joined(separator: ", ")
        let levelList = levels.map { "\"\($0)\"" }.joined(separator: ", ")
        return """
        {"word": "\(word)", "levels": [\(levelList)], "categories": ["\(category)"], "pos": ["noun"],
         "ipa": {"british": "\(word)", "american": "\(word)"}, "vi": "\(vi)",
         "definition": {"en": "a \(word)", "vi": "một \(vi)"}, "examples": {\(examples)}\(extra)}
        """
    }

    static func category(_ id: String, order: Int, words: [String]) -> String {
        """
        {"id": "\(id)", "name": {"en": "\(id.capitalized)", "vi": "\(id)"}, "icon": "🐾", "color": "#112233",
         "order": \(order), "words": [\(words.joined(separator: ",\n"))]}
        """
    }

    /// A two-category catalog: animals (cat, dog, elephant) and food (apple, cake).
    static func smallCatalog(in dir: TemporaryDirectory) throws {
        try dir.write("Categories/animals.json", category("animals", order: 1, words: [
            word("cat", vi: "con mèo"), word("dog", vi: "con chó"), word("elephant", levels: ["movers", "flyers"], vi: "con voi"),
        ]))
        try dir.write("Categories/food.json", category("food", order: 2, words: [
            word("apple", category: "food", vi: "quả táo"), word("cake", levels: ["flyers"], category: "food", vi: "bánh ngọt"),
        ]))
    }
}
