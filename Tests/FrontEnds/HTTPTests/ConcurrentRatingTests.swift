import FSRS
import Foundation
import Learners
import TestSupport
import Testing

/// Ratings of one card sent at the same moment, over separate connections: none is lost
/// silently and none is applied to a state it did not see. What happened is read back from
/// the card and the review log in user.sqlite.
@Suite("Concurrent ratings of one card")
struct ConcurrentRatingTests {
    /// Sends `bodies` to POST /v1/me/reviews all at once, each on its own connection and thread.
    static func rateAtOnce(_ s: TestServer, token: String, _ bodies: [String]) async throws -> [RawResponse] {
        try await withThrowingTaskGroup(of: (Int, RawResponse).self) { group in
            for (i, body) in bodies.enumerated() {
                group.addTask { (i, try await s.send("POST", "/v1/me/reviews", token: token, json: body)) }
            }
            var out: [(Int, RawResponse)] = []
            for try await r in group { out.append(r) }
            return out.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    static func version(_ r: RawResponse) -> Int? { (try? r.object()["version"]) as? Int }

    @Test("with the version read: exactly one of simultaneous ratings applies; the others get 409 with the card it made", arguments: [2, 8])
    func versionedRatingsConflict(simultaneous: Int) async throws {
        try await withServer { s in
            let data = try await LearnerData.open(s)
            let anna = try await data.add("anna")
            let items = try await data.save(["cat", "dog", "fish", "apple", "cake"], for: anna)
            for item in items {
                let ratings = (0..<simultaneous).map { i in #"{"item":\#(item.id),"rating":\#(i % 4 + 1),"version":0}"# }
                let answers = try await Self.rateAtOnce(s, token: anna.token, ratings)
                let applied = answers.filter { $0.status == 200 }
                let refused = answers.filter { $0.status == 409 }
                #expect(applied.count == 1 && refused.count == simultaneous - 1, "\(answers.map(\.status))")
                let card = try #require(try await data.store.card(of: item.id, learner: anna.id))
                #expect(card.version == 1 && card.card.reps == 1, "applied once")
                let log = try await data.store.reviews(of: anna.id, since: 0).filter { $0.itemID == item.id }
                #expect(log.count == 1)
                // The one applied is the one the log has, and every refusal shows its result.
                let winner = try #require(applied.first)
                #expect((try winner.object()["rating"] as? Int) == log.first?.rating.rawValue)
                for r in refused {
                    #expect(try r.error()["code"] as? String == "stale_card")
                    let current = try #require(try r.object()["card"] as? [String: Any])
                    #expect(current["version"] as? Int == 1 && current["reps"] as? Int == 1)
                    #expect((current["due"] as? NSNumber)?.doubleValue == (try winner.object()["due"] as? NSNumber)?.doubleValue)
                }
            }
        }
    }

    @Test("without a version: simultaneous ratings are all applied, one after the other", arguments: [2, 8])
    func unversionedRatingsSerialise(simultaneous: Int) async throws {
        try await withServer { s in
            let data = try await LearnerData.open(s)
            let anna = try await data.add("anna")
            let items = try await data.save(["cat", "dog", "fish"], for: anna)
            for item in items {
                let answers = try await Self.rateAtOnce(s, token: anna.token, Array(repeating: #"{"item":\#(item.id),"rating":"good"}"#, count: simultaneous))
                #expect(answers.allSatisfy { $0.status == 200 }, "\(answers.map(\.status))")
                // Each was applied to the state the one before it left: versions 1…n, no two alike.
                #expect(Set(answers.compactMap(Self.version)) == Set(1...simultaneous))
                let card = try #require(try await data.store.card(of: item.id, learner: anna.id))
                #expect(card.version == simultaneous && card.card.reps == simultaneous)
                let log = try await data.store.reviews(of: anna.id, since: 0).filter { $0.itemID == item.id }.sorted { $0.id < $1.id }
                #expect(log.count == simultaneous)
                // A chain: each rating's state before is the state after the one before it.
                for (earlier, later) in zip(log, log.dropFirst()) { #expect(later.before == earlier.after) }
                #expect(log.first?.before.phase == .new)
                #expect(log.last?.after == card.card)
            }
        }
    }

    @Test("the same clientId sent at once is applied once; the others answer the same result with repeated: true", arguments: [2, 8])
    func sameClientIDAppliesOnce(simultaneous: Int) async throws {
        try await withServer { s in
            let data = try await LearnerData.open(s)
            let anna = try await data.add("anna")
            let items = try await data.save(["cat", "dog", "fish"], for: anna)
            for item in items {
                let body = #"{"item":\#(item.id),"rating":"easy","clientId":"offline-\#(item.id)"}"#
                let answers = try await Self.rateAtOnce(s, token: anna.token, Array(repeating: body, count: simultaneous))
                #expect(answers.allSatisfy { $0.status == 200 }, "\(answers.map(\.status))")
                let repeated = try answers.map { try $0.object()["repeated"] as? Bool }
                #expect(repeated.filter { $0 == false }.count == 1 && repeated.filter { $0 == true }.count == simultaneous - 1)
                // Every answer describes the one rating applied.
                #expect(Set(try answers.map { "\(try $0.object()["reviewedAt"] ?? "")|\(try $0.object()["due"] ?? "")" }).count == 1)
                let card = try #require(try await data.store.card(of: item.id, learner: anna.id))
                #expect(card.version == 1 && card.card.reps == 1)
                #expect(try await data.store.reviews(of: anna.id, since: 0).filter { $0.itemID == item.id }.count == 1)
            }
        }
    }
}
