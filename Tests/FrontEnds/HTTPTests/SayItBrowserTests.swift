import Foundation
import SQLiteDB
import TestSupport
import Testing

/// Say it in a real browser: Tests/Browser/say.py drives headless Chromium whose fake microphone
/// says a person's recording (Tests/Domains/PronunciationTests/Fixtures) to the built `vocab
/// serve`, which hears it with the listener the project installs. Without Chromium, chromedriver,
/// selenium or the listener this test fails; it is not skipped.
@Suite("Say it in headless Chromium, with a fake microphone saying a person's recording", .serialized)
struct SayItBrowserTests {
    @Test("'cat' said to the cat card is well said and reviewed; 'hat' is nearly and writes nothing; a round ends with stars; a refused microphone is said")
    func sayIt() async throws {
        let tools = try await runProcessOnThread(
            BrowserTests.python, ["-c", "import selenium, shutil; assert shutil.which('chromium') and shutil.which('chromedriver')"])
        try #require(tools.status == 0, "Chromium, chromedriver or python3-selenium is missing: run scripts/install-deps test (\(tools.stderr))")
        let dir = try TemporaryDirectory("vocab-say-browser")
        defer { dir.remove() }
        try ServerFixture.write(in: dir)
        // Real transcriptions: the listener judges cat against the words it could be mistaken for.
        try dir.write(
            "Categories/animals.json",
            CatalogFixture.category(
                "animals", name: "Animals", order: 1,
                words: [
                    CatalogFixture.word("cat", vi: "con mèo", ipa: "kæt", extra: #", "picture": "🐈", "image": "openmoji/1F408.svg""#),
                    CatalogFixture.word("bat", vi: "con dơi", ipa: "bæt"), CatalogFixture.word("dog", vi: "con chó", ipa: "dɒɡ"),
                ]))
        try dir.write(
            "Categories/food.json",
            CatalogFixture.category(
                "food", name: "Clothes", order: 2,
                words: [
                    CatalogFixture.word("hat", category: "food", vi: "cái mũ", ipa: "hæt"),
                    CatalogFixture.word("cap", category: "food", vi: "mũ lưỡi trai", ipa: "kæp"),
                ]))
        let env = [
            "VOCAB_HOME": dir.file("home"), "VOCAB_CATEGORIES": dir.file("Categories"), "VOCAB_AUDIO": dir.file("Audio"),
            "VOCAB_LISTENER": Repository.root + "/listener", "VOCAB_NEURAL_VOICE": "off",
            "VOCAB_AXE_JS": BrowserTests.axeScript,
        ]
        #expect(try await runProcessOnThread(Repository.vocabExecutable, ["users", "add", "anna"], environment: env).status == 0)
        let passwd = try await runProcessOnThread(
            Repository.vocabExecutable, ["users", "passwd", "anna"], environment: env, input: "correct horse battery\n")
        #expect(passwd.status == 0, "\(passwd.stderr)")
        let recordings = Repository.root + "/Tests/Domains/PronunciationTests/Fixtures/"
        let run = try await runProcessOnThread(
            BrowserTests.python,
            [
                Repository.root + "/Tests/Browser/say.py", "--vocab", Repository.vocabExecutable, "--name", "anna",
                "--password", "correct horse battery", "--cat", recordings + "cat.wav", "--hat", recordings + "hat.wav",
            ],
            environment: env)
        print(run.stdout)
        #expect(run.status == 0, "\(run.stdout.suffix(3000))\n\(run.stderr.suffix(3000))")
        // What the server stored: one review of cat, Good, from the first attempt (and those of
        // the round said well); never an Again.
        let db = try Database(path: dir.file("home/user.sqlite"), mode: .readOnly)
        #expect(try db.scalar("SELECT count(*) FROM reviews WHERE rating = 1")?.intValue == 0)
        #expect((try db.scalar("SELECT count(*) FROM reviews WHERE rating = 3")?.intValue ?? 0) >= 1)
    }
}
