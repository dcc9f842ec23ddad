import Foundation
import TestSupport
import Testing

/// Runs the built `vocab` with a private home, the fixture catalog and chosen service URLs.
struct LearningRunner {
    let home: TemporaryDirectory
    let data: TemporaryDirectory
    var environment: [String: String]

    init(dictionary: String? = nil, random: String? = nil) throws {
        home = try TemporaryDirectory("cli-learn-home")
        data = try TemporaryDirectory("cli-learn-data")
        try LearningFixtures.writeCatalog(in: data)
        // Empty values count as unset, so a developer's own settings cannot leak in.
        environment = [
            "VOCAB_HOME": home.path, "VOCAB_CATEGORIES": data.file("Categories"),
            "VOCAB_DICTIONARY_URL": dictionary ?? "", "VOCAB_RANDOM_URL": random ?? "",
        ]
    }

    func run(_ args: [String], input: String? = nil) throws -> ProcessResult {
        try runProcess(Repository.vocabExecutable, args, environment: environment, input: input)
    }

    func run(_ args: String...) throws -> ProcessResult { try run(args) }

    func json(_ args: String..., input: String? = nil, status: Int32 = 0) throws -> Any {
        let result = try run(args + ["--json"], input: input)
        #expect(result.status == status, "\(args): \(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }
}

@Suite("vocab define, random, library and quiz, as a process")
struct LearningCommandTests {
    @Test func defineShowsCatalogAndRemoteMeaningsThenFallsBackOffline() throws {
        let server = try LoopbackHTTPServer(handler: LearningFixtures.dictionaryResponse)
        let vocab = try LearningRunner(dictionary: server.baseURL)
        let live = try vocab.run("define", "cat")
        #expect(live.status == 0, "\(live.stderr)")
        for part in [
            "/kæt/", "con mèo", "starters, movers, flyers", "noun", "A domesticated species", "“The cat sat on the mat.”",
            "verb", "Source: online dictionary, just now.",
        ] {
            #expect(live.stdout.contains(part), "missing \(part) in\n\(live.stdout)")
        }
        #expect(server.requests(to: LearningFixtures.entryPath("cat")) == 1)

        let cached = try #require(try vocab.json("define", "cat") as? [String: Any])
        let dictionary = try #require(cached["dictionary"] as? [String: Any])
        #expect(dictionary["origin"] as? String == "cache" && cached["offline"] as? Bool == false)
        #expect(server.requests(to: LearningFixtures.entryPath("cat")) == 1, "the saved copy answered")

        server.stop()
        let offline = try vocab.run("define", "cat", "--refresh", "--timeout", "1")
        #expect(offline.status == 0)
        #expect(offline.stdout.contains("Offline: the dictionary could not be reached"))
        #expect(offline.stdout.contains("A domesticated species"), "the saved meanings are still shown")
        let offlineJSON = try #require(try vocab.json("define", "cat", "--refresh", "--timeout", "1") as? [String: Any])
        #expect(offlineJSON["offline"] as? Bool == true)
        #expect((offlineJSON["dictionary"] as? [String: Any])?["origin"] as? String == "offline")

        let catalogOnly = try vocab.run("define", "dog", "--timeout", "1")
        #expect(catalogOnly.status == 0)
        #expect(catalogOnly.stdout.contains("con chó") && catalogOnly.stdout.contains("showing the catalog entry only"))
    }

    @Test func defineExitsOneWhenNobodyKnowsTheWord() throws {
        let server = try LoopbackHTTPServer(handler: LearningFixtures.dictionaryResponse)
        let vocab = try LearningRunner(dictionary: server.baseURL)
        let missing = try vocab.run("define", "hors")
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no definition of 'hors'") && missing.stderr.contains("Did you mean: horse"))
        let remoteOnly = try vocab.run("define", "serendipity")
        #expect(remoteOnly.status == 0 && remoteOnly.stdout.contains("surprisingly good"))
        server.stop()
        let down = try vocab.run("define", "zebra", "--timeout", "1")
        #expect(down.status == 1 && down.stderr.contains("unavailable"))
    }

