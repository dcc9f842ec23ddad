import Foundation
import PostgresStore
import SQLiteDB
import TestSupport
import Testing

@testable import Store

struct Pet: Codable, Equatable {
    var name: String
    var kind: String
    var tags: [String]
    var age: Int
    var owner: Owner?
    struct Owner: Codable, Equatable { var city: String }
}

typealias Engine = StorageEngine

/// Four pets in a fresh store: a new SQLite file, or a new database on the test PostgreSQL server.
struct PetStore {
    let engine: Engine
    let store: any DocumentStore
    /// Opens the same data again through a new connection (a new file handle, a new pool).
    let reopen: @Sendable () async throws -> any DocumentStore
    /// The engine's plan for a query, for the tests that check which indexes answer it.
    let plan: @Sendable (Query) async throws -> [String]

    static func make(_ engine: Engine) async throws -> (PetStore, @Sendable () async -> Void) {
        let fixture: PetStore
        let close: @Sendable () async -> Void
        switch engine {
        case .sqlite:
            let dir = try TemporaryDirectory("store")
            let store = try SQLiteDocumentStore(path: dir.file("store.sqlite"))
            fixture = PetStore(
                engine: engine, store: store,
                reopen: { try SQLiteDocumentStore(path: dir.file("store.sqlite"), readOnly: true) },
                plan: { try await store.plan($0) })
            close = { dir.remove() }
        case .postgres:
            let url = try TestPostgres.shared().createDatabase("store")
            let database = try PostgresPool(url: url, maximumConnections: 4)
            database.start()
            try await PostgresDocumentStore.migrator.migrate(database)
            let store = PostgresDocumentStore(database: database, space: "test")
            let reopened = try PostgresPool(url: url, maximumConnections: 2)
            fixture = PetStore(
                engine: engine, store: store,
                reopen: {
                    reopened.start()
                    return PostgresDocumentStore(database: reopened, space: "test")
                },
                plan: { try await store.plan($0, preferIndexes: true) })
            close = {
                await database.shutdown()
                await reopened.shutdown()
            }
        }
        for field in ["kind", "tags", "name", "owner.city"] { try await fixture.store.ensureIndex(on: field, in: "pets") }
        let pets = [
            Pet(name: "Tom", kind: "cat", tags: ["starters", "movers"], age: 3, owner: .init(city: "Hanoi")),
            Pet(name: "Rex", kind: "dog", tags: ["starters"], age: 5, owner: .init(city: "Hue")),
            Pet(name: "Tiny", kind: "cat", tags: ["flyers"], age: 1, owner: nil),
            Pet(name: "Bubbles", kind: "fish", tags: ["movers", "flyers"], age: 2, owner: .init(city: "Hanoi")),
        ]
        try await fixture.store.put(pets.map { try Document(id: $0.name.lowercased(), encoding: $0) }, in: "pets")
        return (fixture, close)
    }
}

@Suite("Document store on a real SQLite file and on a real PostgreSQL server")
struct DocumentStoreTests {
    /// Runs a test on a fresh store of the engine and closes it afterwards, passed or failed.
    func withPets(_ engine: Engine, _ body: (any DocumentStore, PetStore) async throws -> Void) async throws {
        let made: (PetStore, @Sendable () async -> Void)
        do { made = try await PetStore.make(engine) } catch {
            Issue.record("\(String(reflecting: error))")
            throw error
        }
        let (fixture, close) = made
        do { try await body(fixture.store, fixture) } catch {
            await close()
            // PostgresNIO keeps the server's message out of the error's description.
            Issue.record("\(String(reflecting: error))")
            throw error
        }
        await close()
    }

    func names(_ store: any DocumentStore, _ query: Query) async throws -> [String] {
        try await store.query(query).map { try $0.decode(Pet.self).name }
    }

    @Test(arguments: Engine.allCases) func documentsRoundTripAndSurviveReopening(_ engine: Engine) async throws {
        try await withPets(engine) { (store: any DocumentStore, fixture: PetStore) async throws in
            let tom = try await store.get("tom", in: "pets")?.decode(Pet.self)
            #expect(tom?.owner?.city == "Hanoi")
            let reopened = try await fixture.reopen()
            #expect(try await reopened.get("rex", in: "pets")?.decode(Pet.self).age == 5)
            #expect(try await reopened.get("nobody", in: "pets") == nil)
        }
    }

