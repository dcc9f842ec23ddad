import Foundation
import TestSupport
import Testing

/// `vocab class` as a teacher runs it at a terminal, on a private home with the fixture catalog.
@Suite("vocab class, as a process")
struct ClassCommandTests {
    @Test("a teacher makes a class, adds children from a roster and one by one, assigns words, reads progress and its CSV; mistakes exit with their codes")
    func teacherAtTheTerminal() throws {
        let vocab = try LearningRunner()
        #expect(try vocab.run("users", "add", "lan").status == 0)
        let made = try #require(try vocab.json("class", "add", "Year 3 Blue", "--user", "lan") as? [String: Any])
        let code = try #require(made["code"] as? String)
        #expect(try vocab.run("class", "list", "--user", "lan").stdout.contains("\(code)  Year 3 Blue  0 children"))

        try "name\nMinh Anh\nBảo\n".write(toFile: vocab.home.file("roster.csv"), atomically: true, encoding: .utf8)
        let roster = try vocab.run("class", "roster", code, vocab.home.file("roster.csv"), "--user", "lan")
        #expect(roster.status == 0, "\(roster.stderr)")
        #expect(roster.stdout.contains("Minh Anh  ") && roster.stdout.contains("Bảo  ") && roster.stdout.contains("shown only now"))
        let an = try #require(try vocab.json("class", "child", code, "An", "--user", "lan") as? [[String: Any]])
        #expect((an.first?["pictures"] as? [Int])?.count == 3)
        #expect(try vocab.run("class", "child", code, "an", "--user", "lan").status == 75, "a second An is a conflict")
        #expect(try vocab.run("class", "child", code, "R2-D2", "--user", "lan").status == 64)

        let assigned = try vocab.run("class", "assign", code, "--category", "animals", "--level", "starters", "--user", "lan")
        #expect(assigned.status == 0 && assigned.stdout.contains("Assigned Animals · Starters"), "\(assigned.stderr)")
        #expect(try vocab.run("class", "assign", code, "--user", "lan").status == 64, "neither a category nor words")
        let progress = try vocab.run("class", "progress", code, "--user", "lan")
        #expect(progress.status == 0 && progress.stdout.contains("Minh Anh") && progress.stdout.contains("0 of 3 finished"), "\(progress.stdout)")
        let csv = try vocab.run("class", "progress", code, "--csv", "--user", "lan")
        #expect(csv.stdout.hasPrefix("name,days practised,words learned") && csv.stdout.split(separator: "\n").count == 4)

        #expect(try vocab.run("class", "show", "ZZZZZZ", "--user", "lan").status == 1, "an unknown class is not found")
        #expect(try vocab.run("class", "show", code, "--user", "nobody").status == 1)
        // Another adult does not see it.
        #expect(try vocab.run("users", "add", "hoa").status == 0)
        #expect(try vocab.run("class", "show", code, "--user", "hoa").status == 1)
        let erased = try vocab.run("class", "child", code, "An", "--erase", "--user", "lan")
        #expect(erased.status == 0 && erased.stdout.contains("Deleted An"))
        #expect(try vocab.json("class", "show", code, "--user", "lan") as? [String: Any] != nil)
    }
}