    @Test func dictionaryURLPrecedence() throws {
        let flag = try LoopbackHTTPServer(handler: LearningFixtures.dictionaryResponse)
        let variable = try LoopbackHTTPServer(handler: LearningFixtures.dictionaryResponse)
        let config = try LoopbackHTTPServer(handler: LearningFixtures.dictionaryResponse)
        var vocab = try LearningRunner()
        try vocab.home.write("config.json", #"{"dictionaryURL": "\#(config.baseURL)"}"#)
        let path = LearningFixtures.entryPath("happy")
        #expect(try vocab.run("define", "happy", "--refresh").status == 0)
        #expect(config.requests(to: path) == 1, "config.json when nothing else is set")
        vocab.environment["VOCAB_DICTIONARY_URL"] = variable.baseURL
        #expect(try vocab.run("define", "happy", "--refresh").status == 0)
        #expect(variable.requests(to: path) == 1, "the environment beats config.json")
        #expect(try vocab.run("define", "happy", "--refresh", "--dictionary-url", flag.baseURL).status == 0)
        #expect(flag.requests(to: path) == 1, "the flag beats both")
        #expect(config.requests(to: path) == 1 && variable.requests(to: path) == 1)
        let bad = try vocab.run("define", "happy", "--dictionary-url", "ftp://example")
        #expect(bad.status == 64 && bad.stderr.contains("http:// or https://"))
        try vocab.home.write("config.json", "{not json")
        vocab.environment["VOCAB_DICTIONARY_URL"] = ""
        #expect(try vocab.run("define", "happy").status == 65)
    }

    @Test func randomWordsFromTheServiceOrTheCatalog() throws {
        let server = try LoopbackHTTPServer { _ in .text(LearningFixtures.randomWords, type: "application/json") }
        let vocab = try LearningRunner(random: server.baseURL)
        let remote = try vocab.run("random", "--count", "5")
        #expect(remote.status == 0)
        #expect(remote.stdout == "lantern\nmeadow\nquiver\nsaffron\ntundra\n")
        #expect(server.requests(to: "/word?number=5&lang=en") == 1)

        let seeded = try #require(try vocab.json("random", "--count", "4", "--seed", "42") as? [String: Any])
        let again = try #require(try vocab.json("random", "--count", "4", "--seed", "42") as? [String: Any])
        #expect(seeded["source"] as? String == "catalog")
        let words = try #require(seeded["words"] as? [[String: Any]]).compactMap { $0["word"] as? String }
        #expect(words.count == 4 && words == (again["words"] as? [[String: Any]])?.compactMap { $0["word"] as? String })
        #expect(server.requests(to: "/word?number=4&lang=en") == 0)

        server.stop()
        let fallback = try vocab.run("random", "--count", "3", "--timeout", "1")
        #expect(fallback.status == 0)
        #expect(fallback.stderr.contains("random catalog words instead"))
        #expect(fallback.stdout.split(separator: "\n").count == 3)
        #expect(try vocab.run("random", "--count", "0").status == 64)
    }

    @Test func libraryAddListShowRemove() throws {
        let server = try LoopbackHTTPServer(handler: LearningFixtures.dictionaryResponse)
        let vocab = try LearningRunner(dictionary: server.baseURL)
        #expect(try vocab.run("library", "list").stdout.contains("The library is empty"))
        let added = try vocab.run("library", "add", "cat")
        #expect(added.status == 0 && added.stdout == "Saved 'cat' from the catalog (animals/cat).\n")
        let twice = try vocab.run("library", "add", "Cat")
        #expect(twice.status == 0 && twice.stdout.contains("'cat' is already in the library"))
        let remote = try #require(try vocab.json("library", "add", "serendipity") as? [[String: Any]])
        #expect(remote.first?["status"] as? String == "added")
        #expect((remote.first?["item"] as? [String: Any])?["source"] as? String == "dictionary")
        let unknown = try vocab.run("library", "add", "hors")
        #expect(unknown.status == 1 && unknown.stderr.contains("Did you mean: horse"))
        #expect(server.requests(to: LearningFixtures.entryPath("cat")) == 0, "catalog words need no network")

        let list = try vocab.run("library", "list")
        #expect(list.stdout.contains("cat (animals/cat)") && list.stdout.contains("con mèo") && list.stdout.contains("2 items saved."))
        let listed = try #require(try vocab.json("library", "list") as? [String: Any])
        let items = try #require(listed["items"] as? [[String: Any]])
        #expect(items.compactMap { $0["word"] as? String } == ["cat", "serendipity"])
        #expect(items.compactMap { $0["item"] as? String } == ["catalog:animals/cat", "dictionary:serendipity"])
        let show = try vocab.run("library", "show", "serendipity")
        #expect(show.stdout.contains("dictionary:serendipity") && show.stdout.contains("Meaning") && show.stdout.contains("Card        new"))
        #expect(try vocab.run("library", "show", "cat").stdout.contains("British     /kæt/"))

        // Rebuilding the catalog keeps the library.
        #expect(try vocab.run("index").status == 0)
        #expect(try vocab.run("library", "remove", "cat").stdout == "Removed 'cat (animals/cat)' from the library.\n")
        let again = try vocab.run("library", "remove", "cat")
        #expect(again.status == 1 && again.stderr.contains("not in the library"))
        #expect(((try vocab.json("library", "list") as? [String: Any])?["items"] as? [Any])?.count == 1)
    }

    @Test func mandarinEntriesAreSavedWithTheirReading() throws {
        let vocab = try LearningRunner()
        #expect(try vocab.run("import", "moe", Repository.moeSample).status == 0)
        #expect(try vocab.run("library", "add", "行", "--reading", "háng").stdout == "Saved '行' from the Mandarin dictionary, read háng.\n")
        let all = try vocab.run("library", "add", "行", "--all-readings")
        #expect(all.stdout.split(separator: "\n").count == 4 && all.stdout.contains("already in the library"))
        let ambiguous = try vocab.run("library", "add", "行", "--reading", "xing")
        #expect(ambiguous.status == 64 && ambiguous.stderr.contains("give the tone or the number"))
        let show = try vocab.run("library", "show", "行")
        #expect(show.stdout.contains("Pinyin      háng") && show.stdout.contains("Bopomofo    ㄏㄤˊ"))
    }

    @Test func learnersAndTokens() throws {
        let vocab = try LearningRunner()
        let added = try vocab.run("users", "add", "Anna")
        #expect(added.status == 0 && added.stdout.hasPrefix("Added Anna. API token"))
        let token = try #require(added.stdout.split(separator: "\n").last.map(String.init))
        #expect(token.hasPrefix("vocab_") && token.count == 49)
        #expect(try vocab.run("users", "add", "anna").status == 75, "names are unique without case")
        #expect(try vocab.run("users", "add", "a\u{1B}b").status == 64)
        #expect(try vocab.run("library", "add", "cat", "--user", "anna").status == 0)
        let list = try vocab.run("users", "list")
        #expect(list.stdout.contains("Anna") && list.stdout.contains("1 item"))
        let nobody = try vocab.run("library", "list", "--user", "zoe")
        #expect(nobody.status == 1 && nobody.stderr.contains("there is no learner 'zoe'"))
        #expect(try vocab.run("users", "token", "anna").stdout.hasPrefix("vocab_"))
        #expect(try vocab.run("users", "revoke", "anna").stdout == "Revoked 2 tokens of Anna.\n")
        // The token is stored only as its hash.
        let file = try Data(contentsOf: URL(fileURLWithPath: vocab.home.file("user.sqlite")))
        #expect(file.range(of: Data(token.utf8)) == nil)
    }

    @Test func reviewRatesUndoesAndShowsProgress() throws {
        let vocab = try LearningRunner()
        for word in ["cat", "dog", "apple"] { #expect(try vocab.run("library", "add", word).status == 0) }
        let review = try vocab.run(["review", "--json"], input: "3\n4\nu\n1\n3\n")
        #expect(review.status == 0, "\(review.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(review.stdout.utf8)) as? [String: Any])
        let ratings = try #require(report["ratings"] as? [[String: Any]])
        #expect(ratings.compactMap { $0["rating"] as? Int } == [3, 1, 3] && report["undone"] as? Int == 1)
        #expect(review.stderr.contains("── cat") && review.stderr.contains("con mèo") && review.stderr.contains("Undone: dog"))
        // Every card is on a learning step now: nothing is due, and the message says when.
        let text = try vocab.run(["review"], input: "q\n")
        #expect(text.status == 0 && text.stdout.contains("Nothing to review now. The next card is due in"))
        let progress = try #require(try vocab.json("progress") as? [String: Any])
        let numbers = try #require(progress["report"] as? [String: Any])
        #expect(numbers["items"] as? Int == 3 && numbers["new"] as? Int == 0 && numbers["streak"] as? Int == 1)
        #expect(((numbers["reviewsPerDay"] as? [[String: Any]])?.last?["reviews"] as? Int) == 3)
        let rows = try #require(progress["categories"] as? [[String: Any]])
        #expect(rows.contains { $0["category"] as? String == "animals" && $0["level"] as? String == "starters" && $0["saved"] as? Int == 2 })
        let shown = try vocab.run("progress")
        #expect(shown.stdout.contains("Streak       1 day") && shown.stdout.contains("animals"))
    }

    @Test func exportWritesAnkiFiles() throws {
        let vocab = try LearningRunner()
        #expect(try vocab.run("library", "add", "cat").status == 0)
        let apkg = try #require(try vocab.json("export", "--out", vocab.home.file("me.apkg")) as? [String: Any])
        #expect(apkg["notes"] as? Int == 1 && apkg["clips"] as? Int == 1)
        let csv = try vocab.run("export", "--category", "food", "--out", vocab.home.file("food.csv"))
        #expect(csv.status == 0 && csv.stdout.contains("Exported 6 notes"))
        #expect(try vocab.run("export", "--out", vocab.home.file("x.txt")).status == 64)
        let empty = try vocab.run("export", "--out", vocab.home.file("x.apkg"), "--user", "me", "--from", "library")
        #expect(empty.status == 0)
    }

    @Test func quizWithPipedAnswersIsScoredAndSaved() throws {
        let vocab = try LearningRunner()
        let args = ["quiz", "--category", "animals", "--level", "starters", "--questions", "4", "--seed", "11", "--json"]
        let first = try vocab.run(args, input: "1\n1\n1\n1\n")
        #expect(first.status == 0, "\(first.stderr)")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
        let questions = try #require(result["questions"] as? [[String: Any]])
        #expect(questions.count == 4 && result["total"] as? Int == 4 && result["answered"] as? Int == 4)
        #expect(result["correct"] as? Int == questions.filter { $0["answerIndex"] as? Int == 0 }.count)
        #expect(first.stderr.contains("Question 1 of 4") && first.stderr.contains("s left"))

        // Same seed, same questions: answering each right scores full marks.
        let answers = questions.compactMap { $0["answerIndex"] as? Int }.map { "abcd".map(String.init)[$0] + "\n" }.joined()
        let perfect = try #require(try JSONSerialization.jsonObject(with: Data(try vocab.run(args, input: answers).stdout.utf8)) as? [String: Any])
        #expect(perfect["correct"] as? Int == 4 && perfect["ending"] as? String == "completed")
        #expect(
            (perfect["questions"] as? [[String: Any]])?.compactMap { $0["word"] as? String }
                == questions.compactMap { $0["word"] as? String })

        // Text mode: feedback after each answer, and end of input ends the quiz.
        let text = try vocab.run(["quiz", "--category", "food", "--questions", "3", "--seed", "5"], input: "2\n")
        #expect(text.status == 0)
        #expect(text.stdout.contains("Question 1 of 3") && text.stdout.contains("Question 2 of 3"))
        #expect(text.stdout.contains("Correct!") || text.stdout.contains("Not quite"))
        #expect(text.stdout.contains("Quiz stopped.") && text.stdout.contains("Score: "))
        #expect(!text.stdout.contains("Question 3 of 3"))

        let history = try #require(try vocab.json("quiz", "--history") as? [[String: Any]])
        #expect(history.count == 3)
        #expect(history.first?["source"] as? String == "food" && history.first?["ending"] as? String == "stopped")
        #expect(history.last?["correct"] as? Int == result["correct"] as? Int)
        let table = try vocab.run("quiz", "--history")
        #expect(table.stdout.contains("animals · starters") && table.stdout.contains("4/4"))
    }

    @Test func quizExitCodes() throws {
        let vocab = try LearningRunner()
        #expect(try vocab.run("quiz", "--questions", "0").status == 64)
        #expect(try vocab.run("quiz", "--category", "animl").status == 1)
        let empty = try vocab.run(["quiz", "--from", "library"], input: "")
        #expect(empty.status == 1 && empty.stderr.contains("library has no saved words"))
        #expect(try vocab.run("quiz", "--history").stdout.contains("No quizzes yet"))
    }

    @Test func helpTeachesWithExamples() throws {
        let vocab = try LearningRunner()
        for (command, example) in [
            ("define", "vocab define happy"), ("random", "vocab random --count 10 --seed 42"),
            ("quiz", "vocab quiz --category animals --level starters"), ("library", "vocab library add cat"),
        ] {
            let help = try vocab.run(command, "--help")
            #expect(help.status == 0 && help.stdout.contains(example), "\(command)")
        }
    }

    @Test("users settings shows which day rule applies and changes the zone and start hour; a bad zone or hour is exit 64 and changes nothing")
    func usersSettings() throws {
        let vocab = try LearningRunner()
        #expect(try vocab.run("users", "add", "anna").status == 0)
        let shown = try vocab.run("users", "settings", "anna")
        #expect(
            shown.status == 0 && shown.stdout.contains("anna: a day starts at 4:00 in ") && shown.stdout.contains("(this machine's zone)"), "\(shown.stdout)")
        let set = try #require(try vocab.json("users", "settings", "anna", "--time-zone", "asia/ho_chi_minh", "--day-starts-at", "5") as? [String: Any])
        let day = try #require(set["day"] as? [String: Any])
        #expect(day["timeZone"] as? String == "Asia/Ho_Chi_Minh" && day["startsAt"] as? Int == 5 && day["chosen"] as? Bool == true)
        for (args, message) in [(["--time-zone", "Hanoi"], "'Hanoi' is not a time zone"), (["--day-starts-at", "24"], "from 0 to 23")] {
            let refused = try vocab.run(["users", "settings", "anna"] + args)
            #expect(refused.status == 64 && refused.stderr.contains(message), "\(args): \(refused.status) \(refused.stderr)")
        }
        #expect(try vocab.run("users", "settings", "anna").stdout.contains("a day starts at 5:00 in Asia/Ho_Chi_Minh."), "kept")
    }
}
