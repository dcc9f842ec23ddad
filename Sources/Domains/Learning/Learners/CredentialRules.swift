/// What a change to a learner's credentials does, decided here once for every engine: a store
/// carries out the steps in order, in one transaction, as rows it reads and writes. A token
/// revoked or a password changed ends every browser session, so a stolen session cannot outlive
/// the credential it came from; deleting a learner deletes every row of theirs.
public enum CredentialChange: Sendable, Equatable {
    /// Revokes every live API token.
    case revokeTokens
    /// Sets (or, with nil, clears) the password hash.
    case setPassword(hash: String?)
    /// Deletes the learner and everything of theirs.
    case deleteLearner

    /// One row operation of a change.
    public enum Step: Sendable, Equatable {
        /// Mark the learner's live tokens revoked at the change's time; counts them.
        case revokeLiveTokens
        /// Delete every session of the learner.
        case endSessions
        case setPasswordHash(String?)
        /// Delete the learner's rows from each table, children before parents.
        case deleteOwnedRows(tables: [String])
        /// Delete the learner's own row; says whether there was one.
        case deleteLearnerRow
    }

    public var steps: [Step] {
        switch self {
        case .revokeTokens: [.revokeLiveTokens, .endSessions]
        case .setPassword(let hash): [.setPasswordHash(hash), .endSessions]
        case .deleteLearner: [.deleteOwnedRows(tables: LearnerCoding.ownedTables), .deleteLearnerRow]
        }
    }

    /// What the steps found: tokens revoked, whether a learner row was deleted.
    public struct Outcome: Sendable, Equatable {
        public var tokensRevoked = 0
        public var learnerDeleted = false
        public init() {}
    }
}

extension LearnerStore {
    /// Ends every credential of a learner: revokes their live tokens (returns how many) and ends
    /// their browser sessions, in one step.
    public func revokeTokens(of learner: Int64, at time: Double) async throws -> Int {
        try await change(.revokeTokens, of: learner, at: time).tokensRevoked
    }

    /// Deletes a learner and everything of theirs, in one step; false when there was none.
    public func deleteLearner(_ learner: Int64) async throws -> Bool {
        // Only a revocation records its time.
        try await change(.deleteLearner, of: learner, at: 0).learnerDeleted
    }

    /// Sets (or clears) a learner's password hash and ends every session of theirs, in one step.
    public func setPasswordHash(_ hash: String?, of learner: Int64) async throws {
        _ = try await change(.setPassword(hash: hash), of: learner, at: 0)
    }
}
