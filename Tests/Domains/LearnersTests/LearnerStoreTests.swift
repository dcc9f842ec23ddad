import FSRS
import Foundation
import PostgresLearners
import PostgresStore
import SQLiteDB
import Store
import TestSupport
import Testing

@testable import Learners

typealias Engine = StorageEngine

/// A fresh learner store: a new user.sqlite, or a new database on the test PostgreSQL server.
struct LearnerStoreFixture {
    let store: any LearnerStore
    /// Every byte the engine keeps: the SQLite file, or a dump of the PostgreSQL database.
    let storedBytes: @Sendable () throws -> Data
    let close: @Sendable () async -> Void

    static func make(_ engine: Engine) async throws -> LearnerStoreFixture {
        switch engine {
        case .sqlite:
            let dir = try TemporaryDirectory("learners")
            let store = try SQLiteLearnerStore(path: dir.file("user.sqlite"))
            // The file and its write-ahead log, where recent commits are until a checkpoint.
            return LearnerStoreFixture(
                store: store,
                storedBytes: {
                    try Data(contentsOf: URL(fileURLWithPath: dir.file("user.sqlite")))
                        + ((try? Data(contentsOf: URL(fileURLWithPath: dir.file("user.sqlite-wal")))) ?? Data())
                },
                close: { dir.remove() })
        case .postgres:
            let server = try TestPostgres.shared()
            let url = try server.createDatabase("learners")
            let database = try PostgresPool(url: url, maximumConnections: 8)
            database.start()
            try await PostgresLearnerStore.migrator.migrate(database)
            return LearnerStoreFixture(
                store: PostgresLearnerStore(database: database),
                storedBytes: {
                    let dump = try runProcess("/usr/bin/pg_dump", ["-h", "127.0.0.1", "-p", String(server.port), "-U", "vocab", url.postgresDatabaseName])
                    guard dump.status == 0 else { throw TestPostgresError(dump.stderr) }
                    return Data(dump.stdout.utf8)
                }, close: { await database.shutdown() })
        }
    }
}

@Suite("The learner store on user.sqlite and on PostgreSQL: learners, tokens, items, cards and the review log")
struct LearnerStoreTests {
    let t0 = 1_790_000_000.0

    func withStore(_ engine: Engine, _ body: (any LearnerStore, LearnerStoreFixture) async throws -> Void) async throws {
        let fixture = try await LearnerStoreFixture.make(engine)
        do { try await body(fixture.store, fixture) } catch {
            await fixture.close()
            throw error
        }
        await fixture.close()
    }

    @Test("names are unique without case; bad names are refused", arguments: Engine.allCases)
    func names(_ engine: Engine) async throws {
        try await withStore(engine) { (store: any LearnerStore, fixture: LearnerStoreFixture) async throws in
            func learner(_ name: String) async throws -> Learner { try await store.createLearner(name: name, at: t0) }
            _ = try await learner("Anna")
            await #expect(throws: LearnerError.nameTaken("anna ")) { try await store.createLearner(name: "anna ", at: t0) }
            await #expect(throws: LearnerError.self) { try await store.createLearner(name: "", at: t0) }
            await #expect(throws: LearnerError.self) { try await store.createLearner(name: "a\u{1B}b", at: t0) }
            #expect(try await store.learner(named: "ANNA")?.name == "Anna")
        }
    }

