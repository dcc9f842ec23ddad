import App
import AppCore
import Catalog
import FSRS
import Foundation
import Learners
import Quiz
import SeededRandom
import TestSupport
import Testing

@Suite("One library across the catalog, the Mandarin dictionary and the online dictionary")
struct LearningServiceTests {
    @Test("catalog words are saved by entry, once; removing takes them out")
    func catalogWords() async throws {
        let box = try await AppSandbox()
        defer { box.dir.remove() }
        let me = try await box.learning.learner(named: nil)
        #expect(me.name == "me")
        let saved = try await box.learning.save("Ice Cream", for: me)
        #expect(saved.map(\.item.key) == [ItemKey(.catalog, "food/ice-cream")] && saved[0].inserted)
        #expect(saved[0].item.word == "ice cream", "the catalog's spelling")
        #expect(try await box.learning.save("ice cream", for: me).map(\.inserted) == [false])
        #expect(try await box.learning.remove("ICE CREAM", of: me).map(\.key.entry) == ["food/ice-cream"])
        await #expect(throws: Failure.self) { try await box.learning.remove("ice cream", of: me) }
    }

    @Test("a headword with two entries saves both, unless one is named")
    func homographs() async throws {
        let box = try await AppSandbox(mandarin: false) { dir in
            try dir.write(
                "Categories/animals.json",
                CatalogFixture.category(
                    "animals", order: 1,
                    words: [
                        CatalogFixture.word(
                            "bat", vi: "con dơi", definition: "an animal that flies at night", extra: #", "sense": {"en": "animal", "vi": "con dơi"}"#),
                        CatalogFixture.word("cat"),
                    ]))
            try dir.write(
                "Categories/sport.json",
                CatalogFixture.category(
                    "sport", order: 2,
                    words: [
                        CatalogFixture.word(
                            "bat", category: "sport", vi: "gậy", definition: "a stick to hit a ball", extra: #", "sense": {"en": "for sport", "vi": "cây gậy"}"#
                        )
                    ]))
        }
        defer { box.dir.remove() }
        let learning = box.learning
        let me = try await learning.learner(named: nil)
        #expect(Set(try await learning.save("bat", for: me).map(\.item.key.entry)) == ["animals/bat", "sport/bat"])
        let anna = try await learning.addLearner(named: "anna").0
        #expect(try await learning.save("bat", for: anna, entry: "sport/bat").map(\.item.key.entry) == ["sport/bat"])
        // Each homograph's card shows its own meaning.
        let shown = try await learning.items(matching: "bat", of: me)
        var meanings: [String] = []
        for (item, _) in shown { meanings.append(await learning.content(of: item, level: nil).senses.first?.text ?? "") }
        #expect(Set(meanings) == ["an animal that flies at night", "a stick to hit a ball"])
    }

    @Test("Mandarin: the reading asked for, every reading, or the first; a reading that fits two is refused")
    func mandarinReadings() async throws {
        let box = try await AppSandbox()
        defer { box.dir.remove() }
        let me = try await box.learning.learner(named: nil)
        let hang = try await box.learning.save("行", for: me, reading: "háng")
        #expect(hang.map(\.item.key) == [ItemKey(.moe, "行", reading: "háng")])
        #expect(hang[0].item.details?.bopomofo == "ㄏㄤˊ")
        #expect(try await box.learning.save("行", for: me, reading: "hang2").map(\.inserted) == [false], "tone numbers find the same reading")
        #expect(try await box.learning.save("行", for: me, reading: "2").map(\.inserted) == [false], "and so does its number")
        await #expect(throws: Failure.self, "xing is xíng or xìng") { try await box.learning.save("行", for: me, reading: "xing") }
        await #expect(throws: Failure.self) { try await box.learning.save("行", for: me, reading: "zzz") }
        #expect(try await box.learning.save("行", for: me, allReadings: true).filter(\.inserted).count == 3)
        // The card of a reading shows that reading's pinyin, bopomofo and senses.
        let content = await box.learning.content(of: hang[0].item, level: nil)
        #expect(content.pinyin == "háng" && content.bopomofo == "ㄏㄤˊ" && content.front == "行")
        #expect(content.senses.first?.text == "行列。直列為行，橫排為列。")
    }

    @Test("the online dictionary is asked only for words no local source has, and its answer must be about that word")
    func dictionaryWords() async throws {
        let box = try await AppSandbox()
        defer { box.dir.remove() }
        let me = try await box.learning.learner(named: nil)
        _ = try await box.learning.save("fish", for: me) { _ in
            Issue.record("fish is in the catalog")
            return .unknown
        }
        let saved = try await box.learning.save("Serendipity", for: me) { word in
            #expect(word == "Serendipity")
            return .known(headword: "serendipity", partOfSpeech: "noun", definition: "a happy accident", phonetic: "/x/")
        }
        #expect(saved.map(\.item.key) == [ItemKey(.dictionary, "serendipity")])
        #expect(saved[0].item.details?.definition == "a happy accident")
        // A service answering about another word saves nothing (it once replaced 'cat').
        do {
            _ = try await box.learning.save("quokka", for: me) { _ in .known(headword: "cat", partOfSpeech: nil, definition: "x", phonetic: nil) }
            Issue.record("saved an answer about another word")
        } catch let failure as Failure {
            #expect(failure.code == .unknownWord && failure.message.contains("'cat'"))
        }
        do {
            _ = try await box.learning.save("elefant", for: me) { _ in .unknown }
            Issue.record("saved an unknown word")
        } catch let failure as Failure {
            #expect(failure.kind == .notFound && failure.suggestions.contains("elephant"))
        }
        #expect(try await box.learning.library(of: me).map(\.item.key.entry) == ["fish", "serendipity"].map { $0 == "fish" ? "animals/fish" : $0 })
    }

    @Test("items keep their content through a catalog rebuild")
    func survivesRebuild() async throws {
        let box = try await AppSandbox()
        defer { box.dir.remove() }
        let me = try await box.learning.learner(named: nil)
        _ = try await box.learning.save("cat", for: me)
        try box.dir.write(
            "Categories/animals.json",
            try String(contentsOfFile: box.dir.file("Categories/animals.json"), encoding: .utf8)
                .replacingOccurrences(of: "con mèo", with: "mèo nhà"))
        // A new process after the files changed: its catalog is rebuilt before learning reads it.
        let app = try box.app(on: .embedded)
        let (_, status) = try await app.catalogFiles()
        #expect(status != .upToDate)
        let learning = try await app.learning()
        let (item, _) = try #require(try await learning.library(of: me).first)
        #expect(await learning.content(of: item, level: nil).vi == "mèo nhà")
    }

    @Test("words saved by the previous release find their catalog entries")
    func pendingHeadwordsResolve() async throws {
        let box = try await AppSandbox()
        defer { box.dir.remove() }
        let me = try await box.learning.learner(named: nil)
        _ = try await box.learning.store.save(ItemKey(.catalog, "headword:lion"), word: "lion", details: nil, for: me.id, at: 0)
        #expect(try await box.learning.library(of: me).map(\.item.key) == [ItemKey(.catalog, "animals/lion")])
    }

    @Test("review: a card's back, its next due times, ratings, undo; the quiz asks library words of every source")
    func reviewAndQuiz() async throws {
        let box = try await AppSandbox()
        defer { box.dir.remove() }
        let me = try await box.learning.learner(named: nil)
        for word in ["cat", "apple", "lion"] { _ = try await box.learning.save(word, for: me) }
        _ = try await box.learning.save("行", for: me, reading: "xíng")
        let batch = try await box.learning.nextCards(for: me, limit: 10)
        #expect(batch.cards.map(\.content.front) == ["cat", "apple", "lion", "行"])
        let cat = batch.cards[0]
        #expect(cat.content.vi == "con mèo" && cat.content.ipa?.british == "kæt" && cat.content.example != nil)
        #expect(cat.next["good"]! > cat.next["again"]! && cat.next["easy"]! > cat.next["good"]!)
        let rated = try await box.learning.rate(item: cat.item, rating: .easy, for: me, expectedVersion: cat.version)
        #expect(rated.phase == .review && rated.scheduledDays >= 1 && rated.version == 1)
        let (undone, item) = try await box.learning.undo(for: me)
        #expect(undone.rating == .easy && item?.word == "cat")

        var rng = SeededGenerator(seed: 9)
        let (items, distractors) = try await box.learning.quizItems(of: me, answers: .en)
        let questions = try await QuizPlanner(catalog: box.catalog).builder(
            source: .items(items, extraDistractors: distractors, label: "x"),
            category: nil, level: nil, answers: .en
        ).questions(count: 10, using: &rng)
        #expect(Set(questions.map(\.word)) == ["cat", "apple", "lion", "行"])
        let reading = try await box.learning.quizItems(of: me, answers: .reading)
        #expect(reading.items.map(\.answer) == ["xíng"])
    }

    @Test("a rating's answer, written by hand, is what JSONEncoder writes, in every phase")
    func ratingJSON() async throws {
        let box = try await AppSandbox(mandarin: false)
        defer { box.dir.remove() }
        let me = try await box.learning.learner(named: nil)
        for word in ["cat", "apple", "lion"] { _ = try await box.learning.save(word, for: me) }
        let items = try await box.learning.nextCards(for: me, limit: 10).cards.map(\.item)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var phases: Set<Phase> = []
        var pick = SeededGenerator(seed: 4)
        for _ in 0..<30 {
            let item = items[Int.random(in: 0..<items.count, using: &pick)]
            let result = try await box.learning.rate(item: item, rating: Rating(rawValue: Int.random(in: 1...4, using: &pick))!, for: me)
            phases.insert(result.phase)
            #expect(result.json == String(decoding: try encoder.encode(result), as: UTF8.self))
        }
        #expect(phases.count >= 2, "learning and review cards, with and without a step")
    }
}
