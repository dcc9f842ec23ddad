import Catalog
import Foundation
import TestSupport
import Testing

@Suite("The real Categories/ data")
struct CatalogDataTests {
    @Test func realCategoriesAreValid() throws {
        let files = try CatalogSource(directory: Repository.categories).read().files
        let (decoded, issues) = CatalogValidator().validate(files)
        #expect(issues.isEmpty, "\(issues.prefix(10))")
        #expect(decoded.count == 20)
        #expect(Set(decoded.map(\.order)) == Set(1...20))
        let words = decoded.flatMap(\.words)
        #expect(words.count > 1_000, "the catalog should hold the YLE lists, about 1,400 words")
        for level in Level.allCases {
            #expect(words.contains { $0.firstLevel == level }, "no word introduced at \(level)")
        }
    }

    @Test func everyHeadwordWithSeveralEntriesHasADistinctSenseLabelInBothLanguages() throws {
        let words = try CatalogSource(directory: Repository.categories).read().files.flatMap { file in
            try JSONDecoder().decode(CategoryFile.self, from: file.data).words
        }
        let byHeadword = Dictionary(grouping: words) { $0.word.lowercased() }.filter { $0.value.count > 1 }
        #expect(byHeadword.count >= 8, "bat, fly, back, fall, lift, may, wave, cold at least")
        for (headword, entries) in byHeadword.sorted(by: { $0.key < $1.key }) {
            for entry in entries {
                #expect(entry.sense != nil, "\(headword) (\(entry.categories[0])) has no sense label")
            }
            let labels = entries.compactMap(\.sense)
            #expect(Set(labels.map(\.en)).count == entries.count, "\(headword): \(labels)")
            #expect(Set(labels.map(\.vi)).count == entries.count, "\(headword): \(labels)")
        }
        let bats = words.filter { $0.word == "bat" }
        #expect(Set(bats.compactMap(\.picture)) == ["🦇", "🏏"], "each sense has its own picture")
    }

    /// The 2018 lists give these senses at different levels (Starters "so dis", Flyers "so adv +
    /// conj"; Movers "catch (e.g. a bus)"; Flyers "letter (as in mail)" …): each is an entry
    /// introduced at its own level, so no sense starts at another sense's level.
    @Test(arguments: [
        ("bat", "sports", Level.starters), ("bat", "animal", .movers), ("fly", "in the air", .starters), ("fly", "insect", .movers),
        ("wave", "hand", .starters), ("wave", "sea", .movers), ("so", "to start talking", .starters), ("so", "because of this", .flyers),
        ("break", "rest time", .movers), ("break", "into pieces", .flyers), ("fish", "animal", .starters), ("fish", "catch fish", .movers),
        ("catch", "a ball", .starters), ("catch", "a bus", .movers), ("letter", "a, b, c", .starters), ("letter", "mail", .flyers),
        ("lift", "elevator", .movers), ("lift", "raise", .flyers), ("lift", "ride", .flyers), ("well", "to start talking", .starters),
        ("well", "in a good way", .movers), ("who", "question", .starters), ("who", "the person that", .movers),
        ("which", "question", .starters), ("which", "the thing that", .movers), ("where", "question", .starters),
        ("where", "the place that", .movers), ("for", "for someone", .starters), ("for", "how long", .flyers),
        ("right", "correct", .starters), ("right", "direction", .flyers), ("how", "question", .starters), ("how", "the way", .movers),
        ("floor", "ground of a room", .starters), ("floor", "level of a building", .movers),
    ])
    func aSenseStartsAtTheLevelTheListsGiveIt(headword: String, sense: String, level: Level) throws {
        let words = try CatalogSource(directory: Repository.categories).read().files.flatMap { file in
            try JSONDecoder().decode(CategoryFile.self, from: file.data).words
        }
        let entry = try #require(words.first { $0.word == headword && $0.sense?.en == sense }, "no entry '\(headword) · \(sense)'")
        #expect(entry.firstLevel == level)
        #expect(entry.orderedExamples.map(\.0) == Level.allCases.filter { $0 >= level }, "one example per level from \(level)")
    }