    @Test(
        "sessions: found by their hash until they expire or end; a new password ends every session of its learner only",
        arguments: Engine.allCases)
    func sessions(_ engine: Engine) async throws {
        try await withStore(engine) { (store: any LearnerStore, fixture: LearnerStoreFixture) async throws in
            let anna = try await store.createLearner(name: "anna", at: t0)
            let ben = try await store.createLearner(name: "ben", at: t0)
            let phone = Sessions.generate()
            let laptop = Sessions.generate()
            let bens = Sessions.generate()
            #expect(Sessions.isWellFormed(phone) && !Sessions.isWellFormed(Tokens.generate()) && !Sessions.isWellFormed(phone + "x"))
            #expect(Sessions.csrf(for: phone) != Sessions.csrf(for: laptop) && !Sessions.csrf(for: phone).contains(phone.dropFirst(3)))
            try await store.addSession(hash: Sessions.hash(phone), for: anna.id, at: t0, expires: t0 + 100)
            try await store.addSession(hash: Sessions.hash(laptop), for: anna.id, at: t0, expires: t0 + 1000)
            try await store.addSession(hash: Sessions.hash(bens), for: ben.id, at: t0, expires: t0 + 1000)
            #expect(try await store.learner(sessionHash: Sessions.hash(phone), at: t0 + 99)?.id == anna.id)
            #expect(try await store.learner(sessionHash: Sessions.hash(phone), at: t0 + 100) == nil, "expired")
            #expect(try await store.learner(sessionHash: Sessions.hash(bens), at: t0)?.id == ben.id)
            // A sign-in after the phone's expiry forgets that row: ending it later finds nothing.
            try await store.addSession(hash: Sessions.hash(Sessions.generate()), for: anna.id, at: t0 + 200, expires: t0 + 300)
            #expect(try await !store.removeSession(hash: Sessions.hash(phone)))
            #expect(try await store.removeSession(hash: Sessions.hash(laptop)))
            #expect(try await !store.removeSession(hash: Sessions.hash(laptop)))
            #expect(try await store.learner(sessionHash: Sessions.hash(laptop), at: t0) == nil)
            let annasLast = Sessions.generate()
            try await store.addSession(hash: Sessions.hash(annasLast), for: anna.id, at: t0 + 200, expires: t0 + 900)
            try await store.setPasswordHash("$2b$12$x", of: anna.id)
            #expect(try await store.learner(sessionHash: Sessions.hash(annasLast), at: t0 + 201) == nil, "a new password ends anna's sessions")
            #expect(try await store.passwordHash(of: anna.id) == "$2b$12$x")
            #expect(try await store.learner(sessionHash: Sessions.hash(bens), at: t0)?.id == ben.id, "ben's session goes on")
        }
    }

    @Test("revoking a learner ends every credential: tokens and browser sessions, theirs only", arguments: Engine.allCases)
    func revokeEndsSessions(_ engine: Engine) async throws {
        try await withStore(engine) { (store: any LearnerStore, fixture: LearnerStoreFixture) async throws in
            let anna = try await store.createLearner(name: "anna", at: t0)
            let ben = try await store.createLearner(name: "ben", at: t0)
            let token = Tokens.generate()
            let browser = Sessions.generate()
            let bens = Sessions.generate()
            try await store.addToken(hash: Tokens.hash(token), label: "", for: anna.id, at: t0)
            try await store.addSession(hash: Sessions.hash(browser), for: anna.id, at: t0, expires: t0 + 1000)
            try await store.addSession(hash: Sessions.hash(bens), for: ben.id, at: t0, expires: t0 + 1000)
            #expect(try await store.revokeTokens(of: anna.id, at: t0 + 1) == 1)
            #expect(try await store.learner(tokenHash: Tokens.hash(token)) == nil)
            #expect(try await store.learner(sessionHash: Sessions.hash(browser), at: t0 + 2) == nil, "the browser session ended too")
            #expect(try await store.learner(sessionHash: Sessions.hash(bens), at: t0 + 2)?.id == ben.id, "ben's goes on")
        }
    }

    @Test("only a token's SHA-256 is stored; a revoked token finds nobody", arguments: Engine.allCases)
    func tokens(_ engine: Engine) async throws {
        try await withStore(engine) { (store: any LearnerStore, fixture: LearnerStoreFixture) async throws in
            func learner(_ name: String) async throws -> Learner { try await store.createLearner(name: name, at: t0) }
            let anna = try await learner("anna")
            let token = Tokens.generate()
            #expect(Tokens.isWellFormed(token))
            #expect(!Tokens.isWellFormed(token + "x") && !Tokens.isWellFormed("vocab_" + String(repeating: "!", count: 43)))
            try await store.addToken(hash: Tokens.hash(token), label: "phone", for: anna.id, at: t0)
            #expect(try await store.learner(tokenHash: Tokens.hash(token))?.id == anna.id)
            #expect(try await store.learner(tokenHash: Tokens.hash(Tokens.generate())) == nil)
            // The token itself is nowhere in what the engine keeps…
            let bytes = try fixture.storedBytes()
            #expect(!bytes.isEmpty)
            #expect(bytes.range(of: Data(token.utf8)) == nil)
            #expect(bytes.range(of: Data(Data(token.utf8).map { String(format: "%02x", $0) }.joined().utf8)) == nil)
            // …while its hash is (raw in the file, hex in the dump): the search looked where tokens are kept.
            let hash = Tokens.hash(token)
            #expect(bytes.range(of: Data(hash)) != nil || bytes.range(of: Data(hash.map { String(format: "%02x", $0) }.joined().utf8)) != nil)
            #expect(try await store.revokeTokens(of: anna.id, at: t0 + 1) == 1)
            #expect(try await store.learner(tokenHash: Tokens.hash(token)) == nil)
        }
    }

