import App
import FSRS
import Foundation
import Learners
import TestSupport
import Testing

/// Who may read and change a learner's data over HTTP: only the holder of one of that learner's
/// live tokens. Real requests over loopback against the server `vocab serve` runs; what changed
/// is read back from user.sqlite itself, not from the server's answers.
@Suite("/v1/me authorisation: nobody reads or changes another learner's data")
struct LearnerAuthorizationTests {
    /// One per-learner operation as the matrix calls it: `target` and `json` get an item id, so
    /// that a request that got through would really read or change that item.
    struct Endpoint: Sendable {
        var method: String
        var path: String
        var target: @Sendable (Int64) -> String
        var json: (@Sendable (Int64) -> String)?
        var label: String { "\(method) \(path)" }
    }

    static let endpoints: [Endpoint] = [
        Endpoint(method: "GET", path: "/v1/me", target: { _ in "/v1/me" }),
        Endpoint(method: "GET", path: "/v1/me/assignments", target: { _ in "/v1/me/assignments" }),
        Endpoint(method: "PATCH", path: "/v1/me/settings", target: { _ in "/v1/me/settings" }, json: { _ in #"{"language":"vi"}"# }),
        Endpoint(method: "GET", path: "/v1/me/library", target: { _ in "/v1/me/library" }),
        Endpoint(method: "POST", path: "/v1/me/library", target: { _ in "/v1/me/library" }, json: { _ in #"{"word":"cat"}"# }),
        Endpoint(method: "DELETE", path: "/v1/me/library/{item}", target: { "/v1/me/library/\($0)" }),
        Endpoint(method: "GET", path: "/v1/me/review/next", target: { _ in "/v1/me/review/next?limit=100" }),
        Endpoint(method: "POST", path: "/v1/me/reviews", target: { _ in "/v1/me/reviews" }, json: { #"{"item":\#($0),"rating":"good"}"# }),
        Endpoint(method: "GET", path: "/v1/me/progress", target: { _ in "/v1/me/progress" }),
        Endpoint(method: "GET", path: "/v1/me/export.apkg", target: { _ in "/v1/me/export.apkg" }),
        Endpoint(method: "GET", path: "/v1/me/export.csv", target: { _ in "/v1/me/export.csv" }),
        Endpoint(method: "POST", path: "/v1/me/attempts", target: { _ in "/v1/me/attempts?entry=animals/cat" }, json: { _ in "{}" }),
    ]

    /// What the matrix saw, cell by cell, and every leak with what leaked.
    final class Matrix: @unchecked Sendable {
        private(set) var cells: [String: [String: String]] = [:]
        private(set) var leaks: [String] = []

        func record(_ endpoint: String, _ column: String, _ cell: String, leak: String? = nil) {
            if let leak { leaks.append("\(endpoint) [\(column)]: \(leak)") }
            let text = leak == nil ? cell : "LEAK \(cell)"
            cells[endpoint, default: [:]][column] = cells[endpoint]?[column].map { $0 + "; " + text } ?? text
        }

        func table(columns: [String]) -> String {
            let rows = LearnerAuthorizationTests.endpoints.map(\.label) + [LearnerAuthorizationTests.searchRow]
            let first = (rows.map(\.count).max() ?? 0) + 2
            let widths = columns.map { c in max(c.count, rows.map { (cells[$0]?[c] ?? "").count }.max() ?? 0) + 2 }
            func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }
            var lines = [pad("", first) + zip(columns, widths).map { pad($0, $1) }.joined()]
            for row in rows { lines.append(pad(row, first) + zip(columns, widths).map { pad(cells[row]?[$0] ?? "-", $1) }.joined()) }
            return lines.joined(separator: "\n")
        }
    }

    /// Two learners with libraries and review history of their own, and a third whose token was revoked.
    struct People {
        var data: LearnerData
        var anna: TestLearner, ben: TestLearner, carl: TestLearner
        var annaItems: [SavedItem], benItems: [SavedItem]
        /// Headwords only one of them saved: the content checks look for these.
        static let annaWords = ["elephant", "cake", "dog"]
        static let benWords = ["fish", "apple", "ice cream"]

        static func make(_ s: TestServer) async throws -> People {
            let data = try await LearnerData.open(s)
            let anna = try await data.add("anna")
            let ben = try await data.add("ben")
            let carl = try await data.add("carl")
            let annaItems = try await data.save(annaWords, for: anna)
            let benItems = try await data.save(benWords, for: ben)
            try await data.save(["cat"], for: carl)
            _ = try await data.learning.rate(item: annaItems[0].id, rating: .good, for: anna.learner, clientID: "a-1")
            _ = try await data.learning.rate(item: benItems[0].id, rating: .good, for: ben.learner, clientID: "b-1")
            _ = try await data.learning.rate(item: benItems[0].id, rating: .again, for: ben.learner)
            #expect(try await data.store.revokeTokens(of: carl.id, at: Date().timeIntervalSince1970) == 1)
            return People(data: data, anna: anna, ben: ben, carl: carl, annaItems: annaItems, benItems: benItems)
        }

        func snapshot() async throws -> [String] {
            [try await data.snapshot(of: anna), try await data.snapshot(of: ben), try await data.snapshot(of: carl)]
        }
    }

    @Test("the matrix covers every /v1/me operation openapi.json documents")
    func matrixCoversTheDocument() throws {
        let documented = Set(try OpenAPITests.document().operations.filter { $0.path.hasPrefix("/v1/me") }.map { "\($0.method) \($0.path)" })
        #expect(Set(Self.endpoints.map(\.label)) == documented)
    }

    @Test(
        "every per-learner endpoint and method: no, malformed, unknown or revoked token is a 401 and changes nothing; a learner's token never reads or changes another's data: 0 leaks"
    )
    func matrix() async throws {
        try await withServer(listener: true) { s in
            let people = try await People.make(s)
            let matrix = Matrix()
            // Each kind of bad credential from its own address, so that the 20-failure limit
            // per address (tested below) does not turn these 401s into 429s.
            let unknown = Tokens.prefix + String(repeating: "A", count: 43)
            // Carl signs in to the web app and out again: his ended session cookie is one more bad credential.
            let carl = try await people.carl.signedIn(s, data: people.data)
            let ended = try #require(carl.session)
            #expect(try await s.send("DELETE", "/v1/session", headers: carl.credentials).status == 204)
            let bad: [(column: String, headers: [String: String], address: String)] = [
                ("no token", [:], "127.0.0.2"),
                ("malformed", ["Authorization": "Bearer vocab_not-a-token"], "127.0.0.3"),
                ("not Bearer", ["Authorization": "Basic YW5uYTpzZWNyZXQ="], "127.0.0.4"),
                ("unknown", ["Authorization": "Bearer \(unknown)"], "127.0.0.5"),
                ("revoked", ["Authorization": "Bearer \(people.carl.token)"], "127.0.0.6"),
                ("unknown cookie", ["Cookie": "vocab_session=\(Sessions.generate())", "X-CSRF-Token": ended.csrf], "127.0.0.7"),
                ("ended cookie", ["Cookie": ended.cookie, "X-CSRF-Token": ended.csrf], "127.0.0.8"),
            ]
            #expect(Tokens.isWellFormed(unknown))
            for endpoint in Self.endpoints {
                for (column, headers, address) in bad {
                    let before = try await people.snapshot()
                    // Aimed at Anna's first item: it would change if the request got through.
                    let item = people.annaItems[0].id
                    let r = try await s.send(
                        endpoint.method, endpoint.target(item), json: endpoint.json?(item),
                        headers: headers, from: address)
                    let after = try await people.snapshot()
                    var problems: [String] = []
                    if r.status != 401 { problems.append("status \(r.status)") }
                    if r.header("www-authenticate") != #"Bearer realm="vocab""# { problems.append("no challenge") }
                    if (try? r.error()["code"] as? String) != "unauthorized" { problems.append("body \(r.text.prefix(80))") }
                    if before != after { problems.append("stored data changed") }
                    matrix.record(endpoint.label, column, "\(r.status)", leak: problems.isEmpty ? nil : problems.joined(separator: ", "))
                }
            }
            try await Self.crossReads(
                s, people, reader: people.anna, victim: people.ben, readerWords: People.annaWords, victimWords: People.benWords,
                readerItems: people.annaItems, column: "anna → ben", matrix)
            try await Self.crossReads(
                s, people, reader: people.ben, victim: people.anna, readerWords: People.benWords, victimWords: People.annaWords,
                readerItems: people.benItems, column: "ben → anna", matrix)
            // The same with the web app's session cookies (and their CSRF tokens) instead of tokens.
            let annaWeb = try await people.anna.signedIn(s, data: people.data)
            let benWeb = try await people.ben.signedIn(s, data: people.data)
            try await Self.crossReads(
                s, people, reader: annaWeb, victim: benWeb, readerWords: People.annaWords, victimWords: People.benWords,
                readerItems: people.annaItems, column: "anna cookie → ben", matrix)
            try await Self.crossReads(
                s, people, reader: benWeb, victim: annaWeb, readerWords: People.benWords, victimWords: People.annaWords,
                readerItems: people.benItems, column: "ben cookie → anna", matrix)
            try await Self.crossWrites(
                s, people, reader: people.anna, victim: people.ben, readerItems: people.annaItems, victimItems: people.benItems,
                readerClientID: "a-1", victimClientID: "b-1", victimWord: "fish", column: "anna → ben", matrix)
            try await Self.crossWrites(
                s, people, reader: people.ben, victim: people.anna, readerItems: people.benItems, victimItems: people.annaItems,
                readerClientID: "b-1", victimClientID: "a-1", victimWord: "elephant", column: "ben → anna", matrix)
            try await Self.crossWrites(
                s, people, reader: annaWeb, victim: benWeb, readerItems: people.annaItems, victimItems: people.benItems,
                readerClientID: "a-1", victimClientID: "b-1", victimWord: "apple", column: "anna cookie → ben", matrix)
            try await Self.crossWrites(
                s, people, reader: benWeb, victim: annaWeb, readerItems: people.benItems, victimItems: people.annaItems,
                readerClientID: "b-1", victimClientID: "a-1", victimWord: "cake", column: "ben cookie → anna", matrix)

            let columns = bad.map(\.column) + ["anna → ben", "ben → anna", "anna cookie → ben", "ben cookie → anna"]
            print("Authorisation matrix (\(Self.endpoints.count) operations × \(columns.count) callers):\n" + matrix.table(columns: columns))
            print("leaks: \(matrix.leaks.count)")
            for endpoint in Self.endpoints {
                for column in columns { #expect(matrix.cells[endpoint.label]?[column] != nil, "\(endpoint.label) not checked for \(column)") }
            }
            for column in columns.suffix(4) { #expect(matrix.cells[Self.searchRow]?[column] != nil, "search not checked for \(column)") }
            #expect(matrix.leaks.isEmpty, "\(matrix.leaks.joined(separator: "\n"))")
        }
    }

    /// The public search, which adds the caller's library to what it finds.
    static let searchRow = "GET /v1/search (library)"

    /// The reader's token on every reading endpoint: only the reader's own items, by content.
    static func crossReads(
        _ s: TestServer, _ people: People, reader: TestLearner, victim: TestLearner, readerWords: [String], victimWords: [String],
        readerItems: [SavedItem], column: String, _ matrix: Matrix
    ) async throws {
        let own = Set(readerItems.map(\.id))
        func foreignWords(_ text: String) -> [String] { victimWords.filter { text.contains($0) } + (text.contains(victim.name) ? [victim.name] : []) }
        func ownWordsMissing(_ text: String) -> [String] { readerWords.filter { !text.contains($0) } }
        func ids(_ list: Any?, key: String) -> Set<Int64> {
            Set(((list as? [[String: Any]]) ?? []).compactMap { ($0[key] as? NSNumber)?.int64Value })
        }
        func note(_ label: String, _ r: RawResponse, _ problems: [String], _ cell: String) {
            matrix.record(label, column, "\(r.status) \(cell)", leak: problems.isEmpty ? nil : problems.joined(separator: ", "))
        }
        for endpoint in endpoints where endpoint.method == "GET" {
            let r = try await s.send("GET", endpoint.target(0), headers: reader.credentials)
            var problems: [String] = r.status == 200 ? [] : ["status \(r.status)"]
            var foreign = endpoint.path.hasSuffix(".apkg") ? [] : foreignWords(r.text)
            var cell = "own only"
            switch endpoint.path {
            case "/v1/me":
                let me = try r.object()
                if (me["id"] as? NSNumber)?.int64Value != reader.id || me["name"] as? String != reader.name { problems.append("names \(me)") }
                cell = "self"
            case "/v1/me/assignments":
                // Neither is in a class: nothing of anyone's (ClassAPITests covers children).
                if r.text != "[]" { problems.append("assignments \(r.text.prefix(80))") }
                cell = "none"
            case "/v1/me/library":
                let listed = ids(try r.object()["items"], key: "id")
                if listed != own { problems.append("items \(listed.sorted()), own \(own.sorted())") }
                cell = "\(listed.count) own items"
            case "/v1/me/review/next":
                let shown = ids(try r.object()["cards"], key: "item")
                if !shown.isSubset(of: own) || shown.isEmpty { problems.append("cards \(shown.sorted())") }
                cell = "\(shown.count) own cards"
            case "/v1/me/progress":
                let body = try r.object()
                let report = body["report"] as? [String: Any]
                if body["learner"] as? String != reader.name || (report?["items"] as? Int) != readerItems.count {
                    problems.append("report of \(body["learner"] ?? "?") with \(report?["items"] ?? "?") items")
                }
                // Saved words per category and level are the reader's alone (Anna: elephant
                // movers+flyers, dog all levels, cake flyers; Ben: fish, apple, ice cream all levels).
                let expected: [String: Int] =
                    reader.name == "anna"
                    ? ["animals/starters": 1, "animals/movers": 2, "food/starters": 0, "food/flyers": 1]
                    : ["animals/starters": 1, "animals/movers": 1, "food/starters": 2, "food/flyers": 2]
                let rows = (body["categories"] as? [[String: Any]]) ?? []
                for (key, count) in expected {
                    let saved = rows.first { "\($0["category"] ?? "")/\($0["level"] ?? "")" == key }?["saved"] as? Int
                    if saved != count { problems.append("\(key) saved \(saved ?? -1), expected \(count)") }
                }
                cell = "own counts"
            case "/v1/me/export.apkg":
                // Words are looked for in the collection and the media names, not in the audio bytes.
                let entries = Self.storedZipEntries(r.body)
                guard let collection = entries["collection.anki2"], let media = entries["media"] else {
                    problems.append("not a package: \(entries.keys.sorted())")
                    break
                }
                let text = String(decoding: collection + media, as: UTF8.self)
                let missing = ownWordsMissing(text)
                if !missing.isEmpty { problems.append("own words missing: \(missing)") }
                foreign = foreignWords(text)
                cell = "own words only"
            default:
                let missing = ownWordsMissing(r.text)
                if !missing.isEmpty { problems.append("own words missing: \(missing)") }
                cell = "own words only"
            }
            if !foreign.isEmpty { problems.append("shows \(foreign)") }
            note(endpoint.label, r, problems, cell)
        }
        // Search finds the reader's saved words in the library, and never the victim's.
        var problems: [String] = []
        var last: RawResponse?
        for (word, own) in readerWords.map({ ($0, true) }) + victimWords.map({ ($0, false) }) {
            let q = word.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? word
            let r = try await s.send("GET", "/v1/search?q=\(q)&source=library", headers: reader.credentials)
            last = r
            if r.status != 200 { problems.append("status \(r.status) for \(word)") }
            let results = (try? r.object()["results"] as? [[String: Any]]) ?? []
            let titles = results.compactMap { $0["title"] as? String }
            if own, !titles.contains(word) { problems.append("own \(word) missing") }
            // The answer repeats the query; what it found is in its results.
            let found = results.map { "\($0["title"] ?? "") \($0["reference"] ?? "") \($0["gloss"] ?? "")" }.joined(separator: "\n")
            if !own, !results.isEmpty || !foreignWords(found).isEmpty { problems.append("finds \(word)") }
        }
        if let last { note(searchRow, last, problems, "own library only") }
    }

    /// The entries of a zip file written with stored (uncompressed) entries, as the Anki
    /// package is: name → bytes.
    static func storedZipEntries(_ zip: [UInt8]) -> [String: [UInt8]] {
        func le16(_ i: Int) -> Int { Int(zip[i]) | Int(zip[i + 1]) << 8 }
        func le32(_ i: Int) -> Int { le16(i) | le16(i + 2) << 16 }
        var out: [String: [UInt8]] = [:]
        var i = 0
        while i + 30 <= zip.count, le32(i) == 0x0403_4B50 {
            let size = le32(i + 18)
            let nameLength = le16(i + 26)
            let extraLength = le16(i + 28)
            let start = i + 30 + nameLength + extraLength
            guard start + size <= zip.count else { break }
            out[String(decoding: zip[(i + 30)..<(i + 30 + nameLength)], as: UTF8.self)] = Array(zip[start..<(start + size)])
            i = start + size
        }
        return out
    }

    /// The reader's token aimed at the victim's items on every changing endpoint: 404 or the
    /// reader's own data, and the victim's items, cards and review log exactly as they were.
    static func crossWrites(
        _ s: TestServer, _ people: People, reader: TestLearner, victim: TestLearner, readerItems: [SavedItem],
        victimItems: [SavedItem], readerClientID: String, victimClientID: String, victimWord: String,
        column: String, _ matrix: Matrix
    ) async throws {
        let victimIDs = Set(victimItems.map(\.id))
        func attempt(
            _ label: String, _ method: String, _ target: String, json: String?,
            expect: (RawResponse) throws -> String?
        ) async throws -> String {
            let before = try await people.data.snapshot(of: victim)
            let r = try await s.send(method, target, json: json, headers: reader.credentials)
            let after = try await people.data.snapshot(of: victim)
            var problems: [String] = []
            if let problem = try expect(r) { problems.append(problem) }
            if before != after { problems.append("\(victim.name)'s data changed") }
            if !problems.isEmpty { matrix.record(label, column, "\(r.status)", leak: "\(method) \(target) \(json ?? ""): " + problems.joined(separator: ", ")) }
            return "\(r.status)"
        }
        func notFound(_ r: RawResponse) throws -> String? {
            r.status == 404 && (try? r.error()["code"] as? String) == "unknown_item" ? nil : "status \(r.status) \(r.text.prefix(80))"
        }
        var deletes: [String] = []
        var ratings: [String] = []
        for item in victimItems {
            deletes.append(try await attempt("DELETE /v1/me/library/{item}", "DELETE", "/v1/me/library/\(item.id)", json: nil, expect: notFound))
            for json in [
                #"{"item":\#(item.id),"rating":"again"}"#, #"{"item":\#(item.id),"rating":4,"version":0}"#,
                #"{"item":\#(item.id),"rating":4,"version":1}"#,
                // The victim's client id is nothing to the reader: a 404 like any other.
                #"{"item":\#(item.id),"rating":3,"clientId":"\#(victimClientID)"}"#,
            ] {
                ratings.append(try await attempt("POST /v1/me/reviews", "POST", "/v1/me/reviews", json: json, expect: notFound))
            }
            // The reader's own client id answers with the reader's own earlier rating, whatever item is named.
            ratings.append(
                try await attempt(
                    "POST /v1/me/reviews", "POST", "/v1/me/reviews",
                    json: #"{"item":\#(item.id),"rating":3,"clientId":"\#(readerClientID)"}"#
                ) { r in
                    let body = try r.object()
                    let answered = (body["item"] as? NSNumber)?.int64Value
                    return r.status == 200 && body["repeated"] as? Bool == true && answered == readerItems[0].id
                        ? nil
                        : "status \(r.status), answered about item \(answered ?? -1)"
                })
        }
        matrix.record("DELETE /v1/me/library/{item}", column, "\(Set(deletes).sorted().joined(separator: "/")) ×\(deletes.count)")
        matrix.record("POST /v1/me/reviews", column, "\(Set(ratings).sorted().joined(separator: "/")) ×\(ratings.count)")
        // Saving the victim's word makes the reader's own item; the victim's stays theirs.
        let saved = try await attempt("POST /v1/me/library", "POST", "/v1/me/library", json: #"{"word":"\#(victimWord)"}"#) { r in
            let items = (try r.object()["items"] as? [[String: Any]]) ?? []
            let ids = Set(items.compactMap { ($0["id"] as? NSNumber)?.int64Value })
            return r.status == 201 && !ids.isEmpty && ids.isDisjoint(with: victimIDs) ? nil : "status \(r.status), items \(ids.sorted())"
        }
        matrix.record("POST /v1/me/library", column, "\(saved) own copy")
        // Settings: the reader's own change, never the victim's.
        let language = victim.name == "anna" ? "en" : "vi"
        let setting = try await attempt("PATCH /v1/me/settings", "PATCH", "/v1/me/settings", json: #"{"language":"\#(language)"}"#) { r in
            let name = try r.object()["name"] as? String
            return r.status == 200 && name == reader.name ? nil : "status \(r.status), answered for \(name ?? "nobody")"
        }
        matrix.record("PATCH /v1/me/settings", column, "\(setting) own settings")
        // Saying a word is heard for the reader alone: the victim's library and log stay as they were.
        let before = try await people.data.snapshot(of: victim)
        var headers = reader.credentials
        headers["Content-Type"] = "audio/wav"
        let recording = Array(try Data(contentsOf: URL(fileURLWithPath: AttemptAPITests.recordings + "cat.wav")))
        let said = try await RawHTTP.get(port: s.port, "/v1/me/attempts?entry=animals/cat", method: "POST", headers: headers, body: recording)
        let after = try await people.data.snapshot(of: victim)
        var problems: [String] = []
        if said.status != 200 || (try? said.object()["entry"] as? String) != "animals/cat" { problems.append("status \(said.status) \(said.text.prefix(80))") }
        if before != after { problems.append("\(victim.name)'s data changed") }
        matrix.record(
            "POST /v1/me/attempts", column, "\(said.status) own", leak: problems.isEmpty ? nil : problems.joined(separator: ", "))
    }

    @Test(
        "20 failed tokens from one address within a minute: 429 with Retry-After for every further guess, until the minute (on the server's clock) is over; a valid token from that address is never refused; other addresses and public endpoints unaffected"
    )
    func guessingIsSlowedDown() async throws {
        let clock = TestClock()
        try await withServer(clock: clock) { s in
            let people = try await People.make(s)
            let guesser = "127.0.0.9"
            for i in 0..<20 {
                let r = try await s.send("GET", "/v1/me", token: Tokens.generate(), from: guesser)
                #expect(r.status == 401, "guess \(i + 1)")
            }
            let refused = try await s.send("GET", "/v1/me", token: Tokens.generate(), from: guesser)
            #expect(refused.status == 429)
            #expect(try refused.error()["code"] as? String == "too_many_attempts")
            let wait = try #require(refused.header("retry-after").flatMap(Int.init))
            #expect((1...60).contains(wait))
            // A learner signed in behind the same address (a school's router) is never refused
            // because someone else guessed; every wrong token is.
            let item = people.annaItems[0].id
            for endpoint in Self.endpoints {
                let wrong = try await s.send(endpoint.method, endpoint.target(item), token: Tokens.generate(), json: endpoint.json?(item), from: guesser)
                #expect(wrong.status == 429 && wrong.header("retry-after") != nil, "\(endpoint.label)")
            }
            #expect(try await s.send("GET", "/v1/me", token: people.anna.token, from: guesser).status == 200)
            #expect(try await s.send("GET", "/v1/me/library", token: people.anna.token, from: guesser).status == 200)
            // Elsewhere the same token works; public endpoints answer the guesser without a token.
            #expect(try await s.send("GET", "/v1/me", token: people.anna.token, from: "127.0.0.10").status == 200)
            #expect(try await s.send("GET", "/v1/categories", from: guesser).status == 200)
            #expect(try await s.send("GET", "/v1/categories", token: Tokens.generate(), from: guesser).status == 200)
            // The minute passes on the server's clock, not the machine's: guesses are answered again.
            clock.advance(by: 59)
            #expect(try await s.send("GET", "/v1/me", token: Tokens.generate(), from: guesser).status == 429)
            clock.advance(by: 2)
            #expect(try await s.send("GET", "/v1/me", token: Tokens.generate(), from: guesser).status == 401)
        }
    }

    @Test("public endpoints stay public: no token needed, and any Authorization header is ignored")
    func publicEndpointsArePublic() async throws {
        try await withServer { s in
            let targets = [
                "/healthz", "/v1/categories", "/v1/categories/animals/words", "/v1/words/cat", "/v1/search?q=ca",
                "/v1/audio/cat?accent=british&format=wav",
            ]
            for target in targets {
                for (method, headers) in [("GET", [:]), ("GET", ["Authorization": "Bearer nonsense"]), ("HEAD", [:])] {
                    let response = try await s.send(method, target, headers: headers)
                    #expect(response.status == 200, "\(method) \(target) \(headers): \(response.status) \(response.text.prefix(300)) \(s.logs.all.suffix(3))")
                }
            }
            // The Mandarin endpoints are public too: without an import they say so, not 401.
            let moe = try await s.send("GET", "/v1/moe/%E5%A5%BD")
            #expect(moe.status == 404 && moe.header("www-authenticate") == nil)
        }
    }
}
