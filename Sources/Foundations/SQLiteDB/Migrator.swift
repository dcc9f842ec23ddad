#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Versions of the SQLite files vocab writes, kept in `PRAGMA user_version`, one scheme for all.
///
/// A file's owner lists its steps in order; `migrate` applies those the file has not had, each
/// in one transaction with the version stamp, so a file is always at a known version. Files
/// rebuilt whole from a source (the catalog, the Mandarin dictionary) are stamped with
/// `stamp` when built, and an owner that meets an older version rebuilds rather than migrates.
public struct Migrator: Sendable {
    public struct Step: Sendable {
        public let version: Int
        /// One line for a person ("learner tables"), shown when the step runs.
        public let summary: String
        let apply: @Sendable (Database) throws -> Void

        public init(_ version: Int, _ summary: String, apply: @escaping @Sendable (Database) throws -> Void) {
            self.version = version
            self.summary = summary
            self.apply = apply
        }
    }

    /// Names the file in messages ("user.sqlite").
    public let file: String
    public let steps: [Step]

    public init(file: String, steps: [Step]) {
        precondition(zip(steps, steps.dropFirst()).allSatisfy { $0.version < $1.version }, "migration steps must be in ascending order")
        self.file = file
        self.steps = steps
    }

    public var latest: Int { steps.last?.version ?? 0 }

    public static func version(of database: Database) throws -> Int {
        Int(try database.scalar("PRAGMA user_version")?.intValue ?? 0)
    }

    /// Brings the file to the latest version; returns the versions before and after.
    /// A file from a newer vocab is refused rather than guessed at.
    @discardableResult
    public func migrate(_ database: Database) throws -> (from: Int, to: Int) {
        let before = try Self.version(of: database)
        if before == latest { return (before, before) }
        guard before < latest else { throw MigrationError.newer(file: file, version: before, known: latest) }
        var current = before
        for step in steps where step.version > before {
            // Another process may have migrated meanwhile: the version is read again inside the
            // write lock, and a step already applied is skipped.
            try retryingWhileBusy {
                try database.transaction {
                    let now = try Self.version(of: database)
                    guard now < step.version else { return }
                    try step.apply(database)
                    try database.execute("PRAGMA user_version = \(step.version)")
                }
            }
            current = step.version
        }
        return (before, current)
    }

    /// Marks a freshly built file as the latest version.
    public func stamp(_ database: Database) throws {
        try database.execute("PRAGMA user_version = \(latest)")
    }
}

public enum MigrationError: Error, CustomStringConvertible, Sendable, Equatable {
    case newer(file: String, version: Int, known: Int)

    public var description: String {
        switch self {
        case .newer(let file, let version, let known):
            return "\(file) is at version \(version), newer than this vocab knows (\(known)); update vocab to use it."
        }
    }
}

/// SQLite answers SQLITE_BUSY at once, without its busy handler, in a few cases: changing the
/// journal mode, or a deferred transaction that must upgrade to a write lock. Two processes
/// setting up one new file hit them; waiting a little and trying again is the remedy.
public func retryingWhileBusy<T>(for seconds: Double = 10, _ body: () throws -> T) throws -> T {
    var waited = 0.0
    var pause = 0.002
    while true {
        do {
            return try body()
        } catch let error as SQLiteError where (error.code & 0xFF) == 5 || (error.code & 0xFF) == 6 { // SQLITE_BUSY, SQLITE_LOCKED
            guard waited < seconds else { throw error }
            usleep(useconds_t(pause * 1_000_000))
            waited += pause
            pause = min(pause * 2, 0.1)
        }
    }
}