    @Test("an item is saved once per learner, with a new card; another learner's items are out of reach", arguments: Engine.allCases)
    func items(_ engine: Engine) async throws {
        try await withStore(engine) { (store: any LearnerStore, fixture: LearnerStoreFixture) async throws in
            func learner(_ name: String) async throws -> Learner { try await store.createLearner(name: name, at: t0) }
            let anna = try await learner("anna")
            let ben = try await learner("ben")
            let key = ItemKey(.catalog, "animals/cat")
            let (first, inserted) = try await store.save(key, word: "cat", details: nil, for: anna.id, at: t0)
            #expect(inserted)
            #expect(try await store.save(key, word: "cat", details: nil, for: anna.id, at: t0 + 5).inserted == false)
            #expect(try await store.card(of: first.id, learner: anna.id)?.card.phase == .new)
            // Ben names Anna's item: nothing is found, nothing is removed.
            #expect(try await store.item(first.id, of: ben.id) == nil)
            #expect(try await store.card(of: first.id, learner: ben.id) == nil)
            #expect(try await store.remove(first.id, of: ben.id) == false)
            #expect(try await store.items(of: anna.id).count == 1)
            #expect(try await store.items(of: ben.id).isEmpty)
            #expect(try await store.remove(first.id, of: anna.id))
            #expect(try await store.items(of: anna.id).isEmpty)
        }
    }

    @Test("items saved together: in the order given, each once, every new one with a card; an unknown learner saves none", arguments: Engine.allCases)
    func itemsSavedTogether(_ engine: Engine) async throws {
        try await withStore(engine) { (store: any LearnerStore, fixture: LearnerStoreFixture) async throws in
            let anna = try await store.createLearner(name: "anna", at: t0)
            let cat = NewItem(ItemKey(.catalog, "animals/cat"), word: "cat")
            let dog = NewItem(ItemKey(.catalog, "animals/dog"), word: "dog")
            let bat = NewItem(ItemKey(.catalog, "animals/bat"), word: "bat")
            let first = try await store.save([cat, dog, cat], for: anna.id, at: t0)
            #expect(first.map(\.item.word) == ["cat", "dog", "cat"] && first.map(\.inserted) == [true, true, false])
            #expect(first[0].item.id == first[2].item.id, "one item for a key named twice")
            let again = try await store.save([dog, bat], for: anna.id, at: t0 + 5)
            #expect(again.map(\.inserted) == [false, true] && again[0].item.id == first[1].item.id)
            let cards = try await store.cards(of: anna.id)
            #expect(cards.count == 3 && cards.allSatisfy { $0.card.card.phase == .new })
            let owl = NewItem(ItemKey(.catalog, "animals/owl"), word: "owl")
            await #expect(throws: (any Error).self) { try await store.save([bat, owl], for: 999_999, at: t0) }
            #expect(try await store.items(of: anna.id).count == 3)
            #expect(try await store.save([], for: anna.id, at: t0).isEmpty)
        }
    }

