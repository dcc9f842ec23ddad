import FSRS
import Learners
import SeededRandom
import Testing

/// The rules every learner store follows for a rating, decided above the engines.
@Suite("What a rating does, decided once for every engine: replay, staleness, the next version, the log row, undo")
struct RatingRulesTests {
    let scheduler = try! Scheduler()
    let fresh = CardRecord(itemID: 7, card: Card(due: 1_000), version: 3)

    func request(expectedVersion: Int? = nil, clientID: String? = nil, at time: Double = 2_000) -> RatingRequest {
        RatingRequest(item: 7, learner: 1, expectedVersion: expectedVersion, clientID: clientID) { [scheduler] record in
            var rng = SeededGenerator(seed: 1)
            return scheduler.review(record.card, rating: .good, at: time, using: &rng)
        }
    }

    @Test("a rating moves the card one version on and logs the card before and after, as stored")
    func applies() throws {
        let change = try request(clientID: "c1").decide(on: fresh)
        #expect(change.updated.version == 4)
        #expect(change.updated.itemID == 7)
        #expect(change.log.before == fresh.card)
        #expect(change.log.afterJSON == (try LearnerCoding.cardJSON(change.updated.card)))
        guard case .applied(let record, let entry) = change.outcome(logID: 42) else {
            Issue.record("not applied")
            return
        }
        #expect(record == change.updated)
        #expect(entry.id == 42 && entry.clientID == "c1" && entry.rating == .good && entry.reviewedAt == 2_000)
    }

    @Test("an item that is not saved, or a card that changed since the client read it, is refused before anything is written")
    func refuses() {
        #expect(throws: LearnerError.unknownItem(7)) { try request().decide(on: nil) }
        #expect(throws: LearnerError.stale(current: fresh)) { try request(expectedVersion: 2).decide(on: fresh) }
        #expect(throws: Never.self) { try request(expectedVersion: 3).decide(on: fresh) }
    }

    @Test("a client id seen before returns the earlier outcome; a removed item shows the card the rating left")
    func replays() throws {
        let earlier = try request(clientID: "c1").decide(on: fresh).outcome(logID: 5)
        guard case .applied(let updated, let entry) = earlier else {
            Issue.record("not applied")
            return
        }
        #expect(request(clientID: "c1").replay(of: entry, current: updated) == .repeated(updated, entry))
        #expect(
            request(clientID: "c1").replay(of: entry, current: nil)
                == .repeated(CardRecord(itemID: 7, card: entry.after, version: 0), entry))
    }

    @Test("undo restores the card before the latest rating, one version on; a removed item has nothing to restore")
    func undo() throws {
        guard case .applied(let updated, let entry) = try request().decide(on: fresh).outcome(logID: 5) else {
            Issue.record("not applied")
            return
        }
        #expect(UndoRule.restored(after: entry, current: updated) == CardRecord(itemID: 7, card: fresh.card, version: 5))
        #expect(UndoRule.restored(after: entry, current: nil) == nil)
    }
}
