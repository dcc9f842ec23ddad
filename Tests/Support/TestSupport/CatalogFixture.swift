import Foundation

/// Category files for tests, built one way for every suite: a word's JSON, a category file's
/// JSON, and ready-made small catalogs.
public enum CatalogFixture {
    public static let allLevels = ["starters", "movers", "flyers"]

    /// One word as a category file has it. `ipa` defaults to the word itself and `definition` to
    /// "a <word>"; `extra` is spliced in after the last field (e.g. `, "audio": {...}`).
    public static func word(
        _ word: String, levels: [String] = allLevels, category: String = "animals", vi: String = "con vật",
        ipa: String? = nil, definition: String? = nil, pos: String = "noun", extra: String = ""
    ) -> String {
        let examples = levels.map { "\"\($0)\": \"A \(word) sentence for \($0).\"" }.joined(separator: ", ")
        let levelList = levels.map { "\"\($0)\"" }.joined(separator: ", ")
        let ipa = ipa ?? word
        return """
            {"word": "\(word)", "levels": [\(levelList)], "categories": ["\(category)"], "pos": ["\(pos)"],
             "ipa": {"british": "\(ipa)", "american": "\(ipa)"}, "vi": "\(vi)",
             "definition": {"en": "\(definition ?? "a \(word)")", "vi": "\(vi)"}, "examples": {\(examples)}\(extra)}
            """
    }

    /// A category file; the English name defaults to the id, capitalised.
    public static func category(_ id: String, name: String? = nil, vi: String? = nil, order: Int, words: [String]) -> String {
        """
        {"id": "\(id)", "name": {"en": "\(name ?? id.capitalized)", "vi": "\(vi ?? id)"}, "icon": "🐾", "color": "#112233",
         "order": \(order), "words": [\(words.joined(separator: ",\n"))]}
        """
    }

    /// A two-category catalog: animals (cat, dog, elephant) and food (apple, cake).
    public static func small(in dir: TemporaryDirectory, folder: String = "Categories") throws {
        try dir.write(
            "\(folder)/animals.json",
            category(
                "animals", order: 1,
                words: [
                    word("cat", vi: "con mèo"), word("dog", vi: "con chó"), word("elephant", levels: ["movers", "flyers"], vi: "con voi"),
                ]))
        try dir.write(
            "\(folder)/food.json",
            category(
                "food", order: 2,
                words: [
                    word("apple", category: "food", vi: "quả táo"), word("cake", levels: ["flyers"], category: "food", vi: "bánh ngọt"),
                ]))
    }
}