    @Test("a rating writes the card and its log row together; a stale version or another learner's item is refused", arguments: Engine.allCases)
    func rating(_ engine: Engine) async throws {
        try await withStore(engine) { (store: any LearnerStore, fixture: LearnerStoreFixture) async throws in
            func learner(_ name: String) async throws -> Learner { try await store.createLearner(name: name, at: t0) }
            let anna = try await learner("anna")
            let ben = try await learner("ben")
            let item = try await store.save(ItemKey(.catalog, "animals/cat"), word: "cat", details: nil, for: anna.id, at: t0).item
            let reviewer = Reviewer(store: store, days: LocalDays(timeZone: TimeZone(identifier: "UTC")!))
            guard case .applied(let record, let entry) = try await reviewer.rate(item: item.id, rating: .good, learner: anna, at: t0 + 60, expectedVersion: 0)
            else {
                Issue.record("not applied")
                return
            }
            #expect(record.version == 1 && record.card.phase == .learning && record.card.reps == 1)
            #expect(entry.before.phase == .new && entry.after == record.card && entry.rating == .good)
            await #expect(throws: LearnerError.self) {
                try await reviewer.rate(item: item.id, rating: .easy, learner: anna, at: t0 + 90, expectedVersion: 0)
            }
            await #expect(throws: LearnerError.unknownItem(item.id)) {
                try await reviewer.rate(item: item.id, rating: .easy, learner: ben, at: t0 + 90)
            }
            #expect(try await store.reviews(of: anna.id, since: 0).count == 1)
            #expect(try await store.reviews(of: ben.id, since: 0).isEmpty)
        }
    }

    @Test("a learner's zone and start hour are kept, and their reviews fall due at the start of their day there", arguments: Engine.allCases)
    func daysFollowTheLearnersSettings(_ engine: Engine) async throws {
        try await withStore(engine) { (store: any LearnerStore, fixture: LearnerStoreFixture) async throws in
            let anna = try await store.createLearner(name: "anna", at: t0)
            try await store.updateSettings(LearnerSettings(timeZone: "America/New_York", dayStartsAt: 5), of: anna.id)
            let stored = try #require(try await store.learner(id: anna.id))
            #expect(stored.settings.timeZone == "America/New_York" && stored.settings.dayStartsAt == 5)
            let item = try await store.save(ItemKey(.catalog, "animals/cat"), word: "cat", details: nil, for: anna.id, at: t0).item
            // The server's own zone is UTC with days from midnight: the learner's settings win.
            let reviewer = Reviewer(store: store, days: LocalDays(timeZone: TimeZone(identifier: "UTC")!, startHour: 0))
            guard case .applied(let record, _) = try await reviewer.rate(item: item.id, rating: .easy, learner: stored, at: t0 + 60) else {
                Issue.record("not applied")
                return
            }
            var clock = Calendar(identifier: .gregorian)
            clock.timeZone = TimeZone(identifier: "America/New_York")!
            let due = clock.dateComponents([.hour, .minute, .second], from: Date(timeIntervalSince1970: record.card.due))
            #expect(due.hour == 5 && due.minute == 0 && due.second == 0, "\(due)")
        }
    }

    @Test(
        "two ratings of one card at once: without a version both apply in turn; with the same version one is refused as stale",
        arguments: Engine.allCases)
    func concurrentRatings(_ engine: Engine) async throws {
        try await withStore(engine) { (store: any LearnerStore, fixture: LearnerStoreFixture) async throws in
            let anna = try await store.createLearner(name: "anna", at: t0)
            let item = try await store.save(ItemKey(.catalog, "animals/cat"), word: "cat", details: nil, for: anna.id, at: t0).item
            let reviewer = Reviewer(store: store, days: LocalDays(timeZone: TimeZone(identifier: "UTC")!))
            async let a = reviewer.rate(item: item.id, rating: .good, learner: anna, at: t0 + 60)
            async let b = reviewer.rate(item: item.id, rating: .good, learner: anna, at: t0 + 60)
            _ = try await (a, b)
            let card = try #require(try await store.card(of: item.id, learner: anna.id))
            #expect(card.version == 2 && card.card.reps == 2) // neither update was lost
            #expect(try await store.reviews(of: anna.id, since: 0).count == 2)

            let racers = (0..<4).map { i in
                Task { try await reviewer.rate(item: item.id, rating: .easy, learner: anna, at: t0 + 120 + Double(i), expectedVersion: 2) }
            }
            var applied = 0
            var stale = 0
            for racer in racers {
                do {
                    _ = try await racer.value
                    applied += 1
                } catch LearnerError.stale(let current) {
                    stale += 1
                    #expect(current.version == 3)
                }
            }
            #expect(applied == 1 && stale == 3)
            #expect(try await store.card(of: item.id, learner: anna.id)?.version == 3)
            #expect(try await store.reviews(of: anna.id, since: 0).count == 3)
        }
    }

    @Test("a client id is applied once: the repeat returns the first outcome", arguments: Engine.allCases)
    func clientIDs(_ engine: Engine) async throws {
        try await withStore(engine) { (store: any LearnerStore, fixture: LearnerStoreFixture) async throws in
            func learner(_ name: String) async throws -> Learner { try await store.createLearner(name: name, at: t0) }
            let anna = try await learner("anna")
            let item = try await store.save(ItemKey(.catalog, "animals/cat"), word: "cat", details: nil, for: anna.id, at: t0).item
            let reviewer = Reviewer(store: store, days: LocalDays(timeZone: TimeZone(identifier: "UTC")!))
            let first = try await reviewer.rate(item: item.id, rating: .good, learner: anna, at: t0 + 60, clientID: "offline-1")
            let again = try await reviewer.rate(item: item.id, rating: .again, learner: anna, at: t0 + 120, clientID: "offline-1")
            guard case .applied(let a, let entry) = first, case .repeated(let b, let repeatedEntry) = again else {
                Issue.record("\(first) / \(again)")
                return
            }
            #expect(a == b && entry == repeatedEntry)
            #expect(try await store.reviews(of: anna.id, since: 0).count == 1)
        }
    }

    @Test(
        "deleting a learner deletes every row of theirs (library, cards, ratings, tokens, sessions) and nothing of anyone else's",
        arguments: Engine.allCases)
    func deleteLearner(_ engine: Engine) async throws {
        try await withStore(engine) { (store: any LearnerStore, fixture: LearnerStoreFixture) async throws in
            let reviewer = Reviewer(store: store, days: LocalDays(timeZone: TimeZone(identifier: "UTC")!))
            var people: [Learner] = []
            for name in ["zebedee", "anna"] {
                let learner = try await store.createLearner(name: name, at: t0)
                let item = try await store.save(ItemKey(.catalog, "animals/cat"), word: "cat", details: nil, for: learner.id, at: t0).item
                _ = try await reviewer.rate(item: item.id, rating: .good, learner: learner, at: t0 + 60, clientID: "c-\(name)")
                try await store.addToken(hash: Tokens.hash(Tokens.generate()), label: "phone", for: learner.id, at: t0)
                try await store.addSession(hash: Sessions.hash(Sessions.generate()), for: learner.id, at: t0, expires: t0 + 3600)
                people.append(learner)
            }
            let (zed, anna) = (people[0], people[1])
            let annaBefore = (try await store.cards(of: anna.id).count, try await store.reviews(of: anna.id, since: 0).count)
            #expect(try await store.deleteLearner(zed.id))
            #expect(try await store.deleteLearner(zed.id) == false)
            let gone = (try await store.learner(id: zed.id), try await store.learner(named: "zebedee"))
            #expect(gone.0 == nil && gone.1 == nil)
            let left = (try await store.items(of: zed.id).count, try await store.reviews(of: zed.id, since: 0).count)
            #expect(left == (0, 0))
            let annaAfter = (try await store.cards(of: anna.id).count, try await store.reviews(of: anna.id, since: 0).count)
            #expect(annaAfter == annaBefore)
            if engine == .postgres {
                // The dump holds every live row: neither the name nor the client id is in it.
                let bytes = try fixture.storedBytes()
                #expect(bytes.range(of: Data("zebedee".utf8)) == nil && bytes.range(of: Data("c-zebedee".utf8)) == nil)
                #expect(bytes.range(of: Data("c-anna".utf8)) != nil, "the dump is where ratings are")
            }
        }
    }

    @Test("undo puts the card back as it was before the latest rating and removes the log row", arguments: Engine.allCases)
    func undo(_ engine: Engine) async throws {
        try await withStore(engine) { (store: any LearnerStore, fixture: LearnerStoreFixture) async throws in
            func learner(_ name: String) async throws -> Learner { try await store.createLearner(name: name, at: t0) }
            let anna = try await learner("anna")
            let item = try await store.save(ItemKey(.catalog, "animals/cat"), word: "cat", details: nil, for: anna.id, at: t0).item
            let reviewer = Reviewer(store: store, days: LocalDays(timeZone: TimeZone(identifier: "UTC")!))
            _ = try await reviewer.rate(item: item.id, rating: .good, learner: anna, at: t0 + 60)
            let beforeSecond = try #require(try await store.card(of: item.id, learner: anna.id))
            _ = try await reviewer.rate(item: item.id, rating: .easy, learner: anna, at: t0 + 700)
            let undone = try await reviewer.undo(learner: anna)
            #expect(undone.rating == .easy)
            let now = try #require(try await store.card(of: item.id, learner: anna.id))
            #expect(now.card == beforeSecond.card)
            #expect(now.version == beforeSecond.version + 2) // the undo is a change too: stale readers are refused
            #expect(try await store.reviews(of: anna.id, since: 0).count == 1)
            _ = try await reviewer.undo(learner: anna)
            await #expect(throws: LearnerError.nothingToUndo) { try await reviewer.undo(learner: anna) }
        }
    }
}

