import Learners
import Testing

/// What each credential change does, as every engine carries it out (the engines' own tests in
/// `LearnerStoreTests` check the rows).
@Suite("Credential rules: one decision for both engines")
struct CredentialRulesTests {
    @Test("revoking tokens or setting a password ends every session; the token count comes from the revocation")
    func sessionsEnd() {
        #expect(CredentialChange.revokeTokens.steps == [.revokeLiveTokens, .endSessions])
        #expect(CredentialChange.setPassword(hash: "h").steps == [.setPasswordHash("h"), .endSessions])
        #expect(CredentialChange.setPassword(hash: nil).steps.contains(.endSessions), "clearing a password ends sessions too")
    }

    @Test("deleting a learner deletes every table that holds their rows, children before parents, then the learner")
    func deletionIsWhole() {
        let steps = CredentialChange.deleteLearner.steps
        #expect(steps.last == .deleteLearnerRow)
        guard case .deleteOwnedRows(let tables) = steps.first else {
            Issue.record("the owned rows go first: \(steps)")
            return
        }
        #expect(Set(tables) == ["review_slots", "review_items", "reviews", "cards", "items", "tokens", "sessions"])
        #expect(tables.firstIndex(of: "reviews")! < tables.firstIndex(of: "items")!, "a review names its item")
        #expect(tables.firstIndex(of: "cards")! < tables.firstIndex(of: "items")!, "a card names its item")
    }
}
