import App
import AppCore
import Catalog
import Classes
import Foundation
import Learners
import TestSupport
import Testing

/// A word the catalog had as one entry becomes an entry per sense, as `right` did: "correct"
/// (Starters) moved to school/right, "direction" (Flyers) is places/right-direction, and the old
/// id places/right is the correct sense's `formerly`. What learners saved under the old id follows
/// it, on user.sqlite and on PostgreSQL.
@Suite("Splitting a word into senses keeps what learners saved and what classes were given")
struct EntrySplitTests {
    static func before(_ dir: TemporaryDirectory) throws {
        try dir.write(
            "Categories/places.json",
            CatalogFixture.category("places", order: 1, words: [CatalogFixture.word("right", category: "places", vi: "đúng; bên phải")]))
        try dir.write("Categories/school.json", CatalogFixture.category("school", order: 2, words: [CatalogFixture.word("pen", category: "school", vi: "bút")]))
    }

    static func after(_ dir: TemporaryDirectory) throws {
        let direction = CatalogFixture.word(
            "right", levels: ["flyers"], category: "places", vi: "bên phải",
            extra: #", "sense": {"en": "direction", "vi": "bên phải"}, "key": "right-direction""#)
        let correct = CatalogFixture.word(
            "right", category: "school", vi: "đúng", extra: #", "sense": {"en": "correct", "vi": "đúng"}, "formerly": ["places/right"]"#)
        try dir.write("Categories/places.json", CatalogFixture.category("places", order: 1, words: [direction]))
        try dir.write(
            "Categories/school.json",
            CatalogFixture.category("school", order: 2, words: [CatalogFixture.word("pen", category: "school", vi: "bút"), correct]))
    }

    /// Runs `first` on the catalog before the split, then `then` on a new application value (a
    /// new version of vocab) over the same learners, after it.
    static func acrossTheSplit(
        _ engine: StorageEngine, first: (VocabApp) async throws -> Void, then: (VocabApp) async throws -> Void
    ) async throws {
        let box = try await AppSandbox(mandarin: false, catalog: before)
        defer { box.dir.remove() }
        switch engine {
        case .sqlite:
            try await first(box.app)
            try after(box.dir)
            try await then(try box.app(on: .embedded, use: .server))
        case .postgres:
            let url = try TestPostgres.shared().createDatabase("split")
            let old = try box.app(on: .postgres(url: url, origin: "test"))
            try await old.run(reachableWithin: .seconds(60)) { app in
                _ = try await app.postgres!.push(catalogFrom: try await app.catalogFiles().store)
                try await first(app)
            }
            try after(box.dir)
            let new = try box.app(on: .postgres(url: url, origin: "test"))
            try await new.run(reachableWithin: .seconds(60)) { app in
                _ = try await app.postgres!.push(catalogFrom: try await app.catalogFiles().store)
                try await then(app)
            }
        }
    }

    @Test(
        "a learner with 'right' saved and reviewed before the split has the same item, card and history after it, on the sense they saved; an assignment made before names the new entry and counts the answers given before",
        arguments: StorageEngine.allCases)
    func savedWordsFollowTheirSense(_ engine: StorageEngine) async throws {
        nonisolated(unsafe) var item: SavedItem?
        nonisolated(unsafe) var card: CardRecord?
        nonisolated(unsafe) var history = ""
        nonisolated(unsafe) var classCode = ""
        nonisolated(unsafe) var childID: Int64 = 0
        nonisolated(unsafe) var teacherID: Int64 = 0
        try await Self.acrossTheSplit(
            engine,
            first: { app in
                let me = try await app.learning().learner(named: nil)
                let saved = try #require(try await app.learning().save("right", for: me).first)
                #expect(saved.item.key == ItemKey(.catalog, "places/right"))
                _ = try await app.learning().rate(item: saved.item.id, rating: .good, for: me)
                _ = try await app.learning().rate(item: saved.item.id, rating: .again, for: me)
                item = saved.item
                card = try await app.learning().store.card(of: saved.item.id, learner: me.id)
                history = "\(try await app.learning().store.reviews(of: me.id, since: 0))"

                let (teacher, _) = try await app.classes().signUp(name: "Ms Lan", password: "correct horse battery")
                let year3 = try await app.classes().createClass(named: "Year 3", by: teacher)
                let an = try await app.classes().addChild(named: "An", to: year3.code, by: teacher)
                let assignment = try await app.classes().assign(to: year3.code, category: nil, level: nil, words: ["right"], dueAt: nil, by: teacher)
                #expect(assignment.entries == ["places/right"])
                let child = try #require(try await app.learning().store.learner(id: an.id))
                let given = try #require(try await app.learning().library(of: child).first)
                _ = try await app.learning().rate(item: given.item.id, rating: .good, for: child)
                classCode = year3.code
                childID = an.id
                teacherID = teacher.id
            },
            then: { app in
                let me = try await app.learning().learner(named: nil)
                let library = try await app.learning().library(of: me)
                #expect(library.count == 1)
                let now = try #require(library.first)
                #expect(now.item.id == item?.id, "the same item")
                #expect(now.item.key == ItemKey(.catalog, "school/right"), "the sense it was saved as: correct")
                #expect(now.card == card, "the same card")
                #expect("\(try await app.learning().store.reviews(of: me.id, since: 0))" == history, "the same history")
                let front = try await app.learning().content(of: now.item, level: nil)
                #expect(front.front == "right" && front.sense?.en == "correct", "\(front)")
                #expect(try await app.learning().save("right", for: me, entry: "school/right").map(\.inserted) == [false], "saved once")
                #expect(try await app.learning().save("right", for: me, entry: "places/right-direction").map(\.inserted) == [true])

                // The class: its assignment names the new entry, and the child's answer counts.
                let teacher = try #require(try await app.learning().store.learner(id: teacherID))
                let report = try await app.classes().progress(of: classCode, by: teacher)
                #expect(report.assignments.first?.finished == [childID], "\(report.assignments)")
                #expect(try await app.classes().details(classCode, by: teacher).assignments.first?.entries == ["school/right"])
                let child = try #require(try await app.learning().store.learner(id: childID))
                #expect(try await app.classes().assignments(for: child).first?.answered == 1)
            })
    }

    @Test("search answers each sense of a split word with its label")
    func searchNamesTheSenses() async throws {
        let box = try await AppSandbox(mandarin: false, catalog: Self.after)
        defer { box.dir.remove() }
        let page = try await box.app.search().search(try SearchRequest(text: "right", source: "catalog", limit: 10, offset: 0), library: [])
        let found = page.results.map { "\($0.reference) \($0.sense?.en ?? "-") \($0.sense?.vi ?? "-")" }
        #expect(found == ["catalog:places/right-direction direction bên phải", "catalog:school/right correct đúng"], "\(found)")
        let pen = try await box.app.search().search(try SearchRequest(text: "pen", source: "catalog", limit: 10, offset: 0), library: [])
        #expect(pen.results.first?.sense == nil, "a word of one entry has no label")
    }

    @Test("a former id names one entry for ever: never today's id of an entry, never two entries")
    func formerIDsAreChecked() {
        func issues(_ words: [(String, String)]) -> [String] {
            let files = words.map { (file, word) in (file + ".json", Data(CatalogFixture.category(file, order: file == "places" ? 1 : 2, words: [word]).utf8)) }
            return CatalogValidator().validate(files).issues.map(\.description)
        }
        let reused = CatalogFixture.word("pen", category: "school", extra: #", "formerly": ["places/right"]"#)
        #expect(
            issues([("places", CatalogFixture.word("right", category: "places")), ("school", reused)]) == [
                "school.json: word 'pen': formerly 'places/right' is the id of an entry: a former id is never used again"
            ])
        let twice = CatalogFixture.word("right", category: "places", extra: #", "formerly": ["school/left"]"#)
        let again = CatalogFixture.word("pen", category: "school", extra: #", "formerly": ["school/left"]"#)
        #expect(issues([("places", twice), ("school", again)]) == ["school.json: word 'pen': formerly 'school/left' is claimed by another entry too"])
        let odd = CatalogFixture.word("pen", category: "school", extra: #", "formerly": ["left"]"#)
        #expect(
            issues([("places", CatalogFixture.word("right", category: "places")), ("school", odd)]) == [
                "school.json: word 'pen': formerly 'left' is not an entry id (<category>/<word>)"
            ])
    }
}
