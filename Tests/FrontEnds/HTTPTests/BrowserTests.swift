import Foundation
import SQLiteDB
import TestSupport
import Testing

/// The web app in a real browser: Tests/Browser/webapp.py drives Debian's headless Chromium
/// through chromedriver against the built `vocab serve`, which it starts (and, for the offline
/// part, stops and restarts on the same port). `scripts/install-deps test` installs Chromium,
/// chromedriver and python3-selenium; without them this test fails, it is not skipped.
@Suite("the web app in headless Chromium", .serialized)
struct BrowserTests {
    /// Debian's Python, which has Debian's selenium (another python3 may come first on PATH).
    static let python = "/usr/bin/python3"
    /// axe-core, installed by scripts/install-deps test; the walks fail without it.
    static let axeScript = Repository.root + "/.build-tools/axe/axe_selenium_python/node_modules/axe-core/axe.min.js"
    static let script = Repository.root + "/Tests/Browser/webapp.py"
    /// The zone the browser (and the server it starts) runs in: a learner's review days follow
    /// the zone of the device they first signed in on.
    static let browserZone = "Asia/Ho_Chi_Minh"

    @Test(
        "sign in, browse a category at a level, play a clip, save words, review with the keyboard, see progress change, rate offline (sent once when the server is back), save a Mandarin reading and review it with its speech, the interface language kept per learner, sign out; search from the header for a catalog word and a Mandarin entry, whose speech plays; the three games with taps and keys, each answer a review, offline too; an adult signs up, makes a class from a CSV roster, sets words and prints sign-in cards, three children sign in with pictures and practise, the adult sees their progress and hardest words"
    )
    func journey() async throws {
        let tools = try await runProcessOnThread(
            Self.python, ["-c", "import selenium, shutil; assert shutil.which('chromium') and shutil.which('chromedriver')"])
        try #require(tools.status == 0, "Chromium, chromedriver or python3-selenium is missing: run scripts/install-deps test (\(tools.stderr))")
        let dir = try TemporaryDirectory("vocab-browser")
        defer { dir.remove() }
        try ServerFixture.write(in: dir)
        // The games need four pictured words at a level: a farm of five. Animals has one picture (cat),
        // so "Play with my words" after its starter set says kindly that there are too few.
        try dir.write(
            "Categories/farm.json",
            CatalogFixture.category(
                "farm", name: "Farm", vi: "Nông trại", order: 3,
                words: [
                    ("cow", "🐄", "con bò", "1F404"), ("duck", "🦆", "con vịt", "1F986"), ("goat", "🐐", "con dê", "1F410"),
                    ("sheep", "🐑", "con cừu", "1F411"),
                ].map {
                    CatalogFixture.word($0.0, category: "farm", vi: $0.2, extra: #", "picture": "\#($0.1)", "image": "openmoji/\#($0.3).svg""#)
                }
                    // An entry whose id is its key, not its headword's slug (farm/horse-riding): a
                    // game answer about it must name that id, or the answer is lost.
                    + [
                        CatalogFixture.word(
                            "horse", category: "farm", vi: "con ngựa",
                            extra: #", "picture": "🐎", "image": "openmoji/1F40E.svg", "key": "horse-riding", "sense": {"en": "riding", "vi": "cưỡi ngựa"}"#)
                    ]))
        // Doing words from another topic, drawn by Mulberry symbols (the files the product ships):
        // the games' 🏃 tile plays them across the topics.
        // The farm's drawings are OpenMoji's, and the credits page shows a Mulberry desk.
        for file in ["mulberry/hop_to", "mulberry/jump_to", "mulberry/kick_ball_to", "mulberry/sing_to", "mulberry/desk"]
            + ["1F404", "1F986", "1F410", "1F411", "1F40E"].map({ "openmoji/\($0)" })
        {
            try dir.write("Pictures/\(file).svg", try String(contentsOfFile: Repository.root + "/Pictures/\(file).svg", encoding: .utf8))
        }
        try dir.write(
            "Categories/sports.json",
            CatalogFixture.category(
                "sports", name: "Sports", vi: "Thể thao", order: 4,
                words: [("hop", "hop_to", "nhảy lò cò"), ("jump", "jump_to", "nhảy"), ("kick", "kick_ball_to", "đá"), ("sing", "sing_to", "hát")].map {
                    CatalogFixture.word($0.0, category: "sports", vi: $0.2, pos: "verb", extra: #", "image": "mulberry/\#($0.1).svg""#)
                }))
        // The Animals starter set at Starters: cat, dog and fish, and not fish · catch fish (a
        // Movers entry of the same headword), which saving by headword would add too.
        try dir.write(
            "Categories/animals.json",
            ServerFixture.animals([
                CatalogFixture.word(
                    "fish", levels: ["movers", "flyers"], vi: "câu cá", extra: #", "key": "fish-catch", "sense": {"en": "catch fish", "vi": "câu cá"}"#)
            ]))
        let env = [
            "VOCAB_HOME": dir.file("home"), "VOCAB_CATEGORIES": dir.file("Categories"), "VOCAB_AUDIO": dir.file("Audio"),
            "VOCAB_AXE_JS": Self.axeScript,
        ]
        #expect(try await runProcessOnThread(Repository.vocabExecutable, ["users", "add", "anna"], environment: env).status == 0)
        #expect(try await runProcessOnThread(Repository.vocabExecutable, ["import", "moe", ServerFixture.moeSample], environment: env).status == 0)
        let passwd = try await runProcessOnThread(
            Repository.vocabExecutable, ["users", "passwd", "anna"], environment: env,
            input: "correct horse battery\n")
        #expect(passwd.status == 0, "\(passwd.stderr)")
        #expect(try await runProcessOnThread(Repository.vocabExecutable, ["users", "add", "ben"], environment: env).status == 0)
        #expect(
            try await runProcessOnThread(
                Repository.vocabExecutable, ["users", "passwd", "ben"], environment: env,
                input: "correct horse battery\n"
            ).status == 0)

        let run = try await runProcessOnThread(
            Self.python,
            [
                Self.script, "--vocab", Repository.vocabExecutable, "--name", "anna",
                "--password", "correct horse battery", "--category", "animals",
                "--level", "starters", "--words", "cat,dog", "--moe", "好", "--newcomer", "ben",
                "--game-category", "farm",
            ],
            environment: env.merging(["TZ": Self.browserZone]) { _, new in new })
        print(run.stdout)
        #expect(run.status == 0, "\(run.stdout.suffix(2000))\n\(run.stderr.suffix(4000))")
        let line = try #require(run.stdout.split(separator: "\n").last { $0.hasPrefix("RESULT ") }, "no RESULT line")
        let result = try #require(try JSONSerialization.jsonObject(with: Data(line.dropFirst(7).utf8)) as? [String: Any])
        let clientID = try #require(result["offlineClientId"] as? String)
        #expect((result["firstPageBytes"] as? Int ?? .max) < 100_000)

        // What the server stored: the rating made offline exactly once, beside the one made online
        // and the Mandarin card's.
        let db = try Database(path: dir.file("home/user.sqlite"), mode: .readOnly)
        #expect(try db.scalar("SELECT count(*) FROM reviews WHERE client_id = ?", [.text(clientID)])?.intValue == 1)
        let anna = "(SELECT id FROM learners WHERE name = 'anna')"
        let ben = "(SELECT id FROM learners WHERE name = 'ben')"
        for name in ["anna", "ben"] {
            // Chromium's ICU names the zone by its older alias, Asia/Saigon: the same clock.
            let zone = try db.scalar("SELECT json_extract(settings, '$.timeZone') FROM learners WHERE name = ?", [.text(name)])?.textValue
            #expect(
                zone.flatMap(TimeZone.init(identifier:))?.secondsFromGMT() == TimeZone(identifier: Self.browserZone)?.secondsFromGMT(),
                "the web app gave \(name) the browser's time zone, not the server's UTC: \(zone ?? "none")")
        }
        #expect(try db.scalar("SELECT count(*) FROM reviews WHERE learner_id = \(anna)")?.intValue == 3)
        // The games ben played: each answer one review, one Again a round, the answers made offline once each.
        let gameReviews = Int64(try #require(result["gameReviews"] as? Int))
        #expect(gameReviews > 0)
        #expect(try db.scalar("SELECT count(*) FROM reviews WHERE learner_id = \(ben)")?.intValue == gameReviews)
        #expect(
            try db.scalar("SELECT count(*) FROM reviews WHERE learner_id = \(ben) AND rating = 1")?.intValue == (result["gameAgain"] as? Int).map(Int64.init))
        let offlineAnswers = try #require(result["gameOfflineClientIds"] as? [String])
        #expect(!offlineAnswers.isEmpty)
        for id in offlineAnswers {
            #expect(try db.scalar("SELECT count(*) FROM reviews WHERE client_id = ?", [.text(id)])?.intValue == 1)
        }
        // Classes: the three children who signed in with pictures made the answers their class page
        // counted; the fourth child, deleted with all their data, left no account (children's accounts
        // are the class's members; their learner names start with #).
        let code = try #require(result["classCode"] as? String)
        let classAnswers = Int64(try #require(result["classAnswers"] as? Int))
        #expect(classAnswers > 0)
        let children = "(SELECT CAST(substr(id, 8) AS INTEGER) FROM documents WHERE collection = 'class_members' AND id LIKE ?)"
        #expect(try db.scalar("SELECT count(*) FROM reviews WHERE learner_id IN \(children)", [.text(code + ":%")])?.intValue == classAnswers)
        #expect(try db.scalar("SELECT count(*) FROM learners WHERE id IN \(children)", [.text(code + ":%")])?.intValue == 3)
        #expect(try db.scalar("SELECT count(*) FROM learners WHERE name LIKE '#%'")?.intValue == 3)
        #expect(try db.scalar("SELECT count(*) FROM sessions")?.intValue == 0, "signing out ended the session")
    }
}
