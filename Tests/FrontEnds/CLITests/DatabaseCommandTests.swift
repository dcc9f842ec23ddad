import Foundation
import TestSupport
import Testing

/// `vocab db migrate | push | copy-users` as a person runs them, against a real PostgreSQL server;
/// what they wrote is read back with psql, not through vocab.
@Suite("vocab db against a real PostgreSQL server")
struct DatabaseCommandTests {
    let runner: LearningRunner
    let server: TestPostgres
    let url: String

    init() throws {
        runner = try LearningRunner()
        server = try TestPostgres.shared()
        url = try server.createDatabase("cli")
    }

    func sql(_ text: String) throws -> String { try server.psql(text, database: url.postgresDatabaseName) }

    @Test("migrate applies each step once and records it; a second run has nothing to do")
    func migrate() throws {
        let first = try runner.run("db", "migrate", "--database", url)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            first.stdout.contains("applied documents 1") && first.stdout.contains("applied learners 1") && first.stdout.contains("applied learners 2")
                && first.stdout.contains("applied learners 3") && first.stdout.contains("applied learners 4") && first.stdout.contains("applied moe 1"),
            "\(first.stdout)")
        #expect(
            try sql("SELECT component || ' ' || version FROM schema_migrations ORDER BY 1")
                == "documents 1\nlearners 1\nlearners 2\nlearners 3\nlearners 4\nmoe 1")
        let again = try runner.json("db", "migrate", "--database", url) as? [String: Any]
        #expect((again?["applied"] as? [String])?.isEmpty == true)
        let versions = again?["versions"] as? [[String: Any]] ?? []
        #expect(versions.map { $0["version"] as? Int } == [1, 4, 1] && versions.allSatisfy { $0["version"] as? Int == $0["latest"] as? Int })
        // The URL may also come from the environment.
        var environment = runner.environment
        environment["VOCAB_DATABASE_URL"] = url
        let fromVariable = try runProcess(Repository.vocabExecutable, ["db", "migrate"], environment: environment)
        #expect(fromVariable.status == 0 && fromVariable.stdout.contains("up to date"), "\(fromVariable.stdout)\(fromVariable.stderr)")
    }

    @Test(
        "every learner command finds the database as serve does: with only $VOCAB_DATABASE_URL set, users, library, review and export act on PostgreSQL, not user.sqlite"
    )
    func learnerCommandsFollowTheEnvironment() throws {
        var environment = runner.environment
        environment["VOCAB_DATABASE_URL"] = url
        func vocab(_ args: [String], input: String? = nil) throws -> ProcessResult {
            let result = try runProcess(Repository.vocabExecutable, args, environment: environment, input: input)
            #expect(result.status == 0, "\(args): \(result.stderr)")
            return result
        }
        _ = try vocab(["users", "add", "ben", "--json"])
        #expect(try sql("SELECT name FROM learners WHERE name = 'ben'") == "ben", "ben is in PostgreSQL")
        #expect(try vocab(["users", "list"]).stdout.contains("ben"))
        _ = try vocab(["db", "push"])
        _ = try vocab(["library", "add", "cat", "--user", "ben"])
        #expect(try sql("SELECT count(*) FROM items i JOIN learners l ON l.id = i.learner_id WHERE l.name = 'ben'") == "1")
        #expect(try vocab(["library", "list", "--user", "ben"]).stdout.contains("cat"))
        let review = try vocab(["review", "--user", "ben", "--json"], input: "3\n")
        #expect(review.stdout.contains("\"rating\""), "\(review.stdout)")
        #expect(try sql("SELECT count(*) FROM reviews r JOIN learners l ON l.id = r.learner_id WHERE l.name = 'ben'") == "1")
        let exported = try vocab(["export", "--user", "ben", "--out", runner.home.file("ben.apkg"), "--json"])
        #expect(exported.stdout.contains("\"notes\" : 1") || exported.stdout.contains("\"notes\":1"), "\(exported.stdout)")

        let embedded = try runner.run("users", "list")
        #expect(!embedded.stdout.contains("ben"), "and not in user.sqlite: \(embedded.stdout)")
    }

    @Test("push loads every category and word; pushing again replaces them, not adds to them")
    func push() throws {
        let pushed = try runner.json("db", "push", "--database", url) as? [String: Any]
        let words = try #require(pushed?["words"] as? Int)
        #expect(words > 0 && (pushed?["categories"] as? Int ?? 0) > 0)
        #expect(try sql("SELECT count(*) FROM documents WHERE space = 'catalog' AND collection = 'words'") == String(words))
        #expect(try sql("SELECT body::jsonb ->> 'word' FROM documents WHERE space = 'catalog' AND id = 'animals/cat'") == "cat")
        _ = try runner.json("db", "push", "--database", url)
        #expect(try sql("SELECT count(*) FROM documents WHERE space = 'catalog' AND collection = 'words'") == String(words))
    }

    @Test(
        "push loads the imported Mandarin dictionary with its counts and replaces it on the next push; without an import it says so and leaves the database's")
    func pushMandarin() throws {
        let none = try runner.run("db", "push", "--database", url)
        #expect(none.status == 0 && none.stderr.contains("no Mandarin dictionary is imported"), "\(none.stderr)")
        #expect(try sql("SELECT count(*) FROM moe_dictionary") == "0")
        let noneJSON = try runner.json("db", "push", "--database", url) as? [String: Any]
        #expect(noneJSON?.keys.contains("moe") == false || noneJSON?["moe"] is NSNull)

        #expect(try runner.run("import", "moe", Repository.moeSample).status == 0)
        let pushed = try runner.run("db", "push", "--database", url)
        #expect(pushed.status == 0, "\(pushed.stderr)")
        #expect(pushed.stdout.contains("Pushed the Mandarin dictionary: 40 entries, 56 readings, 229 definitions in "), "\(pushed.stdout)")
        #expect(pushed.stderr.contains("moe: 229 definitions copied"), "progress on standard error: \(pushed.stderr)")
        #expect(
            try sql("SELECT count(*) || ' ' || (SELECT count(*) FROM moe_heteronym) || ' ' || (SELECT count(*) FROM moe_definition) FROM moe_entry")
                == "40 56 229")
        #expect(try sql("SELECT entries || ' ' || heteronyms || ' ' || definitions FROM moe_dictionary") == "40 56 229")
        #expect(
            try sql("SELECT string_agg(pinyin, ' ' ORDER BY h.id) FROM moe_heteronym h JOIN moe_entry e ON e.id = h.entry_id WHERE e.title = '行'")
                == "xíng háng xìng hàng")

        // Again, as JSON: the same rows, not twice as many.
        let again = try runner.json("db", "push", "--database", url) as? [String: Any]
        let moe = try #require(again?["moe"] as? [String: Any])
        #expect(moe["entries"] as? Int == 40 && moe["heteronyms"] as? Int == 56 && moe["definitions"] as? Int == 229)
        #expect(moe["seconds"] is Double || moe["seconds"] is Int)
        #expect(try sql("SELECT count(*) FROM moe_entry") == "40")
    }

    @Test("copy-users moves learners, token hashes, items, cards, reviews and their totals; a second copy is refused and writes nothing")
    func copyUsers() throws {
        let added = try runner.json("users", "add", "anna") as? [String: Any]
        let token = try #require(added?["token"] as? String)
        #expect(try runner.run("library", "add", "cat", "--user", "anna").status == 0)
        #expect(try runner.run(["review", "--user", "anna", "--json"], input: "1\n").status == 0)
        let copied = try runner.json("db", "copy-users", "--database", url) as? [String: Any]
        #expect(copied?["learners"] as? Int == 2, "anna and the local learner me: \(String(describing: copied))")
        #expect(try sql("SELECT name FROM learners WHERE name = 'anna'") == "anna")
        #expect(try sql("SELECT count(*) FROM tokens t JOIN learners l ON l.id = t.learner_id WHERE l.name = 'anna'") == "1")
        #expect(
            try sql(
                "SELECT i.word || ' ' || c.version FROM items i JOIN cards c ON c.item_id = i.id JOIN learners l ON l.id = i.learner_id WHERE l.name = 'anna'")
                == "cat 1")
        // The log's running totals come with it, counted from the rows copied.
        #expect(try sql("SELECT s.reviews FROM review_slots s JOIN learners l ON l.id = s.learner_id WHERE l.name = 'anna'") == "1")
        #expect(
            try sql("SELECT i.answers || ' ' || i.again FROM review_items i JOIN learners l ON l.id = i.learner_id WHERE l.name = 'anna'") == "1 1")
        // Only the token's hash travelled.
        let hash = try sql("SELECT encode(t.hash, 'hex') FROM tokens t")
        #expect(!hash.isEmpty && !hash.contains(Data(token.utf8).map { String(format: "%02x", $0) }.joined()))

        let again = try runner.run("db", "copy-users", "--database", url)
        #expect(again.status == 75, "\(again.status) \(again.stderr)")
        #expect(again.stderr.contains("exists already"), "\(again.stderr)")
        #expect(try sql("SELECT count(*) FROM learners WHERE name = 'anna'") == "1")
    }

    @Test("users add, list, token and revoke with --database act on the database's learners, not user.sqlite's")
    func usersOnTheDatabase() throws {
        let added = try runner.json("users", "add", "ben", "--database", url) as? [String: Any]
        let token = try #require(added?["token"] as? String)
        #expect(try sql("SELECT name FROM learners") == "ben")
        // What is stored is the token's SHA-256, as the embedded store keeps it.
        let digest = try runProcess("/usr/bin/sha256sum", [], input: token).stdout.split(separator: " ").first.map(String.init)
        #expect(try sql("SELECT encode(hash, 'hex') FROM tokens") == digest)
        let listed = try runner.json("users", "list", "--database", url) as? [[String: Any]]
        #expect(listed?.map { $0["name"] as? String } == ["ben"])
        // user.sqlite has only its local learner.
        let local = try runner.json("users", "list") as? [[String: Any]]
        #expect(local?.contains { $0["name"] as? String == "ben" } == false)
        _ = try runner.json("users", "token", "ben", "--database", url)
        #expect(try sql("SELECT count(*) FROM tokens WHERE revoked_at IS NULL") == "2")
        let revoked = try runner.json("users", "revoke", "ben", "--database", url) as? [String: Any]
        #expect(revoked?["revoked"] as? Int == 2)
        #expect(try sql("SELECT count(*) FROM tokens WHERE revoked_at IS NULL") == "0")
    }

    @Test("users passwd with --database sets the database learner's password (a bcrypt hash), not user.sqlite's; a short one changes nothing")
    func passwdOnTheDatabase() throws {
        #expect(try runner.run("users", "add", "ben", "--database", url).status == 0)
        let short = try runner.run(["users", "passwd", "ben", "--database", url], input: "short\n")
        #expect(short.status == 64 && short.stderr.contains("at least 10 characters"), "\(short.stderr)")
        #expect(try sql("SELECT coalesce(password_hash, 'none') FROM learners WHERE name = 'ben'") == "none")
        let ok = try runner.run(["users", "passwd", "ben", "--database", url], input: "correct horse battery\n")
        #expect(ok.status == 0 && ok.stdout == "Set the password of ben.\n", "\(ok.stdout)\(ok.stderr)")
        let hash = try sql("SELECT password_hash FROM learners WHERE name = 'ben'")
        #expect(hash.hasPrefix("$2b$12$") && hash.count == 60 && !hash.contains("horse"), "\(hash)")
        // Only the database knows ben: the embedded store has no such learner to set.
        let local = try runner.run(["users", "passwd", "ben"], input: "correct horse battery\n")
        #expect(local.status == 1 && local.stderr.contains("ben"), "\(local.stderr)")
        let unknown = try runner.run(["users", "passwd", "nobody", "--database", url], input: "correct horse battery\n")
        #expect(unknown.status == 1 && unknown.stderr.contains("nobody"), "\(unknown.stderr)")
    }

    @Test("a URL that is not PostgreSQL's is bad usage; a server that does not answer is unavailable")
    func badURLs() throws {
        let bad = try runner.run("db", "migrate", "--database", "mysql://x@127.0.0.1/db")
        #expect(bad.status == 64, "\(bad.stderr)")
        #expect(bad.stderr.contains("postgres://"), "\(bad.stderr)")
        let none = try runner.run("db", "migrate")
        #expect(none.status == 64 && none.stderr.contains("--database"), "\(none.stderr)")
        // A loopback port nothing listens on.
        let closed = try runner.run("db", "migrate", "--database", "postgres://vocab@127.0.0.1:1/nothing")
        #expect(closed.status == 69, "\(closed.status) \(closed.stderr)")
    }
}
