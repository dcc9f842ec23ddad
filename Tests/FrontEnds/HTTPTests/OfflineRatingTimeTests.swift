import Foundation
import Learners
import TestSupport
import Testing

/// A rating made offline and sent later counts from when it was made, so a day offline lands
/// on its own day; the time must be plausible.
@Suite("Ratings sent later than they were made")
struct OfflineRatingTimeTests {
    @Test("reviewedAt a day ago: the log and the card count from then; the future within a clock's error is now; older than 30 days or nonsense is 400")
    func reviewedAt() async throws {
        try await withServer { s in
            let data = try await LearnerData.open(s)
            let anna = try await data.add("anna")
            let items = try await data.save(["cat", "dog", "fish"], for: anna)
            let now = Date().timeIntervalSince1970
            let yesterday = (now - 86_400).rounded()

            let offline = try await s.send(
                "POST", "/v1/me/reviews", token: anna.token,
                json: #"{"item":\#(items[0].id),"rating":"good","clientId":"offline-1","reviewedAt":\#(yesterday)}"#)
            #expect(offline.status == 200, "\(offline.text)")
            let logged = try await data.store.reviews(of: anna.id, since: 0).filter { $0.itemID == items[0].id }
            #expect(logged.map(\.reviewedAt) == [yesterday], "the log keeps the time it was made")
            let card = try #require(try await data.store.card(of: items[0].id, learner: anna.id))
            #expect(card.card.lastReview == yesterday)

            // A clock a minute ahead: taken as now, not refused.
            let ahead = try await s.send(
                "POST", "/v1/me/reviews", token: anna.token,
                json: #"{"item":\#(items[1].id),"rating":"good","reviewedAt":\#(now + 60)}"#)
            #expect(ahead.status == 200, "\(ahead.text)")
            let aheadLog = try #require(try await data.store.reviews(of: anna.id, since: 0).first { $0.itemID == items[1].id })
            #expect(aheadLog.reviewedAt <= Date().timeIntervalSince1970)

            for bad in ["\(now - 31 * 86_400)", "\(now + 3_600)", "\"yesterday\"", "-1"] {
                let refused = try await s.send(
                    "POST", "/v1/me/reviews", token: anna.token,
                    json: #"{"item":\#(items[2].id),"rating":"good","reviewedAt":\#(bad)}"#)
                #expect(refused.status == 400, "reviewedAt \(bad): \(refused.status) \(refused.text)")
            }
            #expect(try await data.store.reviews(of: anna.id, since: 0).filter { $0.itemID == items[2].id }.isEmpty, "nothing refused was applied")
        }
    }
}