@Suite("What to review: due cards first, then new ones up to the day's allowance")
struct ReviewQueueTests {
    @Test("due cards by how overdue they are, then new cards in the order saved, at most newPerDay a day")
    func queue() async throws {
        let dir = try TemporaryDirectory("queue")
        defer { dir.remove() }
        let store = try SQLiteLearnerStore(path: dir.file("user.sqlite"))
        let t0 = 1_790_000_000.0
        var anna = try await store.createLearner(name: "anna", at: t0)
        anna.settings.newPerDay = 2
        try await store.updateSettings(anna.settings, of: anna.id)
        var ids: [Int64] = []
        for (i, word) in ["a", "b", "c", "d", "e"].enumerated() {
            ids.append(try await store.save(ItemKey(.catalog, "x/\(word)"), word: word, details: nil, for: anna.id, at: t0 + Double(i)).item.id)
        }
        let reviewer = Reviewer(store: store, days: LocalDays(timeZone: TimeZone(identifier: "UTC")!))
        let first = try await reviewer.queue(for: anna, at: t0 + 100, limit: 10)
        #expect(first.due.isEmpty)
        #expect(first.new.map(\.item.word) == ["a", "b"])
        // Introducing a and b uses up the day's allowance; a is due again after its learning step.
        _ = try await reviewer.rate(item: ids[0], rating: .good, learner: anna, at: t0 + 100)
        _ = try await reviewer.rate(item: ids[1], rating: .again, learner: anna, at: t0 + 100)
        let later = try await reviewer.queue(for: anna, at: t0 + 100 + 11 * 60, limit: 10)
        #expect(later.due.map(\.item.word) == ["b", "a"]) // b (1 min step) is more overdue than a (10 min)
        #expect(later.new.isEmpty && later.newAllowance == 0)
        // The next day, two more new cards.
        let tomorrow = try await reviewer.queue(for: anna, at: t0 + 86_400 * 2, limit: 10)
        #expect(tomorrow.new.map(\.item.word) == ["c", "d"])
        #expect(try await reviewer.queue(for: anna, at: t0 + 86_400 * 2, limit: 1).cards.count == 1)
    }
}

