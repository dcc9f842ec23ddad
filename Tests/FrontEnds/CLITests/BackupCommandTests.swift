import Foundation
import SQLiteDB
import TestSupport
import Testing

/// `vocab backup` and `vocab restore` as an operator runs them, on the embedded files and on a
/// real PostgreSQL: everything comes back, a bad file changes nothing, learners are replaced
/// only with --force.
@Suite("vocab backup and restore, on user.sqlite and on PostgreSQL")
struct BackupCommandTests {
    @Test(
        "a backup holds every learner's data; after a loss, restore brings it back; a damaged file or one that would replace learners without --force changes nothing",
        arguments: StorageEngine.allCases)
    func roundTrip(_ engine: StorageEngine) throws {
        var vocab = try LearningRunner()
        if engine == .postgres {
            vocab.environment["VOCAB_DATABASE_URL"] = try TestPostgres.shared().createDatabase("backup")
            #expect(try vocab.run("db", "push").status == 0)
        }
        func ok(_ args: String..., input: String? = nil) throws -> ProcessResult {
            let r = try vocab.run(args, input: input)
            #expect(r.status == 0, "\(args): \(r.stderr)")
            return r
        }
        _ = try ok("users", "add", "anna")
        _ = try ok("library", "add", "cat", "--user", "anna")
        _ = try ok("review", "--user", "anna", "--json", input: "3\n")
        _ = try ok("class", "add", "Year 3", "--user", "anna")
        let file = vocab.home.file("backup.file")
        let made = try ok("backup", "--out", file)
        #expect(made.stdout.hasPrefix("Backed up \(file)"), "\(made.stdout)")
        #expect(FileManager.default.fileExists(atPath: file))

        // Later: a new learner, and anna's rating undone.
        _ = try ok("users", "add", "ben")
        _ = try ok("review", "--user", "anna", "--json", input: "u\nq\n")
        let refused = try vocab.run("restore", file)
        #expect(refused.status == 75 && refused.stderr.contains("--force"), "\(refused.stderr)")
        #expect(try vocab.run("users", "list").stdout.contains("ben"), "nothing was replaced")

        try Data("not a backup at all".utf8).write(to: URL(fileURLWithPath: vocab.home.file("bad.file")))
        let bad = try vocab.run("restore", vocab.home.file("bad.file"), "--force")
        #expect(bad.status == 65, "\(bad.status) \(bad.stderr)")
        #expect(try vocab.run("users", "list").stdout.contains("ben"), "a bad file changes nothing")

        let restored = try ok("restore", file, "--force")
        #expect(restored.stdout.hasPrefix("Restored"))
        let users = try ok("users", "list").stdout
        #expect(users.contains("anna") && !users.contains("ben"), "\(users)")
        let progress = try #require(try vocab.json("progress", "--user", "anna") as? [String: Any])
        #expect(((progress["report"] as? [String: Any])?["reviewsPerDay"] as? [[String: Any]])?.last?["reviews"] as? Int == 1, "the rating is back")
        #expect(try ok("class", "list", "--user", "anna").stdout.contains("Year 3"), "and the class")
        #expect(try vocab.run("restore", vocab.home.file("missing.file")).status == 66)
    }
}
