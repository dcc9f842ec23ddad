import Foundation

/// Data for the learning tests: a small catalog, and recorded-style answers of the online
/// dictionary (dictionaryapi.dev format) and the random-word service.
public enum LearningFixtures {
    /// Two categories with enough words per (category, level) for four-option questions.
    /// animals: cat dog fish bird horse (all levels), elephant lion (movers, flyers);
    /// food: apple cake bread milk egg "ice cream" (all levels).
    public static func writeCatalog(in dir: TemporaryDirectory, folder: String = "Categories") throws {
        func word(
            _ w: String, _ ipa: String, _ vi: String, _ definition: String, levels: [String] = CatalogFixture.allLevels,
            category: String = "animals"
        ) -> String {
            CatalogFixture.word(w, levels: levels, category: category, vi: vi, ipa: ipa, definition: definition)
        }
        try dir.write(
            "\(folder)/animals.json",
            CatalogFixture.category(
                "animals", vi: "Động vật", order: 1,
                words: [
                    word("cat", "kæt", "con mèo", "a small furry animal that people keep as a pet"),
                    word("dog", "dɒɡ", "con chó", "an animal that barks"),
                    word("fish", "fɪʃ", "con cá", "an animal that lives in water"),
                    word("bird", "bɜːd", "con chim", "an animal with feathers and wings"),
                    word("horse", "hɔːs", "con ngựa", "a big animal that people ride"),
                    word("elephant", "ˈelɪfənt", "con voi", "a very big grey animal with a trunk", levels: ["movers", "flyers"]),
                    word("lion", "ˈlaɪən", "sư tử", "a big wild cat", levels: ["movers", "flyers"]),
                ]))
        try dir.write(
            "\(folder)/food.json",
            CatalogFixture.category(
                "food", vi: "Đồ ăn", order: 2,
                words: [
                    word("apple", "ˈæpl", "quả táo", "a round fruit", category: "food"),
                    word("cake", "keɪk", "bánh ngọt", "a sweet food made in an oven", category: "food"),
                    word("bread", "bred", "bánh mì", "a food made from flour", category: "food"),
                    word("milk", "mɪlk", "sữa", "a white drink from cows", category: "food"),
                    word("egg", "eɡ", "quả trứng", "a round thing that birds lay", category: "food"),
                    word("ice cream", "ˌaɪs ˈkriːm", "kem", "a cold sweet food", category: "food"),
                ]))
    }

    /// dictionaryapi.dev's answer for "cat" (trimmed to two meanings).
    public static let catEntry = """
        [{"word":"cat","phonetic":"/kæt/","phonetics":[{"text":"/kæt/","audio":"https://api.dictionaryapi.dev/media/pronunciations/en/cat-uk.mp3"}],
          "meanings":[
            {"partOfSpeech":"noun","definitions":[
              {"definition":"An animal of the family Felidae.","synonyms":[],"antonyms":[]},
              {"definition":"A domesticated species (Felis catus) of feline animal, commonly kept as a house pet.","example":"The cat sat on the mat.","synonyms":["kitty","puss"],"antonyms":[]}],
             "synonyms":["kitty"],"antonyms":[]},
            {"partOfSpeech":"verb","definitions":[
              {"definition":"To hoist (the anchor) by its ring so that it hangs at the cathead.","synonyms":[],"antonyms":[]}],
             "synonyms":[],"antonyms":[]}],
          "license":{"name":"CC BY-SA 3.0","url":"https://creativecommons.org/licenses/by-sa/3.0"},
          "sourceUrls":["https://en.wiktionary.org/wiki/cat"]}]
        """

    /// dictionaryapi.dev's answer for "happy".
    public static let happyEntry = """
        [{"word":"happy","phonetic":"/ˈhæpi/","phonetics":[{"text":"/ˈhæpi/","audio":""}],
          "meanings":[
            {"partOfSpeech":"adjective","definitions":[
              {"definition":"Having a feeling arising from a consciousness of well-being or of enjoyment.","example":"Youth is the happiest time of life.","synonyms":["cheerful","glad"],"antonyms":["sad"]},
              {"definition":"Experiencing the effect of favourable fortune; favored by fortune.","synonyms":[],"antonyms":[]}],
             "synonyms":["cheerful","content","glad"],"antonyms":["sad","unhappy"]},
            {"partOfSpeech":"verb","definitions":[
              {"definition":"To become happy.","synonyms":[],"antonyms":[]}],
             "synonyms":[],"antonyms":[]}],
          "sourceUrls":["https://en.wiktionary.org/wiki/happy"]}]
        """

    /// dictionaryapi.dev's answer for "serendipity" (a word the catalog lacks).
    public static let serendipityEntry = """
        [{"word":"serendipity","phonetic":"/ˌsɛɹənˈdɪpɪti/","phonetics":[{"text":"/ˌsɛɹənˈdɪpɪti/"}],
          "meanings":[{"partOfSpeech":"noun","definitions":[
            {"definition":"A combination of events which have come together by chance to make a surprisingly good or wonderful outcome.","synonyms":[],"antonyms":[]}],
           "synonyms":["chance","fluke"],"antonyms":[]}],
          "sourceUrls":["https://en.wiktionary.org/wiki/serendipity"]}]
        """

    /// dictionaryapi.dev's answer for "ice cream", asked for as ice%20cream.
    public static let iceCreamEntry = """
        [{"word":"ice cream","phonetic":"/ˈaɪs ˌkɹiːm/","phonetics":[],
          "meanings":[{"partOfSpeech":"noun","definitions":[
            {"definition":"A dessert made from frozen sweetened cream or a similar substance.","synonyms":[],"antonyms":[]}],
           "synonyms":[],"antonyms":[]}]}]
        """

    /// dictionaryapi.dev's 404 body.
    public static let notFound = """
        {"title":"No Definitions Found","message":"Sorry pal, we couldn't find definitions for the word you were looking for.","resolution":"You can try the search again at later time or head to the web instead."}
        """

    /// The dictionaryapi.dev path of a word.
    public static func entryPath(_ word: String, lang: String = "en") -> String {
        "/api/v2/entries/\(lang)/\(word.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? word)"
    }

    /// A dictionaryapi.dev lookalike: the entries above, 404 for anything else.
    public static func dictionaryResponse(_ path: String) -> LoopbackHTTPServer.Response {
        let bodies = [
            entryPath("cat"): catEntry, entryPath("happy"): happyEntry,
            entryPath("serendipity"): serendipityEntry, entryPath("ice cream"): iceCreamEntry,
        ]
        if let body = bodies[path] { return .text(body, type: "application/json") }
        return .text(notFound, status: 404, type: "application/json")
    }

    /// random-word-api's answer for /word?number=5&lang=en.
    public static let randomWords = #"["lantern","meadow","quiver","saffron","tundra"]"#
}
