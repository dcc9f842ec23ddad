import SQLiteDB

/// Everything of every learner in a store, to move them to another engine (`vocab db copy-users`).
public struct LearnerSnapshot: Sendable {
    public struct Account: Sendable {
        public var learner: Learner
        public var passwordHash: String?
        public var tokens: [Token]
        public var items: [(item: SavedItem, card: CardRecord)]
        public var reviews: [ReviewEntry]
    }

    public struct Token: Sendable {
        public var hash: [UInt8]
        public var label: String
        public var createdAt: Double
        public var revokedAt: Double?
    }

    public var accounts: [Account]

    public var counts: (learners: Int, tokens: Int, items: Int, reviews: Int) {
        (
            accounts.count, accounts.reduce(0) { $0 + $1.tokens.count }, accounts.reduce(0) { $0 + $1.items.count },
            accounts.reduce(0) { $0 + $1.reviews.count }
        )
    }
}

extension SQLiteLearnerStore {
    /// Every learner with their tokens (hashes only), items, cards and review log.
    public func snapshot() async throws -> LearnerSnapshot {
        var accounts: [LearnerSnapshot.Account] = []
        for learner in try await learners() {
            let tokens = try await tokenRows(of: learner.id)
            accounts.append(
                LearnerSnapshot.Account(
                    learner: learner, passwordHash: try await passwordHash(of: learner.id), tokens: tokens,
                    items: try await cards(of: learner.id), reviews: try await reviews(of: learner.id, since: -.infinity)))
        }
        return LearnerSnapshot(accounts: accounts)
    }

    private func tokenRows(of learner: Int64) async throws -> [LearnerSnapshot.Token] {
        try await read { db in
            try db.query(
                "SELECT hash, label, created_at, revoked_at FROM tokens WHERE learner_id = ? ORDER BY created_at",
                [.integer(learner)]
            ) { row in
                LearnerSnapshot.Token(
                    hash: row.bytes(0), label: row.text(1) ?? "", createdAt: row.double(2),
                    revokedAt: row.isNull(3) ? nil : row.double(3))
            }
        }
    }
}