    @Test("several documents in one read: those that exist, of that collection only", arguments: Engine.allCases)
    func manyAtOnce(_ engine: Engine) async throws {
        try await withPets(engine) { (store: any DocumentStore, fixture: PetStore) async throws in
            try await store.put([Document(id: "tom", json: #"{"name":"not a pet"}"#)], in: "other")
            let found = try await store.get(["tom", "nobody", "rex"], in: "pets").map { try $0.decode(Pet.self).name }
            #expect(found.sorted() == ["Rex", "Tom"])
            #expect(try await store.get([], in: "pets").isEmpty)
        }
    }

    @Test(arguments: Engine.allCases) func equalityFilterMatchesScalarFields(_ engine: Engine) async throws {
        try await withPets(engine) { (store: any DocumentStore, fixture: PetStore) async throws in
            #expect(try await names(store, Query("pets").filter(.equal("kind", "cat")).ordered(by: "name")) == ["Tiny", "Tom"])
            #expect(try await names(store, Query("pets").filter(.equal("owner.city", "Hanoi")).ordered(by: "name")) == ["Bubbles", "Tom"])
            // Equality does not match an element of an array field: that is array-contains.
            #expect(try await names(store, Query("pets").filter(.equal("tags", "flyers"))).isEmpty)
        }
    }

    @Test(arguments: Engine.allCases) func arrayContainsMatchesElements(_ engine: Engine) async throws {
        try await withPets(engine) { (store: any DocumentStore, fixture: PetStore) async throws in
            #expect(try await names(store, Query("pets").filter(.arrayContains("tags", "movers")).ordered(by: "name")) == ["Bubbles", "Tom"])
            let both = Query("pets").filter(.arrayContains("tags", "flyers")).filter(.equal("kind", "cat"))
            #expect(try await names(store, both) == ["Tiny"])
        }
    }

    @Test(arguments: Engine.allCases) func prefixAndContainsFilters(_ engine: Engine) async throws {
        try await withPets(engine) { (store: any DocumentStore, fixture: PetStore) async throws in
            #expect(try await names(store, Query("pets").filter(.prefix("name", "T")).ordered(by: "name")) == ["Tiny", "Tom"])
            #expect(try await names(store, Query("pets").filter(.contains("name", "bb"))) == ["Bubbles"])
        }
    }

    @Test(arguments: Engine.allCases) func orderLimitAndOffset(_ engine: Engine) async throws {
        try await withPets(engine) { (store: any DocumentStore, fixture: PetStore) async throws in
            let byAge = Query("pets").ordered(by: "age", descending: true)
            #expect(try await names(store, byAge) == ["Rex", "Tom", "Bubbles", "Tiny"])
            #expect(try await names(store, byAge.limited(to: 2)) == ["Rex", "Tom"])
            #expect(try await names(store, byAge.limited(to: 2, offset: 3)) == ["Tiny"])
            #expect(try await store.count(Query("pets").filter(.equal("kind", "cat"))) == 2)
        }
    }

    @Test(arguments: Engine.allCases) func unindexedFieldsGiveTheSameAnswersByScanning(_ engine: Engine) async throws {
        try await withPets(engine) { (store: any DocumentStore, fixture: PetStore) async throws in
            try await store.put([try Document(id: "tom", encoding: Pet(name: "Tom", kind: "cat", tags: [], age: 3))], in: "other")
            #expect(try await store.query(Query("other").filter(.equal("age", 3))).map(\.id) == ["tom"])
            #expect(try await store.query(Query("other").filter(.equal("age", 4))).isEmpty)
            #expect(try await store.query(Query("other").filter(.prefix("name", "To"))).map(\.id) == ["tom"])
        }
    }

    @Test(arguments: Engine.allCases) func indexedQueriesDoNotScanTheDocuments(_ engine: Engine) async throws {
        try await withPets(engine) { (store: any DocumentStore, fixture: PetStore) async throws in
            let query = Query("pets").filter(.arrayContains("tags", "movers")).filter(.equal("kind", "cat")).ordered(by: "name").limited(to: 10)
            let plan = try await fixture.plan(query)
            #expect(!plan.isEmpty)
            switch engine {
            case .sqlite:
                #expect(plan.allSatisfy { !$0.hasPrefix("SCAN") }, "plan: \(plan)")
                #expect(try await fixture.plan(Query("pets").filter(.prefix("name", "T"))).allSatisfy { !$0.hasPrefix("SCAN") })
            case .postgres:
                #expect(!plan.contains { $0.contains("Seq Scan") }, "plan: \(plan)")
                // Equality and array-contains through the GIN index, once a collection is big enough to be worth it…
                let many = (0..<2000).map { Document(id: "p\($0)", json: #"{"kind":"k\#($0 % 100)","tags":["t\#($0 % 37)"]}"#) }
                try await store.put(many, in: "many")
                for query in [Query("many").filter(.equal("kind", "k7")), Query("many").filter(.arrayContains("tags", "t5"))] {
                    let gin = try await fixture.plan(query)
                    #expect(gin.contains { $0.contains("Index Scan on documents_data") }, "plan: \(gin)")
                    #expect(try await store.count(query) > 0)
                }
                // …and a declared field's order through its expression index.
                let ordered = try await fixture.plan(Query("pets").ordered(by: "name").limited(to: 2))
                #expect(ordered.contains { $0.contains("Index Scan using documents_order_") }, "plan: \(ordered)")
            }
        }
    }

    @Test(arguments: Engine.allCases) func indexAddedLaterCoversExistingDocuments(_ engine: Engine) async throws {
        try await withPets(engine) { (store: any DocumentStore, fixture: PetStore) async throws in
            try await store.ensureIndex(on: "age", in: "pets")
            #expect(try await names(store, Query("pets").filter(.equal("age", 5))) == ["Rex"])
            switch engine {
            case .sqlite:
                #expect(try await fixture.plan(Query("pets").filter(.equal("age", 5))).allSatisfy { !$0.hasPrefix("SCAN") })
            case .postgres:
                let plan = try await fixture.plan(Query("pets").ordered(by: "age", descending: true).limited(to: 2))
                #expect(plan.contains { $0.contains("Index Scan Backward using documents_order_") }, "plan: \(plan)")
            }
        }
    }

    @Test(arguments: Engine.allCases) func valueCountsCountDocumentsPerValue(_ engine: Engine) async throws {
        try await withPets(engine) { (store: any DocumentStore, fixture: PetStore) async throws in
            let counts = try await store.valueCounts(of: "tags", matching: Query("pets"))
            #expect(counts == ["starters": 2, "movers": 2, "flyers": 2])
            let cats = try await store.valueCounts(of: "tags", matching: Query("pets").filter(.equal("kind", "cat")))
            #expect(cats == ["starters": 1, "movers": 1, "flyers": 1])
        }
    }

    @Test(arguments: Engine.allCases) func replacingADocumentReindexesIt(_ engine: Engine) async throws {
        try await withPets(engine) { (store: any DocumentStore, fixture: PetStore) async throws in
            try await store.put([try Document(id: "tom", encoding: Pet(name: "Tom", kind: "dog", tags: ["flyers"], age: 4))], in: "pets")
            #expect(try await names(store, Query("pets").filter(.equal("kind", "cat"))) == ["Tiny"])
            #expect(try await names(store, Query("pets").filter(.arrayContains("tags", "starters"))) == ["Rex"])
        }
    }

    @Test(arguments: Engine.allCases) func deleteRemovesDocumentAndIndexEntries(_ engine: Engine) async throws {
        try await withPets(engine) { (store: any DocumentStore, fixture: PetStore) async throws in
            #expect(try await store.delete("tom", in: "pets"))
            #expect(try await !store.delete("tom", in: "pets"))
            #expect(try await names(store, Query("pets").filter(.equal("kind", "cat"))) == ["Tiny"])
        }
    }

    @Test(arguments: Engine.allCases) func revisionChangesWithEveryWrite(_ engine: Engine) async throws {
        try await withPets(engine) { (store: any DocumentStore, fixture: PetStore) async throws in
            let before = try await store.revision()
            _ = try await store.query(Query("pets"))
            #expect(try await store.revision() == before)
            try await store.put([Document(id: "x", json: #"{"name":"X"}"#)], in: "pets")
            let afterPut = try await store.revision()
            #expect(afterPut != before)
            try await store.delete("x", in: "pets")
            #expect(try await store.revision() != afterPut)
        }
    }

    @Test(arguments: Engine.allCases) func aBatchWithInvalidJSONStoresNothing(_ engine: Engine) async throws {
        try await withPets(engine) { (store: any DocumentStore, fixture: PetStore) async throws in
            let batch = [Document(id: "ok", json: #"{"name":"Ok"}"#), Document(id: "bad", json: "{not json")]
            await #expect(throws: StoreError.self) { try await store.put(batch, in: "pets") }
            #expect(try await store.get("ok", in: "pets") == nil)
        }
    }

    @Test(arguments: Engine.allCases) func fieldNamesThatCouldInjectSQLAreRejected(_ engine: Engine) async throws {
        try await withPets(engine) { (store: any DocumentStore, fixture: PetStore) async throws in
            await #expect(throws: StoreError.self) { try await store.query(Query("pets").ordered(by: "name'); DROP TABLE documents; --")) }
            await #expect(throws: StoreError.self) { try await store.ensureIndex(on: "a b", in: "pets") }
        }
    }
}
