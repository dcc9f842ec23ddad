import Foundation
import SQLiteDB
@testable import Store
import TestSupport
import Testing

struct Pet: Codable, Equatable {
    var name: String
    var kind: String
    var tags: [String]
    var age: Int
    var owner: Owner?
    struct Owner: Codable, Equatable { var city: String }
}

@Suite("Document store on a real SQLite file")
struct DocumentStoreTests {
    let dir: TemporaryDirectory
    let store: SQLiteDocumentStore

    init() async throws {
        dir = try TemporaryDirectory("store")
        store = try SQLiteDocumentStore(path: dir.file("store.sqlite"))
        for field in ["kind", "tags", "name", "owner.city"] { try await store.ensureIndex(on: field, in: "pets") }
        let pets = [
            Pet(name: "Tom", kind: "cat", tags: ["starters", "movers"], age: 3, owner: .init(city: "Hanoi")),
            Pet(name: "Rex", kind: "dog", tags: ["starters"], age: 5, owner: .init(city: "Hue")),
            Pet(name: "Tiny", kind: "cat", tags: ["flyers"], age: 1, owner: nil),
            Pet(name: "Bubbles", kind: "fish", tags: ["movers", "flyers"], age: 2, owner: .init(city: "Hanoi")),
        ]
        try await store.put(pets.map { try Document(id: $0.name.lowercased(), encoding: $0) }, in: "pets")
    }

    func names(_ query: Query) async throws -> [String] {
        try await store.query(query).map { try $0.decode(Pet.self).name }
    }

    @Test func documentsRoundTripAndSurviveReopening() async throws {
        let tom = try await store.get("tom", in: "pets")?.decode(Pet.self)
        #expect(tom?.owner?.city == "Hanoi")
        let reopened = try SQLiteDocumentStore(path: dir.file("store.sqlite"), readOnly: true)
        #expect(try await reopened.get("rex", in: "pets")?.decode(Pet.self).age == 5)
        #expect(try await reopened.get("nobody", in: "pets") == nil)
    }

    @Test func equalityFilterMatchesScalarFields() async throws {
        #expect(try await names(Query("pets").filter(.equal("kind", "cat")).ordered(by: "name")) == ["Tiny", "Tom"])
        #expect(try await names(Query("pets").filter(.equal("owner.city", "Hanoi")).ordered(by: "name")) == ["Bubbles", "Tom"])
        // Equality does not match an element of an array field: that is array-contains.
        #expect(try await names(Query("pets").filter(.equal("tags", "flyers"))).isEmpty)
    }

    @Test func arrayContainsMatchesElements() async throws {
        #expect(try await names(Query("pets").filter(.arrayContains("tags", "movers")).ordered(by: "name")) == ["Bubbles", "Tom"])
        let both = Query("pets").filter(.arrayContains("tags", "flyers")).filter(.equal("kind", "cat"))
        #expect(try await names(both) == ["Tiny"])
    }

    @Test func prefixAndContainsFilters() async throws {
        #expect(try await names(Query("pets").filter(.prefix("name", "T")).ordered(by: "name")) == ["Tiny", "Tom"])
        #expect(try await names(Query("pets").filter(.contains("name", "bb"))) == ["Bubbles"])
    }

    @Test func orderLimitAndOffset() async throws {
        let byAge = Query("pets").ordered(by: "age", descending: true)
        #expect(try await names(byAge) == ["Rex", "Tom", "Bubbles", "Tiny"])
        #expect(try await names(byAge.limited(to: 2)) == ["Rex", "Tom"])
        #expect(try await names(byAge.limited(to: 2, offset: 3)) == ["Tiny"])
        #expect(try await store.count(Query("pets").filter(.equal("kind", "cat"))) == 2)
    }

    @Test func unindexedFieldsGiveTheSameAnswersByScanning() async throws {
        try await store.put([try Document(id: "tom", encoding: Pet(name: "Tom", kind: "cat", tags: [], age: 3))], in: "other")
        #expect(try await store.query(Query("other").filter(.equal("age", 3))).map(\.id) == ["tom"])
        #expect(try await store.query(Query("other").filter(.equal("age", 4))).isEmpty)
        #expect(try await store.query(Query("other").filter(.prefix("name", "To"))).map(\.id) == ["tom"])
    }

    @Test func indexedQueriesDoNotScanTheDocuments() async throws {
        let query = Query("pets").filter(.arrayContains("tags", "movers")).filter(.equal("kind", "cat")).ordered(by: "name").limited(to: 10)
        let plan = try await store.plan(query)
        #expect(!plan.isEmpty)
        #expect(plan.allSatisfy { !$0.hasPrefix("SCAN") }, "plan: \(plan)")
        #expect(try await store.plan(Query("pets").filter(.prefix("name", "T"))).allSatisfy { !$0.hasPrefix("SCAN") })
    }

    @Test func indexAddedLaterCoversExistingDocuments() async throws {
        try await store.ensureIndex(on: "age", in: "pets")
        #expect(try await names(Query("pets").filter(.equal("age", 5))) == ["Rex"])
        #expect(try await store.plan(Query("pets").filter(.equal("age", 5))).allSatisfy { !$0.hasPrefix("SCAN") })
    }

    @Test func valueCountsCountDocumentsPerValue() async throws {
        let counts = try await store.valueCounts(of: "tags", matching: Query("pets"))
        #expect(counts == ["starters": 2, "movers": 2, "flyers": 2])
        let cats = try await store.valueCounts(of: "tags", matching: Query("pets").filter(.equal("kind", "cat")))
        #expect(cats == ["starters": 1, "movers": 1, "flyers": 1])
    }

    @Test func replacingADocumentReindexesIt() async throws {
        try await store.put([try Document(id: "tom", encoding: Pet(name: "Tom", kind: "dog", tags: ["flyers"], age: 4))], in: "pets")
        #expect(try await names(Query("pets").filter(.equal("kind", "cat"))) == ["Tiny"])
        #expect(try await names(Query("pets").filter(.arrayContains("tags", "starters"))) == ["Rex"])
    }

    @Test func deleteRemovesDocumentAndIndexEntries() async throws {
        #expect(try await store.delete("tom", in: "pets"))
        #expect(try await !store.delete("tom", in: "pets"))
        #expect(try await names(Query("pets").filter(.equal("kind", "cat"))) == ["Tiny"])
    }

    @Test func revisionChangesWithEveryWrite() async throws {
        let before = try await store.revision()
        _ = try await store.query(Query("pets"))
        #expect(try await store.revision() == before)
        try await store.put([Document(id: "x", json: #"{"name":"X"}"#)], in: "pets")
        let afterPut = try await store.revision()
        #expect(afterPut != before)
        try await store.delete("x", in: "pets")
        #expect(try await store.revision() != afterPut)
    }

    @Test func aBatchWithInvalidJSONStoresNothing() async throws {
        let batch = [Document(id: "ok", json: #"{"name":"Ok"}"#), Document(id: "bad", json: "{not json")]
        await #expect(throws: StoreError.self) { try await store.put(batch, in: "pets") }
        #expect(try await store.get("ok", in: "pets") == nil)
    }

    @Test func fieldNamesThatCouldInjectSQLAreRejected() async throws {
        await #expect(throws: StoreError.self) { try await store.query(Query("pets").ordered(by: "name'); DROP TABLE documents; --")) }
        await #expect(throws: StoreError.self) { try await store.ensureIndex(on: "a b", in: "pets") }
    }
}
