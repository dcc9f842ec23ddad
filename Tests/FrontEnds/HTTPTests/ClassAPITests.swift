import App
import Classes
import Foundation
import Learners
import TestSupport
import Testing

/// Classes over HTTP against the server `vocab serve` runs: every answer fits openapi.json, and
/// the authorisation matrix of the class routes (no credentials, the other adult by token and
/// by cookie, a child of the class, a child of another class) finds 0 leaks.
@Suite("/v1/classes, sign-up and the children's sign-in over HTTP", .serialized)
struct ClassAPITests {
    /// The operations these tests answer for (the other suites leave them out).
    static func covers(_ path: String) -> Bool {
        path.hasPrefix("/v1/classes") || ["/v1/signup", "/v1/session/child", "/v1/pictures"].contains(path)
    }

    struct Session {
        var cookie: String
        var csrf: String
        var headers: [String: String] { ["Cookie": cookie, "X-CSRF-Token": csrf] }
    }

    static func session(_ r: RawResponse) throws -> Session {
        guard let cookie = r.sessionCookie, let csrf = try r.object()["csrf"] as? String else { throw ClientError("no session: \(r.status) \(r.text)") }
        return Session(cookie: cookie, csrf: csrf)
    }

    @Test(
        "an adult signs up, makes a class, adds children, assigns words, sees progress and the CSV; a child signs in with pictures and sees the class's words; every answer fits openapi.json"
    )
    func walk() async throws {
        let doc = try OpenAPITests.document()
        try await withServer { s in
            var seen: [String: Set<String>] = [:]
            func call(_ method: String, _ path: String, _ target: String? = nil, json: String? = nil, headers: [String: String] = [:]) async throws
                -> RawResponse
            {
                let op = try #require(doc.operations.first { $0.method == method && $0.path == path }, "\(method) \(path) not documented")
                let r = try await s.send(method, target ?? path, json: json, headers: headers)
                seen["\(method) \(path)", default: []].insert(String(r.status))
                try OpenAPITests.check(r, against: op, in: doc, label: "\(method) \(target ?? path) \(json ?? "")")
                return r
            }
            #expect(try await call("GET", "/v1/pictures").object()["choose"] as? Int == 3)
            #expect(try await call("POST", "/v1/signup", json: #"{"name":"Ms Lan","password":"short"}"#).status == 400)
            let signedUp = try await call("POST", "/v1/signup", json: #"{"name":"Ms Lan","password":"correct horse battery"}"#)
            #expect(signedUp.status == 201)
            #expect(try await call("POST", "/v1/signup", json: #"{"name":"ms lan","password":"correct horse battery"}"#).status == 409)
            #expect(
                try await call(
                    "POST", "/v1/signup", json: #"{"name":"x","password":"correct horse battery"}"#,
                    headers: ["Content-Type": "text/plain"]
                ).status == 415)
            let lan = try Self.session(signedUp).headers

            #expect(try await call("POST", "/v1/classes", json: #"{"name":""}"#, headers: lan).status == 400)
            let made = try await call("POST", "/v1/classes", json: #"{"name":"Year 3 Blue"}"#, headers: lan)
            let code = try #require(try made.object()["code"] as? String)
            #expect(try await call("GET", "/v1/classes", headers: lan).text.contains("Year 3 Blue"))
            #expect(try await call("GET", "/v1/classes/{code}", "/v1/classes/\(code.lowercased())", headers: lan).status == 200)
            #expect(try await call("GET", "/v1/classes/{code}", "/v1/classes/ZZZZZZ", headers: lan).status == 404)
            let an = try await call("POST", "/v1/classes/{code}/children", "/v1/classes/\(code)/children", json: #"{"name":"An"}"#, headers: lan)
            let anBody = try #require((try an.object()["added"] as? [[String: Any]])?.first)
            let anID = try #require((anBody["id"] as? NSNumber)?.int64Value)
            let pictures = try #require(anBody["pictures"] as? [Int])
            let roster = try await call(
                "POST", "/v1/classes/{code}/children", "/v1/classes/\(code)/children",
                json: #"{"csv":"name\nMinh Anh\nBảo\n"}"#, headers: lan)
            #expect((try roster.object()["added"] as? [[String: Any]])?.count == 2)
            #expect(try await call("POST", "/v1/classes/{code}/children", "/v1/classes/\(code)/children", json: #"{"name":"an"}"#, headers: lan).status == 409)
            #expect(try await call("POST", "/v1/classes/{code}/children", "/v1/classes/\(code)/children", json: #"{}"#, headers: lan).status == 400)

            #expect(
                try await call(
                    "POST", "/v1/classes/{code}/assignments", "/v1/classes/\(code)/assignments", json: #"{"category":"animals","level":"beginner"}"#,
                    headers: lan
                ).status == 400)
            #expect(
                try await call("POST", "/v1/classes/{code}/assignments", "/v1/classes/\(code)/assignments", json: #"{"category":"zoo"}"#, headers: lan).status
                    == 404)
            let assigned = try await call(
                "POST", "/v1/classes/{code}/assignments", "/v1/classes/\(code)/assignments",
                json: #"{"category":"animals","level":"starters","due":"2026-12-24"}"#, headers: lan)
            #expect(assigned.status == 201)
            let assignmentID = try #require(try assigned.object()["id"] as? String)
            #expect(try await call("GET", "/v1/classes/{code}/assignments", "/v1/classes/\(code)/assignments", headers: lan).text.contains(assignmentID))

            // The child: a wrong picture order is refused, the right one signs in; the words are in her library.
            let wrong = #"{"code":"\#(code)","name":"An","pictures":[\#(pictures.reversed().map(String.init).joined(separator: ","))]}"#
            #expect(try await call("POST", "/v1/session/child", json: wrong).status == 401)
            #expect(try await call("POST", "/v1/session/child", json: #"{"code":"\#(code)"}"#).status == 400)
            let childIn = try await call(
                "POST", "/v1/session/child",
                json: #"{"code":"\#(code.lowercased())","name":"an","pictures":[\#(pictures.map(String.init).joined(separator: ","))]}"#)
            #expect(childIn.status == 200)
            let child = try Self.session(childIn).headers
            let mine = try #require(
                try JSONSerialization.jsonObject(with: Data(try await s.send("GET", "/v1/me/assignments", headers: child).body)) as? [[String: Any]])
            #expect(mine.first?["title"] as? String == "Animals · Starters" && (mine.first?["words"] as? Int ?? 0) >= 2)
            let library = try await s.send("GET", "/v1/me/library", headers: child)
            #expect(library.text.contains("\"cat\"") && library.text.contains("\"dog\""))
            #expect(try await call("GET", "/v1/classes", headers: child).status == 403, "a child's session reaches no adult page")

            let progress = try await call("GET", "/v1/classes/{code}/progress", "/v1/classes/\(code)/progress", headers: lan)
            #expect((try progress.object()["children"] as? [[String: Any]])?.count == 3)
            let csv = try await call("GET", "/v1/classes/{code}/progress.csv", "/v1/classes/\(code)/progress.csv", headers: lan)
            #expect(csv.text.hasPrefix("name,days practised") && csv.text.contains("Minh Anh"))
            let unlock = try await call("POST", "/v1/classes/{code}/children/{child}/unlock", "/v1/classes/\(code)/children/\(anID)/unlock", headers: lan)
            #expect(try unlock.object()["firstName"] as? String == "An")
            let invited = try await call(
                "POST", "/v1/classes/{code}/children/{child}/invitation", "/v1/classes/\(code)/children/\(anID)/invitation", headers: lan)
            let invitation = try invited.object()["invitation"] as? String ?? ""
            #expect(invited.status == 201 && ClassRules.invitation(invitation) != nil)
            let reset = try await call("POST", "/v1/classes/{code}/children/{child}/pictures", "/v1/classes/\(code)/children/\(anID)/pictures", headers: lan)
            #expect(reset.status == 200)
            #expect(try await s.send("GET", "/v1/me/library", headers: child).status == 401, "new pictures end the child's sessions")
            #expect(
                try await call("DELETE", "/v1/classes/{code}/assignments/{assignment}", "/v1/classes/\(code)/assignments/\(assignmentID)", headers: lan).status
                    == 204)
            #expect(
                try await call("DELETE", "/v1/classes/{code}/assignments/{assignment}", "/v1/classes/\(code)/assignments/\(assignmentID)", headers: lan).status
                    == 404)
            #expect(try await call("DELETE", "/v1/classes/{code}/children/{child}", "/v1/classes/\(code)/children/\(anID)", headers: lan).status == 204)
            #expect(try await call("DELETE", "/v1/classes/{code}/children/{child}", "/v1/classes/\(code)/children/\(anID)", headers: lan).status == 404)
            #expect(try await call("DELETE", "/v1/classes/{code}", "/v1/classes/\(code)", headers: lan).status == 204)
            #expect(try await call("DELETE", "/v1/classes/{code}", "/v1/classes/\(code)", headers: lan).status == 404)
            for op in doc.operations where Self.covers(op.path) {
                #expect(seen["\(op.method) \(op.path)"]?.contains { $0.hasPrefix("2") } == true, "\(op.method) \(op.path) never answered with success")
            }
        }
    }

    /// One class operation as the matrix calls it, aimed at class `code`, child `child` and assignment `assignment`.
    struct Operation: Sendable {
        var method: String
        var path: String
        var target: @Sendable (_ code: String, _ child: Int64, _ assignment: String) -> String
        var json: String?
        var label: String { "\(method) \(path)" }
    }

    static let operations: [Operation] = [
        Operation(method: "GET", path: "/v1/classes/{code}", target: { c, _, _ in "/v1/classes/\(c)" }),
        Operation(method: "DELETE", path: "/v1/classes/{code}", target: { c, _, _ in "/v1/classes/\(c)" }),
        Operation(method: "POST", path: "/v1/classes/{code}/children", target: { c, _, _ in "/v1/classes/\(c)/children" }, json: #"{"name":"Mallory"}"#),
        Operation(method: "DELETE", path: "/v1/classes/{code}/children/{child}", target: { c, k, _ in "/v1/classes/\(c)/children/\(k)" }),
        Operation(method: "DELETE", path: "/v1/classes/{code}/children/{child}", target: { c, k, _ in "/v1/classes/\(c)/children/\(k)?erase=true" }),
        Operation(method: "POST", path: "/v1/classes/{code}/children/{child}/pictures", target: { c, k, _ in "/v1/classes/\(c)/children/\(k)/pictures" }),
        Operation(method: "POST", path: "/v1/classes/{code}/children/{child}/unlock", target: { c, k, _ in "/v1/classes/\(c)/children/\(k)/unlock" }),
        Operation(method: "POST", path: "/v1/classes/{code}/children/{child}/invitation", target: { c, k, _ in "/v1/classes/\(c)/children/\(k)/invitation" }),
        Operation(method: "GET", path: "/v1/classes/{code}/assignments", target: { c, _, _ in "/v1/classes/\(c)/assignments" }),
        Operation(method: "POST", path: "/v1/classes/{code}/assignments", target: { c, _, _ in "/v1/classes/\(c)/assignments" }, json: #"{"words":["lion"]}"#),
        Operation(method: "DELETE", path: "/v1/classes/{code}/assignments/{assignment}", target: { c, _, a in "/v1/classes/\(c)/assignments/\(a)" }),
        Operation(method: "GET", path: "/v1/classes/{code}/progress", target: { c, _, _ in "/v1/classes/\(c)/progress" }),
        Operation(method: "GET", path: "/v1/classes/{code}/progress.csv", target: { c, _, _ in "/v1/classes/\(c)/progress.csv" }),
        Operation(method: "GET", path: "/v1/classes", target: { _, _, _ in "/v1/classes" }),
        Operation(method: "POST", path: "/v1/classes", target: { _, _, _ in "/v1/classes" }, json: #"{"name":"Sneaky"}"#),
    ]

    @Test(
        "the class matrix: every class operation refuses no credentials (401), the other adult by token or cookie (404, as for no class), a child of the class and of another class (403); the owner's class, children and words are unchanged: 0 leaks, on user.sqlite and on PostgreSQL",
        arguments: StorageEngine.allCases)
    func matrix(_ engine: StorageEngine) async throws {
        let database: DatabaseChoice = engine == .sqlite ? .embedded : .postgres(url: try TestPostgres.shared().createDatabase("classes-http"), origin: "test")
        let s = try await TestServer.start(database: database)
        do {
            try await Self.matrix(s, database: database, engine: engine)
        } catch {
            await s.stop()
            throw error
        }
        await s.stop()
    }

    static func matrix(_ s: TestServer, database: DatabaseChoice, engine: StorageEngine) async throws {
        // The test's own way into the same database, built as the server builds it.
        let app = try VocabApp(environment: TestServer.environment(s.dir), database: database, use: .command)
        // A whole test run shares one PostgreSQL server: its first connection may wait.
        try await app.run(reachableWithin: .seconds(60)) { app in
            let classes = try await app.classes()
            func adult(_ name: String) async throws -> TestLearner {
                let (learner, token) = try await app.learning().addLearner(named: name)
                return TestLearner(learner: learner, token: token)
            }
            let owner = try await adult("teacher")
            let other = try await adult("parent")
            let mine = try await classes.createClass(named: "School", by: owner.learner)
            let theirs = try await classes.createClass(named: "Family", by: other.learner)
            let pupil = try await classes.addChild(named: "Lan", to: mine.code, by: owner.learner)
            let stranger = try await classes.addChild(named: "Hoa", to: theirs.code, by: other.learner)
            let assignment = try await classes.assign(to: mine.code, category: "animals", level: .starters, words: [], dueAt: nil, by: owner.learner)
            _ = try await classes.assign(to: theirs.code, category: "food", level: nil, words: [], dueAt: nil, by: other.learner)

            func childSession(_ child: NewChild, _ code: String) async throws -> [String: String] {
                let json = #"{"code":"\#(code)","name":"\#(child.firstName)","pictures":[\#(child.pictures.map(String.init).joined(separator: ","))]}"#
                return try Self.session(try await s.send("POST", "/v1/session/child", json: json)).headers
            }
            try await app.learning().setPassword("correct horse battery", for: other.learner)
            let signIn = try await s.send("POST", "/v1/session", json: #"{"name":"parent","password":"correct horse battery"}"#)
            let otherWeb = try Self.session(signIn).headers
            let callers: [(column: String, headers: [String: String], expected: Int, code: String)] = [
                ("no credentials", [:], 401, "unauthorized"),
                ("other adult token", other.authorization, 404, "unknown_class"),
                ("other adult cookie", otherWeb, 404, "unknown_class"),
                ("child of the class", try await childSession(pupil, mine.code), 403, "adults_only"),
                ("child of another class", try await childSession(stranger, theirs.code), 403, "adults_only"),
            ]
            func snapshot() async throws -> String {
                let details = try await classes.details(mine.code, by: owner.learner)
                let pupilLearner = try #require(try await app.learning().store.learner(id: pupil.id))
                let words = try await app.learning().library(of: pupilLearner).map(\.item.word).sorted()
                let owned = try await classes.classes(of: owner.learner).map(\.name)
                return "\(details) \(words) \(owned) \(try await classes.classes(of: other.learner).map(\.name))"
            }
            var leaks: [String] = []
            var table: [String] = []
            for op in Self.operations {
                var row = op.label.padding(toLength: 52, withPad: " ", startingAt: 0)
                for caller in callers {
                    let before = try await snapshot()
                    let r = try await s.send(op.method, op.target(mine.code, pupil.id, assignment.id), json: op.json, headers: caller.headers)
                    let after = try await snapshot()
                    // The routes without a class answer the other adult about their own classes: that is no leak.
                    let ownAnswer = op.path == "/v1/classes" && caller.column.hasPrefix("other adult")
                    let expected = ownAnswer ? (op.method == "GET" ? 200 : 201) : caller.expected
                    var problems: [String] = []
                    if r.status != expected { problems.append("status \(r.status)") }
                    if !ownAnswer, (try? r.error()["code"] as? String) != caller.code { problems.append("code \(r.text.prefix(60))") }
                    if ownAnswer, r.text.contains("School") { problems.append("shows the other adult's class") }
                    if before != after, !(ownAnswer && op.method == "POST") { problems.append("the owner's data changed") }
                    if !problems.isEmpty { leaks.append("\(op.label) [\(caller.column)]: \(problems.joined(separator: ", "))") }
                    row += "\(r.status)".padding(toLength: 8, withPad: " ", startingAt: 0)
                }
                table.append(row)
            }
            // A child's own assignments: their class's only.
            let strangerAssignments = try await s.send("GET", "/v1/me/assignments", headers: callers[4].headers).text
            if strangerAssignments.contains("Animals") { leaks.append("GET /v1/me/assignments: a child sees another class's words") }
            print(
                "Class authorisation matrix (\(Self.operations.count) operations × \(callers.count) callers = \(Self.operations.count * callers.count) cases):\n"
                    + "".padding(toLength: 52, withPad: " ", startingAt: 0) + callers.map(\.column).joined(separator: " | ") + "\n"
                    + table.joined(separator: "\n"))
            print("leaks: \(leaks.count)")
            print("engine: \(engine)")
            #expect(leaks.isEmpty, "\(leaks.joined(separator: "\n"))")
        }
    }
}
