import Foundation
import SQLiteDB
import TestSupport
import Testing

@Suite("vocab users passwd, as a process")
struct PasswordCommandTests {
    static func storedHash(_ vocab: LearningRunner, _ name: String) throws -> String? {
        let db = try Database(path: vocab.home.file("user.sqlite"), mode: .readOnly)
        return try db.query("SELECT password_hash FROM learners WHERE name = ?", [.text(name)], map: { $0.text(0) }).first ?? nil
    }

    @Test(
        "reads the password from standard input; refuses a short one, none at all or an unknown learner with a message and a non-zero exit, changing nothing; keeps only a bcrypt hash of cost 12"
    )
    func passwd() throws {
        let vocab = try LearningRunner()
        #expect(try vocab.run("users", "add", "anna").status == 0)
        let short = try vocab.run(["users", "passwd", "anna"], input: "short\n")
        #expect(short.status == 64, "\(short.stderr)")
        #expect(short.stderr.contains("at least 10 characters"), "\(short.stderr)")
        let none = try vocab.run(["users", "passwd", "anna"], input: "")
        #expect(none.status == 66, "\(none.stderr)")
        let unknown = try vocab.run(["users", "passwd", "nobody"], input: "correct horse battery\n")
        #expect(unknown.status == 1 && unknown.stderr.contains("nobody"), "\(unknown.stderr)")
        #expect(try Self.storedHash(vocab, "anna") == nil, "nothing was stored")

        let ok = try vocab.run(["users", "passwd", "anna"], input: "correct horse battery\n")
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stdout == "Set the password of anna.\n")
        let hash = try #require(try Self.storedHash(vocab, "anna"))
        #expect(hash.hasPrefix("$2b$12$") && hash.count == 60 && !hash.contains("horse"))
        let help = try vocab.run("users", "passwd", "--help")
        #expect(help.stdout.contains("without echo") && help.stdout.contains("10 characters"))
    }
}