    @Test func picturesCoverTheConcreteTopicsAndAreSingleEmoji() throws {
        let files = try CatalogSource(directory: Repository.categories).read().files.map { try JSONDecoder().decode(CategoryFile.self, from: $0.data) }
        let words = Dictionary(uniqueKeysWithValues: files.map { ($0.id, $0.words) })
        #expect(words["animals"]?.first { $0.word == "cat" }?.picture == "🐈")
        for (category, least) in [("animals", 0.7), ("weather", 0.7), ("food-and-drink", 0.5), ("transport", 0.5)] {
            let all = words[category] ?? []
            let share = Double(all.filter { $0.picture != nil || $0.image != nil }.count) / Double(max(1, all.count))
            #expect(share >= least, "\(category): \(share)")
        }
        // Abstract words stay without one.
        for word in ["about", "because", "which", "think"] {
            #expect(words["everyday-words"]?.first { $0.word == word }.map { $0.picture == nil } ?? true, "\(word)")
        }
    }

    @Test func ipaIsDictionaryIPANotTTSNotation() throws {
        let words = try CatalogSource(directory: Repository.categories).read().files.flatMap { file in
            try JSONDecoder().decode(CategoryFile.self, from: file.data).words
        }
        let cat = try #require(words.first { $0.word == "cat" })
        #expect(cat.ipa.british == "kæt")
        // espeak-style notation uses ASCII stand-ins such as "a#" or "3:"; dictionary IPA does not.
        for w in words {
            #expect(!w.ipa.british.contains(where: { "#:0123456789@".contains($0) }), "\(w.word): \(w.ipa.british)")
        }
    }
}

@Suite("Validation names the file and the word")
struct ValidatorTests {
    func issues(_ files: [(String, String)]) -> [String] {
        CatalogValidator().validate(files.map { ($0.0, Data($0.1.utf8)) }).issues.map(\.description)
    }

