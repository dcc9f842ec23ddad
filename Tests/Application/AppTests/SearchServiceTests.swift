import App
import AppCore
import Catalog
import Foundation
import Learners
import TestSupport
import Testing

/// One search across every source, on the learning fixture catalog and the MOE sample: what
/// matches, how it is labelled, the order, and the pages.
@Suite("Search across the catalog, the Mandarin dictionary and the library")
struct SearchServiceTests {
    /// Saved words as a learner's library holds them (ids are the store's).
    static func saved(_ words: [(EntryReference.Source, String, String, ItemDetails?)]) -> [SavedItem] {
        words.enumerated().map { i, w in
            SavedItem(id: Int64(i + 1), key: ItemKey(w.0, w.1), word: w.2, savedAt: Double(i), details: w.3)
        }
    }

    static func search(
        _ box: AppSandbox, _ text: String, source: String? = nil, limit: Int = 30, offset: Int = 0,
        library: [SavedItem]? = []
    ) async throws -> SearchPage {
        try await box.app.search().search(
            try SearchRequest(text: text, source: source, limit: limit, offset: offset),
            library: library)
    }

    @Test("a catalog headword: the exact entry first, labelled with its source, entry, reading, gloss and why; whole words of definitions last")
    func catalogWord() async throws {
        let box = try await AppSandbox()
        defer { box.dir.remove() }
        let page = try await Self.search(box, "cat")
        #expect(page.sources == [.catalog, .moe, .library])
        #expect(
            page.results.first
                == SearchResult(
                    source: .catalog, reference: EntryReference(.catalog, "animals/cat"), title: "cat",
                    reading: "/kæt/", gloss: "con mèo", match: .headword, rank: .exact))
        // "a big wild cat" names a cat; "catches" would not.
        #expect(page.results.map(\.title) == ["cat", "lion"])
        #expect(page.results.last.map { "\($0.match) \($0.rank)" } == "definition contains")
        #expect(page.total == 2 && page.suggestions.isEmpty)
    }

    @Test("Vietnamese without diacritics finds the translation; a sense of a translation list counts as whole")
    func translations() async throws {
        let box = try await AppSandbox()
        defer { box.dir.remove() }
        let meo = try await Self.search(box, "meo", source: "catalog")
        #expect(meo.results.map(\.reference.description) == ["catalog:animals/cat"])
        #expect(meo.results.first.map { "\($0.match) \($0.rank)" } == "translation contains")
        let kem = try await Self.search(box, "kem")
        #expect(kem.results.first.map { "\($0.title): \($0.match) \($0.rank)" } == "ice cream: translation exact")
    }

    @Test("a Mandarin title: the entry itself, then the titles that start with it, shorter first")
    func mandarinTitle() async throws {
        let box = try await AppSandbox()
        defer { box.dir.remove() }
        let page = try await Self.search(box, "行")
        let first = try #require(page.results.first)
        #expect(first.reference == EntryReference(.moe, "行") && first.match == .title && first.rank == .exact)
        #expect(first.reading == "xíng" && first.gloss?.isEmpty == false)
        let rest = page.results.dropFirst()
        #expect(rest.count == 10 && rest.allSatisfy { $0.source == .moe && $0.match == .title && $0.rank == .prefix && $0.title.hasPrefix("行") })
        let lengths = rest.map(\.title.count)
        #expect(lengths == lengths.sorted(), "shorter titles first: \(rest.map(\.title))")
        #expect(rest.last?.title == "行政院農業委員會")
        // A title inside a longer one is found after the starts.
        let inside = try await Self.search(box, "業")
        #expect(inside.results.map { "\($0.title) \($0.rank)" } == ["行政院農業委員會 contains"])
    }

    @Test("pinyin with or without tones, as marks or numbers, and bopomofo: whole readings first, then longer words")
    func readings() async throws {
        let box = try await AppSandbox()
        defer { box.dir.remove() }
        let plain = try await Self.search(box, "xing", source: "moe")
        #expect(plain.total > 10)
        let firstPrefix = plain.results.firstIndex { $0.rank == .prefix } ?? plain.results.count
        #expect(plain.results[..<firstPrefix].allSatisfy { $0.rank == .exact && $0.match == .pinyin })
        #expect(plain.results[firstPrefix...].allSatisfy { $0.rank == .prefix && $0.match == .pinyin })
        #expect(plain.results[..<firstPrefix].contains { $0.title == "行" } && plain.results[firstPrefix...].contains { $0.title == "行人" })
        // An entry with two readings that both match is listed once.
        #expect(Set(plain.results.map(\.reference)).count == plain.results.count)
        for typed in ["xíng", "xing2", "XING"] {
            #expect(try await Self.search(box, typed, source: "moe").results == plain.results, "\(typed)")
        }
        let zhuyin = try await Self.search(box, "ㄒㄧㄥˊ", source: "moe")
        #expect(zhuyin.results.first?.match == .bopomofo && zhuyin.results.contains { $0.title == "行人" })
        #expect(Set(zhuyin.results.filter { $0.rank == .exact }.map(\.title)) == Set(plain.results.filter { $0.rank == .exact }.map(\.title)))
    }

    @Test("ranking: exact matches of every source before any prefix; within a rank catalog, then moe, then library; then the source's order")
    func ranking() async throws {
        let box = try await AppSandbox()
        defer { box.dir.remove() }
        let library = Self.saved([
            (.dictionary, "ca", "ca", ItemDetails(definition: "a dictionary word")),
            (.dictionary, "xing", "xing", nil),
        ])
        let ca = try await Self.search(box, "ca", library: library)
        #expect(ca.results.map(\.reference.description) == ["dictionary:ca", "catalog:food/cake", "catalog:animals/cat", "catalog:animals/fish"])
        #expect(ca.results.map(\.source) == [.library, .catalog, .catalog, .catalog])
        #expect(ca.results.map(\.rank) == [.exact, .prefix, .prefix, .contains])
        let xing = try await Self.search(box, "xing", library: library)
        let saved = try #require(xing.results.firstIndex { $0.source == .library })
        #expect(xing.results[saved].rank == .exact)
        #expect(xing.results[..<saved].allSatisfy { $0.source == .moe && $0.rank == .exact })
        #expect(xing.results[(saved + 1)...].allSatisfy { $0.rank == .prefix })
        // The same request, the same order.
        #expect(try await Self.search(box, "xing", library: library) == xing)
    }

    @Test("pages: total, limit and offset; the pages together are the whole list")
    func paging() async throws {
        let box = try await AppSandbox()
        defer { box.dir.remove() }
        let all = try await Self.search(box, "xing", limit: 100)
        var pieces: [SearchResult] = []
        for offset in stride(from: 0, to: all.total, by: 4) {
            let page = try await Self.search(box, "xing", limit: 4, offset: offset)
            #expect(page.total == all.total && page.limit == 4 && page.offset == offset)
            pieces += page.results
        }
        #expect(pieces == all.results)
        let past = try await Self.search(box, "xing", offset: all.total + 5)
        #expect(past.results.isEmpty && past.total == all.total)
    }

    @Test("the library: only for a learner, only what other searched sources do not find already; --source narrows")
    func library() async throws {
        let box = try await AppSandbox()
        defer { box.dir.remove() }
        let library = Self.saved([
            (.catalog, "animals/cat", "cat", nil), (.dictionary, "catamaran", "catamaran", ItemDetails(definition: "a boat with two hulls")),
            (.moe, "行", "行", ItemDetails(pinyin: "xíng")),
        ])
        let anonymous = try await Self.search(box, "cat", library: nil)
        #expect(anonymous.sources == [.catalog, .moe] && !anonymous.results.contains { $0.source == .library })
        let mine = try await Self.search(box, "cat", library: library)
        #expect(mine.results.map(\.reference.description) == ["catalog:animals/cat", "dictionary:catamaran", "catalog:animals/lion"])
        #expect(mine.results[1].source == .library && mine.results[1].gloss == "a boat with two hulls")
        let only = try await Self.search(box, "cat", source: "library", library: library)
        #expect(only.sources == [.library] && only.results.map(\.reference.description) == ["catalog:animals/cat", "dictionary:catamaran"])
        let boat = try await Self.search(box, "boat", source: "library", library: library)
        #expect(boat.results.map { "\($0.title) \($0.match)" } == ["catamaran definition"])
        #expect(try await Self.search(box, "cat", source: "library", library: nil).results.isEmpty)
        #expect(try await Self.search(box, "xing", source: "library", library: library).results.map(\.title) == ["行"])
    }

    @Test("a miss everywhere: no results, close spellings, and a not-found failure (exit 1)")
    func miss() async throws {
        let box = try await AppSandbox()
        defer { box.dir.remove() }
        let service = try await box.app.search()
        let page = try await Self.search(box, "catt")
        #expect(page.total == 0 && page.suggestions.contains("cat"))
        let failure = try #require(await service.miss(page))
        #expect(failure.kind == .notFound && failure.exitCode == 1 && failure.code == .noMatch)
        #expect(
            failure.description.contains("nothing matches 'catt' in the catalog, the Mandarin dictionary or your library")
                && failure.description.contains("cat"))
        let hanzi = try await Self.search(box, "行人", source: "catalog")
        let elsewhere = try #require(await service.miss(hanzi))
        #expect(elsewhere.hint == "'行人' is in the Mandarin dictionary: try 'vocab lookup 行人'.")
        let part = try #require(await service.miss(try await Self.search(box, "人", source: "catalog")))
        #expect(part.hint == "It is found in other sources: try without --source.")
        #expect(await service.miss(try await Self.search(box, "cat")) == nil)
    }

    @Test("bad requests are bad input with stable codes; without an import the dictionary is left out, or named when asked for")
    func requests() async throws {
        func refusal(_ make: () throws(Failure) -> SearchRequest) -> Failure? {
            do {
                _ = try make()
                return nil
            } catch { return error }
        }
        #expect(refusal { () throws(Failure) in try SearchRequest(text: "cat", source: "web") }?.code == .badSource)
        #expect(refusal { () throws(Failure) in try SearchRequest(text: "cat", source: "mo") }?.suggestions.contains("moe") == true)
        #expect(refusal { () throws(Failure) in try SearchRequest(text: "  ") }?.code == .invalidText)
        #expect(refusal { () throws(Failure) in try SearchRequest(text: "cat", limit: 101) }?.code == .outOfRange)
        #expect(refusal { () throws(Failure) in try SearchRequest(text: "cat", offset: -1) }?.code == .outOfRange)
        #expect(refusal { () throws(Failure) in try SearchRequest(text: "cat", source: "library", limit: 100, offset: 100_000) } == nil)
        #expect(try SearchRequest(text: "cat", source: "ALL").source == nil)

        let box = try await AppSandbox(mandarin: false)
        defer { box.dir.remove() }
        #expect(try await Self.search(box, "xing").sources == [.catalog, .library])
        do {
            _ = try await Self.search(box, "xing", source: "moe")
            Issue.record("searching a dictionary that is not imported succeeded")
        } catch {
            #expect(FailureClassifier.classify(error).kind == .missingInput)
        }
    }
}
