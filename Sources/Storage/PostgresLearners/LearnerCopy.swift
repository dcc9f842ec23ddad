import FSRS
import Foundation
import Learners
import PostgresNIO
import PostgresStore

extension PostgresLearnerStore {
    /// Adds every learner of a snapshot (from user.sqlite) with new ids, all in one transaction:
    /// a name or token already in the database stops the copy and nothing is written.
    /// Ratings of items removed since keep their item id (0), as the log keeps such rows.
    public func copy(_ snapshot: LearnerSnapshot) async throws {
        try await database.transaction { tx in
            for account in snapshot.accounts {
                let learner = account.learner
                let key = try LearnerCoding.nameKey(learner.name)
                let settings = try LearnerCoding.json(learner.settings)
                guard
                    let id = try await tx.rows(
                        """
                        INSERT INTO learners(name, name_key, created_at, settings, password_hash)
                        VALUES (\(learner.name), \(key), \(learner.createdAt), \(settings), \(account.passwordHash))
                        ON CONFLICT (name_key) DO NOTHING RETURNING id
                        """
                    ).first?.decode(Int64.self)
                else { throw LearnerError.nameTaken(learner.name) }
                for token in account.tokens {
                    try await tx.run(
                        """
                        INSERT INTO tokens(hash, learner_id, label, created_at, revoked_at)
                        VALUES (\(Data(token.hash)), \(id), \(token.label), \(token.createdAt), \(token.revokedAt))
                        """)
                }
                var itemIDs: [Int64: Int64] = [:]
                for (item, card) in account.items {
                    let details = try item.details.map { try LearnerCoding.json($0) }
                    let newID =
                        try await tx.rows(
                            """
                            INSERT INTO items(learner_id, source, entry, reading, word, saved_at, details)
                            VALUES (\(id), \(item.key.source.rawValue), \(item.key.entry), \(item.key.reading), \(item.word), \(item.savedAt), \(details))
                            RETURNING id
                            """
                        ).first?.decode(Int64.self) ?? 0
                    itemIDs[item.id] = newID
                    try await Self.insert(CardRecord(itemID: newID, card: card.card, version: card.version), learner: id, in: tx)
                }
                var copied: [ReviewEntry] = []
                for review in account.reviews {
                    var review = review
                    review.itemID = itemIDs[review.itemID] ?? 0
                    try await tx.run(
                        """
                        INSERT INTO reviews(learner_id, item_id, reviewed_at, rating, elapsed_days, before, after, client_id)
                        VALUES (\(id), \(review.itemID), \(review.reviewedAt), \(review.rating.rawValue), \(review.elapsedDays),
                                \(try LearnerCoding.cardJSON(review.before)), \(try LearnerCoding.cardJSON(review.after)), \(review.clientID))
                        """)
                    copied.append(review)
                }
                try await Self.insert(ReviewTotals(log: copied), learner: id, in: tx)
            }
        }
    }
}
