import Foundation
import SQLiteDB
import TestSupport
import Testing

@Suite("One versioning scheme for every SQLite file: user_version and ordered steps")
struct MigratorTests {
    let migrator = Migrator(
        file: "test.sqlite",
        steps: [
            Migrator.Step(1, "notes") { db in try db.execute("CREATE TABLE IF NOT EXISTS notes(text TEXT)") },
            Migrator.Step(2, "note times") { db in
                try db.execute("ALTER TABLE notes ADD COLUMN at INTEGER NOT NULL DEFAULT 0")
                try db.execute("UPDATE notes SET at = 42")
            },
        ])

    @Test("a file of the previous version is upgraded in place, its data kept")
    func upgradesAPreviousVersion() throws {
        let dir = try TemporaryDirectory("migrator")
        defer { dir.remove() }
        let db = try Database(path: dir.file("test.sqlite"))
        try Migrator(file: "test.sqlite", steps: Array(migrator.steps.prefix(1))).migrate(db)
        try db.run("INSERT INTO notes VALUES ('kept')")
        #expect(try Migrator.version(of: db) == 1)

        let result = try migrator.migrate(db)
        #expect(result.from == 1 && result.to == 2)
        #expect(try db.scalar("SELECT text || ':' || at FROM notes")?.textValue == "kept:42")
        #expect(try migrator.migrate(db).from == 2) // nothing left to do
    }

    @Test("a file from a newer vocab is refused, not guessed at")
    func refusesNewer() throws {
        let dir = try TemporaryDirectory("migrator")
        defer { dir.remove() }
        let db = try Database(path: dir.file("test.sqlite"))
        try db.execute("PRAGMA user_version = 9")
        #expect(throws: MigrationError.newer(file: "test.sqlite", version: 9, known: 2)) { try migrator.migrate(db) }
    }

    @Test("a failing step changes nothing: the file stays at its version")
    func failingStepRollsBack() throws {
        let dir = try TemporaryDirectory("migrator")
        defer { dir.remove() }
        let db = try Database(path: dir.file("test.sqlite"))
        let broken = Migrator(
            file: "test.sqlite",
            steps: migrator.steps + [
                Migrator.Step(3, "broken") { db in
                    try db.execute("CREATE TABLE half(x)")
                    try db.execute("THIS IS NOT SQL")
                }
            ])
        #expect(throws: SQLiteError.self) { try broken.migrate(db) }
        #expect(try Migrator.version(of: db) == 2)
        #expect(try db.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'half'")?.intValue == 0)
    }

    @Test("two processes migrating one new file at once both succeed, each step applied once")
    func concurrentProcesses() async throws {
        let dir = try TemporaryDirectory("migrator")
        defer { dir.remove() }
        let path = dir.file("test.sqlite")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let db = try Database(path: path)
                    try retryingWhileBusy { try db.execute("PRAGMA journal_mode=WAL") }
                    try migrator.migrate(db)
                }
            }
            try await group.waitForAll()
        }
        let db = try Database(path: path)
        #expect(try Migrator.version(of: db) == 2)
        #expect(try db.scalar("SELECT count(*) FROM pragma_table_info('notes') WHERE name = 'at'")?.intValue == 1)
    }
}
