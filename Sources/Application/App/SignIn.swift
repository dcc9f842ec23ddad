import AppCore
import Foundation
import HummingbirdBcrypt
import Learners
import Offloading

/// The rules of a learner's password, written once for `vocab users passwd` and the server.
public enum PasswordRules {
    public static let minLength = 10
    /// bcrypt reads at most 72 bytes: a longer password would be cut silently, so it is refused.
    public static let maxBytes = 72
    /// bcrypt's cost: 2^12 rounds, a few hundred milliseconds a check.
    public static let cost: UInt8 = 12

    public static func check(_ password: String) throws(Failure) {
        guard password.count >= minLength else {
            throw Failure(.shortPassword, "a password needs at least \(minLength) characters.")
        }
        guard password.utf8.count <= maxBytes else {
            throw Failure(.longPassword, "a password may have at most \(maxBytes) bytes of UTF-8.")
        }
        // The C library reads the password up to its first NUL.
        guard !password.unicodeScalars.contains(where: InputRules.isForbidden) else {
            throw Failure(.badPassword, "a password may not contain control characters.")
        }
    }

    /// Checked against when the name is unknown or has no password, so an answer takes as long
    /// whether or not the name exists.
    static let decoy = Bcrypt.hash("vocab decoy password", cost: cost)

    /// Computes the decoy before the first sign-in: made lazily, the first unknown name after a
    /// start took a hash longer than a wrong password, telling that the name does not exist.
    public static func prepare() async {
        _ = try? await BlockingWork.run { decoy }
    }

    /// One check per core at a time, and a short queue: a sign-in waits at most four checks'
    /// time (about a second) behind others, and beyond that is told to retry, so a burst of sign-ins cannot
    /// take the cores every other request needs.
    public static func gate(cores: Int = ProcessInfo.processInfo.activeProcessorCount) -> WorkGate {
        WorkGate(limit: max(1, cores), waiting: 4 * max(1, cores))
    }

    static func busy(_ full: GateFull) -> Failure {
        Failure(.signInBusy, "too many sign-ins are being checked at once; try again in a second.")
    }
}

extension LearningService {
    /// Gives a learner a password (bcrypt, off the cooperative threads) and ends their browser
    /// sessions. API tokens are not affected.
    public func setPassword(_ password: String, for learner: Learner) async throws {
        try PasswordRules.check(password)
        let hash = try await passwordWork { Bcrypt.hash(password, cost: PasswordRules.cost) }
        try await store.setPasswordHash(hash, of: learner.id)
    }

    /// A new browser session for the learner with this name and password; nil when the name is
    /// unknown, the learner has no password or the password is wrong (the caller cannot tell which).
    public func signIn(name: String, password: String) async throws -> (learner: Learner, session: String)? {
        let learner = try await store.learner(named: name)
        let stored: String? = if let learner { try await store.passwordHash(of: learner.id) } else { nil }
        let matches = try await passwordWork {
            Bcrypt.verify(password, hash: stored ?? PasswordRules.decoy) && stored != nil
                && !password.unicodeScalars.contains(where: InputRules.isForbidden)
        }
        guard matches, let learner else { return nil }
        return (learner, try await startSession(for: learner))
    }

    /// A new browser session for a learner whose credentials were checked.
    public func startSession(for learner: Learner) async throws -> String {
        let token = Sessions.generate()
        let time = now()
        try await store.addSession(hash: Sessions.hash(token), for: learner.id, at: time, expires: time + Sessions.lifetime)
        return token
    }

    /// Runs password work (bcrypt) in turn with every other check of this service.
    public func passwordWork<T: Sendable>(_ body: @escaping @Sendable () -> T) async throws -> T {
        do {
            return try await passwordChecks.run(body)
        } catch let full as GateFull {
            throw PasswordRules.busy(full)
        }
    }

    /// The learner of a live session; nil for a malformed, unknown, ended or expired one.
    public func learner(session token: String) async throws -> Learner? {
        guard Sessions.isWellFormed(token) else { return nil }
        return try await store.learner(sessionHash: Sessions.hash(token), at: now())
    }

    /// Ends a session; false when it was not live.
    public func signOut(session token: String) async throws -> Bool {
        guard Sessions.isWellFormed(token) else { return false }
        return try await store.removeSession(hash: Sessions.hash(token))
    }
}