    @Test("a headword with entries in two files needs a sense on each, in both languages, and no two alike")
    func entriesOfOneHeadwordSayWhichSense() {
        func catalog(_ animal: String, _ sport: String) -> [String] {
            issues([
                ("animals.json", CatalogFixture.category("animals", order: 1, words: [CatalogFixture.word("bat", extra: animal)])),
                ("sports.json", CatalogFixture.category("sports", order: 2, words: [CatalogFixture.word("Bat", category: "sports", extra: sport)])),
            ])
        }
        let animal = #", "sense": {"en": "animal", "vi": "con dơi"}"#
        #expect(catalog(animal, #", "sense": {"en": "for cricket", "vi": "cây gậy"}"#) == [])
        #expect(catalog(animal, "") == ["sports.json: word 'Bat': 'bat' has 2 entries: each needs a sense {en, vi}"], "compared without case")
        #expect(
            catalog(animal, #", "sense": {"en": "Animal", "vi": "cây gậy"}"#) == [
                "animals.json, sports.json: word 'bat': 2 entries share the sense.en 'animal'"
            ])
        #expect(issues([("animals.json", CatalogFixture.category("animals", order: 1, words: [CatalogFixture.word("cat")]))]) == [], "one entry needs no sense")
    }

    @Test("two senses of one headword never share a picture: a child who cannot read the sense tells them apart by it")
    func sensesHaveTheirOwnPictures() {
        func catalog(_ animal: String, _ sport: String) -> [String] {
            issues([
                (
                    "animals.json",
                    CatalogFixture.category(
                        "animals", order: 1, words: [CatalogFixture.word("bat", extra: #", "sense": {"en": "animal", "vi": "con dơi"}"# + animal)])
                ),
                (
                    "sports.json",
                    CatalogFixture.category(
                        "sports", order: 2,
                        words: [CatalogFixture.word("bat", category: "sports", extra: #", "sense": {"en": "for cricket", "vi": "cây gậy"}"# + sport)])
                ),
            ])
        }
        #expect(catalog(#", "image": "mulberry/bat.svg""#, #", "image": "mulberry/bat_2.svg""#) == [])
        #expect(catalog(#", "image": "mulberry/bat.svg""#, "") == [], "one sense pictured, the other not")
        #expect(
            catalog(#", "image": "mulberry/bat.svg""#, #", "image": "mulberry/bat.svg""#) == [
                "animals.json, sports.json: word 'bat': 2 senses share the picture 'mulberry/bat.svg': each needs its own, or none"
            ])
        #expect(catalog(#", "picture": "🦇""#, #", "picture": "🦇""#).count == 1, "an emoji too")
    }

    @Test func noTwoSensesOfTheRealCatalogShareAPicture() throws {
        let found = CatalogValidator().validate(try CatalogSource(directory: Repository.categories).read().files).issues.map(\.description).filter {
            $0.contains("share the picture")
        }
        #expect(found == [])
    }

    @Test func aPictureMustBeOneFullyQualifiedEmojiThatTheFontDraws() {
        func picture(_ value: String) -> [String] {
            let word = CatalogFixture.word("cat").replacingOccurrences(of: #""vi": "con vật","#, with: #""vi": "con vật", "picture": "\#(value)","#)
            return issues([("animals.json", CatalogFixture.category("animals", order: 1, words: [word]))])
        }
        #expect(picture("🐈") == [])
        #expect(picture("👨‍👩‍👧") == [], "a ZWJ sequence is one emoji")
        #expect(picture("☺") != [], "not fully qualified (no variation selector)")
        #expect(picture("🐈🐕") != [], "two emoji")
        #expect(picture("cat") != [])
        #expect(picture("🫎") == [], "the moose is Emoji 15.0, which Noto 2.042 draws")
        #expect(picture("🐦‍🔥") != [], "the phoenix is Emoji 15.1: Debian 12's font draws no picture for it")
    }

    @Test("an image names a file of a known set: OpenMoji's drawing of the entry's emoji, an OpenMoji extra without one, or a symbol")
    func anImageNamesTheRightDrawing() {
        func image(_ value: String, emoji: String? = nil) -> [String] {
            let fields = (emoji.map { #""picture": "\#($0)", "# } ?? "") + #""image": "\#(value)","#
            let word = CatalogFixture.word("cat").replacingOccurrences(of: #""vi": "con vật","#, with: #""vi": "con vật", \#(fields)"#)
            return issues([("animals.json", CatalogFixture.category("animals", order: 1, words: [word]))])
        }
        #expect(image("openmoji/1F408.svg", emoji: "🐈") == [])
        #expect(image("openmoji/1F415.svg", emoji: "🐈").count == 1, "the dog's drawing for the cat's emoji")
        #expect(image("openmoji/1F408.svg").count == 1, "an emoji's drawing without the emoji")
        #expect(image("openmoji/E0CC.svg") == [], "an OpenMoji extra (a private-use code) needs no emoji")
        #expect(image("openmoji/E0CC.svg", emoji: "🐈").count == 1, "an extra where the emoji has a drawing of its own")
        #expect(image("mulberry/desk.svg") == [])
        #expect(image("mulberry/jump_,_to.svg").count == 1, "a comma in the name")
        #expect(image("mulberry/../../etc/passwd").count == 1)
        #expect(image("clipart/cat.svg").count == 1, "an unknown set")
        #expect(image("mulberry/cat.png").count == 1)
    }

    @Test func missingFieldIsReported() {
        let broken = CatalogFixture.word("cat").replacingOccurrences(of: #""vi": "con vật","#, with: "")
        let found = issues([("animals.json", CatalogFixture.category("animals", order: 1, words: [broken]))])
        #expect(found == ["animals.json: word 'cat': missing field 'vi'"])
    }

    @Test func duplicateHeadwordInACategoryIsReported() {
        let found = issues([("animals.json", CatalogFixture.category("animals", order: 1, words: [CatalogFixture.word("cat"), CatalogFixture.word("Cat")]))])
        #expect(found == ["animals.json: word 'Cat': duplicate headword in this category (a second sense needs a key and a sense)"])
    }

    @Test func aSecondSenseInTheSameFileHasAKeyAndASense() {
        func found(_ key: String, sense: Bool = true) -> [String] {
            let second = CatalogFixture.word("cat", extra: (sense ? #", "sense": {"en": "toy", "vi": "đồ chơi"}"# : "") + #", "key": "\#(key)""#)
            let first = CatalogFixture.word("cat", extra: #", "sense": {"en": "animal", "vi": "con vật"}"#)
            return issues([("animals.json", CatalogFixture.category("animals", order: 1, words: [first, second]))])
        }
        #expect(found("cat-toy") == [])
        #expect(found("cat-toy", sense: false) == ["animals.json: word 'cat': key 'cat-toy' needs a sense to tell the entries apart"])
        #expect(found("toy") == ["animals.json: word 'cat': key 'toy' must be 'cat-' followed by lower-case letters, digits and hyphens"])
        #expect(found("cat-Toy").count == 1)
        #expect(found("cat-").count == 1)
        #expect(found("cat").contains("animals.json: word 'cat': duplicate headword in this category (a second sense needs a key and a sense)"))
    }

    @Test func unknownLevelAndCategoryAreReported() {
        let word = CatalogFixture.word("cat").replacingOccurrences(of: #""categories": ["animals"]"#, with: #""categories": ["animals", "pets"]"#)
            .replacingOccurrences(of: #""levels": ["starters", "movers", "flyers"]"#, with: #""levels": ["starter", "movers", "flyers"]"#)
        let found = issues([("animals.json", CatalogFixture.category("animals", order: 1, words: [word]))])
        #expect(found.contains("animals.json: word 'cat': unknown level 'starter' (valid: starters, movers, flyers)"))
        #expect(found.contains("animals.json: word 'cat': unknown category 'pets'"))
    }

    @Test func anExampleForALevelTheWordIsNotAtIsReported() {
        let word = CatalogFixture.word("cat", levels: ["movers", "flyers"])
            .replacingOccurrences(of: #""examples": {"#, with: #""examples": {"starters": "I see a cat.", "#)
        let found = issues([("animals.json", CatalogFixture.category("animals", order: 1, words: [word]))])
        #expect(found == ["animals.json: word 'cat': example for level 'starters', which is not among the word's levels"], "\(found)")
    }

    @Test func levelsMustBeCumulative() {
        let found = issues([
            ("animals.json", CatalogFixture.category("animals", order: 1, words: [CatalogFixture.word("cat", levels: ["starters", "flyers"])]))
        ])
        #expect(found.contains { $0.contains("must run from the level of introduction to flyers") })
    }

    @Test func invalidJSONIsReportedWithItsFileAndPosition() {
        let found = issues([("animals.json", "{\"id\": \"animals\",\n  \"words\": [1,]\n}")])
        #expect(found.count == 1)
        #expect(found[0].hasPrefix("animals.json: invalid JSON"))
        #expect(found[0].contains("line 2, column 15"), "\(found)")
    }

    @Test func headerMustMatchFileAndBeComplete() {
        let found = issues([("pets.json", CatalogFixture.category("animals", order: 1, words: []).replacingOccurrences(of: "#112233", with: "red"))])
        #expect(found.contains("pets.json: id 'animals' must match the file name 'pets'"))
        #expect(found.contains("pets.json: color 'red' is not #RRGGBB"))
    }

    /// One catalog file with one word, `replace` applied to the word's JSON.
    func wordIssues(_ replace: (String) -> String) -> [String] {
        issues([("animals.json", CatalogFixture.category("animals", order: 1, words: [replace(CatalogFixture.word("cat"))]))])
    }

    @Test func aFieldOfTheWrongTypeSaysWhatWasExpectedAndFound() {
        let order = issues([
            ("animals.json", CatalogFixture.category("animals", order: 1, words: []).replacingOccurrences(of: #""order": 1"#, with: #""order": "5""#))
        ])
        #expect(order == ["animals.json: field 'order': expected a number, found a string"])
        let fraction = issues([
            ("animals.json", CatalogFixture.category("animals", order: 1, words: []).replacingOccurrences(of: #""order": 1"#, with: #""order": 1.5"#))
        ])
        #expect(fraction == ["animals.json: field 'order': expected a whole number, found a number"])
        let words = issues([
            ("animals.json", CatalogFixture.category("animals", order: 1, words: []).replacingOccurrences(of: #""words": []"#, with: #""words": {}"#))
        ])
        #expect(words == ["animals.json: field 'words': expected an array, found an object"])
        let name = issues([
            ("animals.json", CatalogFixture.category("animals", order: 1, words: []).replacingOccurrences(of: #""en": "Animals""#, with: #""en": 7"#))
        ])
        #expect(name == ["animals.json: field 'name.en': expected a string, found a number"])
    }

    @Test func aWordFieldOfTheWrongTypeNamesTheWordAndTheField() {
        #expect(
            wordIssues { $0.replacingOccurrences(of: #""levels": ["starters", "movers", "flyers"]"#, with: #""levels": "starters""#) }
                == ["animals.json: word 'cat': field 'levels': expected an array of strings, found a string"])
        #expect(
            wordIssues { $0.replacingOccurrences(of: #""british": "cat""#, with: #""british": 5"#) }
                == ["animals.json: word 'cat': field 'ipa.british': expected a string, found a number"])
        #expect(
            wordIssues { $0.replacingOccurrences(of: #""ipa": {"british": "cat", "american": "cat"}"#, with: #""ipa": ["cat"]"#) }
                == ["animals.json: word 'cat': field 'ipa': expected an object, found an array"])
        #expect(
            wordIssues { $0.replacingOccurrences(of: #""pos": ["noun"]"#, with: #""pos": ["noun", true]"#) }
                == ["animals.json: word 'cat': field 'pos' item 2: expected a string, found a boolean"])
        #expect(
            wordIssues { $0.replacingOccurrences(of: #""vi": "con vật","#, with: #""vi": null,"#) }
                == ["animals.json: word 'cat': field 'vi': expected a string, found null"])
        #expect(
            wordIssues { $0.replacingOccurrences(of: #""vi": "con vật","#, with: #""vi": " ","#) }
                == ["animals.json: word 'cat': field 'vi' is empty"])
        // A word whose headword is not text is named by its position.
        #expect(
            wordIssues { $0.replacingOccurrences(of: #""word": "cat""#, with: #""word": 42"#) }
                == ["animals.json: word '#1': field 'word': expected a string, found a number"])
        let notAnObject = issues([("animals.json", CatalogFixture.category("animals", order: 1, words: [#""cat""#]))])
        #expect(notAnObject == ["animals.json: word '#1': expected an object, found a string"])
    }

    @Test(
        "a clip reference must name a file under Audio/ (or, when recorded, an http(s) URL)",
        arguments: [
            ("recorded", "/etc/passwd", "is an absolute path"),
            ("recorded", "../../../etc/passwd", "leaves Audio/"),
            ("recorded", "recorded/../../secret.wav", "leaves Audio/"),
            ("legacy", "legacy\\..\\..\\secret.wav", "contains a backslash"),
            ("recorded", "recorded\\cat.wav", "contains a backslash"),
            ("legacy", "https://example.org/cat.wav", "is a URL"),
            ("recorded", "file:///etc/passwd", "is neither a path under Audio/ nor an http(s) URL"),
        ])
    func clipReferencesStayInsideAudio(tier: String, reference: String, problem: String) {
        let escaped = reference.replacingOccurrences(of: "\\", with: "\\\\")
        let found = issues([
            (
                "animals.json",
                CatalogFixture.category(
                    "animals", order: 1,
                    words: [
                        CatalogFixture.word("cat", extra: #", "audio": {"british": {"\#(tier)": "\#(escaped)"}}"#)
                    ])
            )
        ])
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasPrefix("animals.json: word 'cat': audio.british.\(tier) '\(reference)' \(problem)") == true, "\(found)")
    }

    @Test func clipReferencesUnderAudioAndRecordedURLsAreAccepted() {
        let word = CatalogFixture.word(
            "cat",
            extra:
                #", "audio": {"british": {"recorded": "recorded/british/cat.ogg", "legacy": "legacy/british/old cat.wav"}, "american": {"recorded": "https://example.org/clips/us/cat.mp3"}}"#
        )
        #expect(issues([("animals.json", CatalogFixture.category("animals", order: 1, words: [word]))]).isEmpty)
    }

    @Test func controlCharactersFromAFileAreEscapedInMessages() {
        let found = wordIssues {
            $0.replacingOccurrences(of: #""word": "cat""#, with: #""word": "c\u001b[31mat""#)
                .replacingOccurrences(of: #""pos": ["noun"]"#, with: #""pos": ["n\u0007oun"]"#)
        }
        #expect(found == ["animals.json: word 'c\\u{1B}[31mat': unknown part of speech 'n\\u{7}oun'"], "\(found)")
    }
}
