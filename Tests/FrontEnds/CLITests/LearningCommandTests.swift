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
        environment = ["VOCAB_HOME": home.path, "VOCAB_CATEGORIES": data.file("Categories"),
                       "VOCAB_DICTIONARY_URL": dictionary ?? "", "VOCAB_RANDOM_URL": random ?? ""]
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
        for part in ["/kæt/", "con mèo", "starters, movers, flyers", "noun", "A domesticated species", "“The cat sat on the mat.”",
                     "verb", "Source: online dictionary, just now."] {
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
        #expect(try vocab.run("library", "list").stdout.contains("Your library is empty"))
        let added = try vocab.run("library", "add", "cat")
        #expect(added.status == 0 && added.stdout == "Saved 'cat' from the catalog.\n")
        let twice = try vocab.run("library", "add", "Cat")
        #expect(twice.status == 0 && twice.stdout.contains("'cat' is already in your library"))
        let remote = try #require(try vocab.json("library", "add", "serendipity") as? [String: Any])
        #expect(remote["status"] as? String == "added")
        #expect((remote["entry"] as? [String: Any])?["source"] as? String == "dictionary")
        let unknown = try vocab.run("library", "add", "hors")
        #expect(unknown.status == 1 && unknown.stderr.contains("Did you mean: horse"))
        #expect(server.requests(to: LearningFixtures.entryPath("cat")) == 0, "catalog words need no network")

        let list = try vocab.run("library", "list")
        #expect(list.stdout.contains("cat") && list.stdout.contains("con mèo") && list.stdout.contains("2 words saved."))
        let listed = try #require(try vocab.json("library", "list") as? [[String: Any]])
        #expect(listed.compactMap { $0["word"] as? String } == ["cat", "serendipity"])
        #expect(listed.allSatisfy { ($0["savedAt"] as? String)?.contains("T") == true }, "ISO 8601 dates")
        let show = try vocab.run("library", "show")
        #expect(show.stdout.contains("British     /kæt/") && show.stdout.contains("From the online dictionary"))

        // Rebuilding the catalog keeps the library.
        #expect(try vocab.run("index").status == 0)
        #expect(try vocab.run("library", "remove", "cat").stdout == "Removed 'cat' from your library.\n")
        let again = try vocab.run("library", "remove", "cat")
        #expect(again.status == 1 && again.stderr.contains("not in your library"))
        #expect((try vocab.json("library", "list") as? [[String: Any]])?.count == 1)
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
        #expect((perfect["questions"] as? [[String: Any]])?.compactMap { $0["word"] as? String }
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
        for (command, example) in [("define", "vocab define happy"), ("random", "vocab random --count 10 --seed 42"),
                                   ("quiz", "vocab quiz --category animals --level starters"), ("library", "vocab library add cat")] {
            let help = try vocab.run(command, "--help")
            #expect(help.status == 0 && help.stdout.contains(example), "\(command)")
        }
    }
}