@Suite("Progress: due forecast, reviews per day, retention, streak, learned words")
struct ProgressReportTests {
    func card(_ phase: Phase, due: Double, stability: Double? = nil) -> Card {
        Card(
            phase: phase, step: nil, memory: stability.map { MemoryState(stability: $0, difficulty: 5) }, due: due, lastReview: nil,
            reps: 1, lapses: 0, scheduledDays: 1)
    }

    func review(_ at: Double, _ rating: Rating, before: Phase) -> ReviewEntry {
        ReviewEntry(
            id: 0, itemID: 1, reviewedAt: at, rating: rating, elapsedDays: 1, before: card(before, due: at), after: card(.review, due: at),
            clientID: nil)
    }

    @Test("every figure from a hand-made history")
    func figures() {
        let days = LocalDays(timeZone: TimeZone(identifier: "Asia/Ho_Chi_Minh")!) // a day from 4 am
        let now = 1_790_000_000.0 // 2026-09-21 21:13 local
        let today = days.start(of: now)
        let item = SavedItem(id: 1, key: ItemKey(.catalog, "x/y"), word: "y", savedAt: 0)
        func record(_ c: Card) -> (item: SavedItem, card: CardRecord) { (item, CardRecord(itemID: 1, card: c, version: 0)) }
        let cards = [
            record(card(.review, due: today - 86_400, stability: 30)), // overdue and learned
            record(card(.review, due: today + 3600, stability: 5)), // today
            record(card(.learning, due: now + 600, stability: 1)), // today
            record(card(.review, due: today + 86_400 + 10, stability: 21)), // tomorrow, learned
            record(card(.review, due: today + 5 * 86_400, stability: 8)), // within 7 days
            record(card(.review, due: today + 9 * 86_400, stability: 40)), // later
            record(Card(due: 0)), // new
        ]
        let reviews = [
            review(today - 3 * 86_400 + 100, .good, before: .review), // breaks the streak (no review 2 days ago)
            review(today - 86_400 + 100, .again, before: .review),
            review(today - 86_400 + 200, .good, before: .learning), // learning: not in retention
            review(today + 100, .good, before: .review),
            review(today + 200, .hard, before: .review),
            review(today - 40 * 86_400, .again, before: .review), // too old for the 30 days
        ]
        let r = ProgressReport.make(cards: cards, totals: ReviewTotals(log: reviews), now: now, days: days)
        #expect(r.dueToday == 3 && r.dueTomorrow == 1 && r.dueNext7Days == 2 && r.new == 1 && r.items == 7)
        #expect(r.learned == 3)
        #expect(r.reviewsPerDay.count == 30)
        #expect(r.reviewsPerDay.last?.reviews == 2 && r.reviewsPerDay[28].reviews == 2 && r.reviewsPerDay[26].reviews == 1)
        #expect(r.reviewsPerDay.last?.date == "2026-09-21")
        #expect(r.reviewsInRetention == 4)
        #expect(r.retention == 0.75)
        #expect(r.streak == 2)
    }

