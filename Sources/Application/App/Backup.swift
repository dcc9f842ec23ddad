import AppCore
import FileAccess
import Foundation
import Learners
import Offloading
import PostgresNIO
import SQLiteDB
import Spawning

/// Learners' data copied out and put back: every learner, password and token hash, library,
/// card, rating, session, class and assignment. On the embedded engine a backup is a
/// consistent copy of user.sqlite (`VACUUM INTO`, safe while the server runs); on PostgreSQL
/// it is `pg_dump`'s custom format of the database. A restore checks the file first and
/// replaces everything in one step (a rename, or one transaction), so a failed restore
/// leaves the current data as it was; it refuses to replace learners unless forced.
public struct Backup: Sendable {
    public let database: DatabaseChoice
    public let home: HomeLayout

    public init(database: DatabaseChoice, home: HomeLayout) {
        self.database = database
        self.home = home
    }

    public struct Summary: Sendable, Codable, Equatable {
        public var engine: String
        public var file: String
        public var bytes: Int
        public var learners: Int
        public var reviews: Int
    }

    /// Writes the backup to `path` by `OutputPath`'s rule (a device, FIFO or `-` is written
    /// into, never replaced), checked whole before it is put there.
    public func backup(to path: String) async throws -> Summary {
        let destination = try OutputPath.resolve(path, tag: "backup")
        let temporary = destination.temporary
        let summary: Summary
        do {
            switch database {
            case .embedded:
                guard FileManager.default.fileExists(atPath: home.userDatabase) else {
                    throw Failure(.missingFile, "there is no learner data to back up yet (no \(home.userDatabase)).")
                }
                try await BlockingWork.run { [home] in
                    let db = try Database(path: home.userDatabase, mode: .readOnly)
                    try db.execute("VACUUM INTO '\(temporary.replacingOccurrences(of: "'", with: "''"))'")
                }
            case .postgres(let url, _):
                try await Self.tool("pg_dump", ["--format=custom", "--no-owner", "--no-privileges", "--file=\(temporary)", url])
            }
            var checked = try await self.summary(of: temporary)
            checked.file = path
            summary = checked
            try destination.commit()
        } catch {
            destination.discard()
            throw error
        }
        return summary
    }

    /// Puts a backup back. `force` is needed when learners are there now: they are replaced.
    public func restore(from path: String, force: Bool) async throws -> Summary {
        guard FileManager.default.fileExists(atPath: path) else { throw Failure(.missingFile, "there is no backup at \(Failure.quote(path, limit: 200)).") }
        let incoming = try await summary(of: path)
        let current = try await currentLearners()
        if current > 0 && !force {
            throw Failure(
                .wouldReplace, "the \(database == .embedded ? "embedded" : "PostgreSQL") database has \(current) learner(s) now; a restore replaces them.",
                hint: "Add --force to replace them with the backup's \(incoming.learners).")
        }
        switch database {
        case .embedded:
            try DurableFile.createDirectory(home.root)
            let temporary = TemporaryFile.path(beside: home.userDatabase, tag: "restore")
            do {
                try FileManager.default.copyItem(atPath: path, toPath: temporary)
                // The copy is brought to this version's layout before it replaces anything, with
                // a rollback journal so that nothing of it is left in a log beside it.
                do {
                    let db = try Database(path: temporary, keepLogFiles: false)
                    try db.execute("PRAGMA journal_mode=DELETE")
                    _ = try UserDatabase.migrator.migrate(db)
                }
                try DurableFile.replaceDatabase(home.userDatabase, with: temporary)
            } catch {
                DurableFile.removeDatabase(temporary)
                throw error
            }
        case .postgres(let url, _):
            try await Self.tool(
                "pg_restore",
                [
                    "--clean", "--if-exists", "--no-owner", "--no-privileges", "--single-transaction",
                    "--exit-on-error", "--dbname=\(url)", path,
                ])
        }
        return incoming
    }

    /// What a backup file holds; a file that is not one is refused before anything is touched.
    func summary(of path: String) async throws -> Summary {
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        switch database {
        case .embedded:
            return try await BlockingWork.run {
                do {
                    let db = try Database(path: path, mode: .readOnly)
                    guard try db.scalar("PRAGMA integrity_check")?.textValue == "ok" else { throw Failure(.invalidBackup, "\(path) is damaged.") }
                    let version = Int(try db.scalar("PRAGMA user_version")?.intValue ?? 0)
                    guard version >= 2, version <= UserDatabase.migrator.latest else {
                        throw Failure(.invalidBackup, "\(path) is not a backup of this version's learner data (layout \(version)).")
                    }
                    return Summary(
                        engine: "sqlite", file: path, bytes: bytes,
                        learners: Int(try db.scalar("SELECT count(*) FROM learners")?.intValue ?? 0),
                        reviews: Int(try db.scalar("SELECT count(*) FROM reviews")?.intValue ?? 0))
                } catch let error as SQLiteError {
                    throw Failure(.invalidBackup, "\(path) is not a learner backup: \(error.description)")
                }
            }
        case .postgres:
            // pg_restore reads the archive's table of contents: a file that is not one is refused.
            let listing = try await Self.tool("pg_restore", ["--list", path], failure: .invalidBackup)
            guard listing.contains("TABLE DATA public learners") else {
                throw Failure(.invalidBackup, "\(path) is a PostgreSQL archive without vocab's learners.")
            }
            return Summary(engine: "postgresql", file: path, bytes: bytes, learners: -1, reviews: -1)
        }
    }

    func currentLearners() async throws -> Int {
        switch database {
        case .embedded:
            guard FileManager.default.fileExists(atPath: home.userDatabase) else { return 0 }
            return try await BlockingWork.run { [home] in
                let db = try Database(path: home.userDatabase, mode: .readOnly)
                return Int(try db.scalar("SELECT count(*) FROM learners")?.intValue ?? 0)
            }
        case .postgres(let url, _):
            let server = try ServerDatabase(url: url, maximumConnections: 1)
            return try await server.whileRunning { _ in
                try await server.database.rows("SELECT count(*) FROM learners").first?.decode(Int.self) ?? 0
            }
        }
    }

    /// Runs a PostgreSQL client tool off the cooperative threads; its standard output, or a
    /// failure with what it said.
    @discardableResult
    static func tool(_ name: String, _ arguments: [String], failure: FailureCode = .backupFailed) async throws -> String {
        guard let path = ["/usr/bin/", "/usr/local/bin/"].map({ $0 + name }).first(where: FileManager.default.isExecutableFile) else {
            throw Failure(.backupFailed, "\(name) is not installed (Debian: apt install postgresql-client).")
        }
        return try await BlockingWork.run {
            let finished = try ChildProcess.run(path, arguments: arguments)
            guard finished.termination == .exited(0) else {
                // The URL (with its password) is never repeated in a message.
                let said = String(decoding: finished.error, as: UTF8.self)
                throw Failure(failure, "\(name) failed: \(said.split(separator: "\n").prefix(3).joined(separator: " "))")
            }
            return String(decoding: finished.output, as: UTF8.self)
        }
    }
}