    @Test("calendar dates of day numbers")
    func dates() {
        #expect(ProgressReport.date(ofDayNumber: 0) == "1970-01-01")
        #expect(ProgressReport.date(ofDayNumber: 19_783) == "2024-03-01")
        #expect(ProgressReport.date(ofDayNumber: 20_515) == "2026-03-03")
    }
}

@Suite("user.sqlite of the previous version is upgraded")
struct UserDatabaseMigrationTests {
    @Test("saved words of the document library become items of the local learner, with new cards; other documents stay")
    func upgradesTheDocumentLibrary() async throws {
        let dir = try TemporaryDirectory("migration")
        defer { dir.remove() }
        let path = dir.file("user.sqlite")
        // The file as the previous release wrote it: the document store with no version, the
        // library's documents as its SavedWord encoded them (dates in seconds since 2001).
        do {
            let old = try SQLiteDocumentStore(path: path)
            try await old.put(
                [
                    Document(id: "cat", json: #"{"savedAt":785000000.5,"source":"catalog","word":"cat"}"#),
                    Document(
                        id: "serendipity",
                        json:
                            #"{"definition":"a happy accident","partOfSpeech":"noun","phonetic":"/x/","savedAt":785000100,"source":"dictionary","word":"serendipity"}"#
                    ),
                ], in: "library")
            try await old.put([Document(id: "en/happy", json: #"{"word":"happy"}"#)], in: "definitions")
            #expect(try await old.schemaVersion() == 0)
        }
        let store = try SQLiteLearnerStore(path: path)
        let me = try #require(try await store.learner(named: "me"))
        let items = try await store.items(of: me.id)
        #expect(items.map(\.key) == [ItemKey(.catalog, "headword:cat"), ItemKey(.dictionary, "serendipity")])
        #expect(items[0].savedAt == 785000000.5 + 978_307_200)
        #expect(items[1].details?.definition == "a happy accident")
        #expect(try await store.cards(of: me.id).allSatisfy { $0.card.card.phase == .new })
        let documents = try SQLiteDocumentStore(path: path, readOnly: true)
        #expect(try await documents.schemaVersion() == UserDatabase.migrator.latest)
        #expect(try await documents.get("cat", in: "library") == nil)
        #expect(try await documents.get("en/happy", in: "definitions") != nil)
    }
}
