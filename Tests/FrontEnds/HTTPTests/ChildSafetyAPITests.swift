import App
import Classes
import Foundation
import HTTPAPI
import Learners
import TestSupport
import Testing

/// A child's account over HTTP, tried as an attacker would, on user.sqlite and on PostgreSQL:
/// every sequence of pictures from many addresses meets the child's lock; a class behind one
/// address keeps signing in; sign-up tells nothing of who is in a class; the adult sees the
/// failures and ends a lock; joining another class takes an invitation.
@Suite("Children's sign-in over HTTP: locks per child whatever the address, a school behind one router, nothing told", .serialized)
struct ChildSafetyAPITests {
    static func server(_ engine: StorageEngine, clock: TestClock, settings: ServerSettings = ServerSettings(port: 0)) async throws -> TestServer {
        let database: DatabaseChoice = engine == .sqlite ? .embedded : .postgres(url: try TestPostgres.shared().createDatabase("child-safety"), origin: "test")
        return try await TestServer.start(settings: settings, database: database, clock: clock)
    }

    static func with(_ engine: StorageEngine, clock: TestClock, settings: ServerSettings = ServerSettings(port: 0), _ body: (TestServer) async throws -> Void)
        async throws
    {
        let s = try await server(engine, clock: clock, settings: settings)
        do { try await body(s) } catch {
            await s.stop()
            throw error
        }
        await s.stop()
    }

    struct Teacher {
        var headers: [String: String]
        var code: String
    }

    /// An adult signed up with a class of `names`; the children with their pictures.
    static func classOf(_ names: [String], on s: TestServer, adult: String = "Ms Lan") async throws -> (Teacher, [(id: Int64, name: String, pictures: [Int])]) {
        let signedUp = try await s.send("POST", "/v1/signup", json: #"{"name":"\#(adult)","password":"correct horse battery"}"#)
        let session = try ClassAPITests.session(signedUp).headers
        let code = try #require(try await s.send("POST", "/v1/classes", json: #"{"name":"Year 3"}"#, headers: session).object()["code"] as? String)
        let roster = names.joined(separator: "\\n")
        let added = try await s.send("POST", "/v1/classes/\(code)/children", json: #"{"csv":"\#(roster)"}"#, headers: session)
        let children = try #require(try added.object()["added"] as? [[String: Any]]).map {
            (id: ($0["id"] as! NSNumber).int64Value, name: $0["firstName"] as! String, pictures: $0["pictures"] as! [Int])
        }
        return (Teacher(headers: session, code: code), children)
    }

    static func signIn(_ s: TestServer, _ code: String, _ name: String, _ pictures: [Int], from address: String? = nil) async throws -> RawResponse {
        try await s.send(
            "POST", "/v1/session/child", json: #"{"code":"\#(code)","name":"\#(name)","pictures":[\#(pictures.map(String.init).joined(separator: ","))]}"#,
            from: address)
    }

    @Test(
        "all 504 sequences, each from its own loopback address: never signed in; 401 three times, then 429 sign_in_locked with Retry-After, alike for a child, a name nobody has and a class that does not exist; the teacher's page shows the lock, and an unlock lets the child in",
        arguments: StorageEngine.allCases)
    func everySequenceFromManyAddresses(_ engine: StorageEngine) async throws {
        let clock = TestClock()
        try await Self.with(engine, clock: clock) { s in
            let (teacher, children) = try await Self.classOf(["An"], on: s)
            let an = children[0]
            let order = ClassRules.everyPictureSequence.filter { $0 != an.pictures } + [an.pictures]
            func attack(_ code: String, _ name: String) async throws -> [String] {
                var answers: [String] = []
                for (i, pictures) in order.enumerated() {
                    let r = try await Self.signIn(s, code, name, pictures, from: "127.0.\(1 + i / 200).\(1 + i % 200)")
                    let code = (try? r.error()["code"] as? String) ?? "-"
                    if r.status == 429 { #expect(r.header("retry-after").flatMap(Int.init) != nil) }
                    answers.append("\(r.status) \(code)")
                }
                return answers
            }
            let expected = Array(repeating: "401 unauthorized", count: 3) + Array(repeating: "429 sign_in_locked", count: 501)
            #expect(try await attack(teacher.code, "An") == expected)
            #expect(try await attack(teacher.code, "Anselmo") == expected, "a name nobody has answers alike")
            #expect(try await attack("ZZZZZZ", "An") == expected, "a class that does not exist answers alike")

            let details = try await s.send("GET", "/v1/classes/\(teacher.code)", headers: teacher.headers).object()
            let child = try #require((details["children"] as? [[String: Any]])?.first)
            let report = try #require(child["signIn"] as? [String: Any])
            #expect(report["failedToday"] as? Int == 3 && report["lockedUntil"] != nil, "\(report)")
            let unlocked = try await s.send("POST", "/v1/classes/\(teacher.code)/children/\(an.id)/unlock", headers: teacher.headers)
            #expect(unlocked.status == 200)
            #expect(try await Self.signIn(s, teacher.code, "An", an.pictures).status == 200)
        }
    }

    @Test(
        "25 children behind one address, each mistyping twice, all sign in within the minute while a classmate is locked; a child already signed in is not refused after 40 failed sign-ins and bad tokens from that address",
        arguments: StorageEngine.allCases)
    func aSchoolBehindOneRouter(_ engine: StorageEngine) async throws {
        let clock = TestClock()
        try await Self.with(engine, clock: clock) { s in
            let names = (0..<26).map { "Child \(Character(UnicodeScalar(65 + $0)!))" }
            let (teacher, all) = try await Self.classOf(names, on: s)
            var children = all
            let locked = children.removeLast()
            let router = "127.0.0.50"
            for pictures in ClassRules.everyPictureSequence.filter({ $0 != locked.pictures }).prefix(4) {
                _ = try await Self.signIn(s, teacher.code, locked.name, pictures, from: router)
            }
            let started = clock.now
            var sessions: [String] = []
            for child in children {
                let wrong = ClassRules.everyPictureSequence.first { $0 != child.pictures }!
                for _ in 0..<2 { #expect(try await Self.signIn(s, teacher.code, child.name, wrong, from: router).status == 401) }
                clock.advance(by: 2)
                let r = try await Self.signIn(s, teacher.code, child.name, child.pictures, from: router)
                #expect(r.status == 200, "\(child.name): \(r.status) \(r.text)")
                if let cookie = r.sessionCookie { sessions.append(cookie) }
            }
            #expect(sessions.count == 25 && clock.now - started <= 60)
            #expect(try await Self.signIn(s, teacher.code, locked.name, locked.pictures, from: router).status == 429)
            // Someone behind the same router keeps guessing tokens: the signed-in children carry on.
            for _ in 0..<40 { _ = try await s.send("GET", "/v1/me", token: Tokens.generate(), from: router) }
            for cookie in sessions.prefix(5) {
                #expect(try await s.send("GET", "/v1/me/assignments", headers: ["Cookie": cookie], from: router).status == 200)
            }
            // The teacher sees the one locked child, and no failures for the others: their sign-ins forgave them.
            let details = try await s.send("GET", "/v1/classes/\(teacher.code)", headers: teacher.headers).object()
            let reports = try #require(details["children"] as? [[String: Any]])
            let lockedNames = reports.filter { ($0["signIn"] as? [String: Any])?["lockedUntil"] != nil }.compactMap { $0["firstName"] as? String }
            #expect(lockedNames == [locked.name])
        }
    }

    @Test(
        "sign-up with a child's First.CODE name tells nothing: the same 400 for a child who is in the class and one who is not; joining takes an invitation, never pictures",
        arguments: StorageEngine.allCases)
    func nothingTellsWhoIsInAClass(_ engine: StorageEngine) async throws {
        let clock = TestClock()
        try await Self.with(engine, clock: clock) { s in
            let (teacher, children) = try await Self.classOf(["Anselmo"], on: s)
            var bodies: [String] = []
            for name in ["Anselmo.\(teacher.code)", "Nobody.\(teacher.code)"] {
                let r = try await s.send(
                    "POST", "/v1/signup", json: #"{"name":"\#(name)","password":"correct horse battery"}"#, from: "127.0.1.\(bodies.count + 1)")
                #expect(r.status == 400)
                bodies.append((try? r.error()["code"] as? String) ?? r.text)
            }
            #expect(bodies == ["bad_name", "bad_name"])
            // Another adult cannot take the child along with her pictures, only with the teacher's invitation.
            let (parent, _) = try await Self.classOf(["Hoa"], on: s, adult: "Mr Binh")
            let anselmo = children[0]
            let withPictures = try await s.send(
                "POST", "/v1/classes/\(parent.code)/children",
                json: #"{"join":{"code":"\#(teacher.code)","name":"Anselmo","pictures":[\#(anselmo.pictures.map(String.init).joined(separator: ","))]}}"#,
                headers: parent.headers)
            #expect(withPictures.status == 400)
            let invitation = try await s.send("POST", "/v1/classes/\(teacher.code)/children/\(anselmo.id)/invitation", headers: teacher.headers)
            #expect(invitation.status == 201)
            let text = try #require(try invitation.object()["invitation"] as? String)
            let joined = try await s.send("POST", "/v1/classes/\(parent.code)/children", json: #"{"join":{"invitation":"\#(text)"}}"#, headers: parent.headers)
            #expect(joined.status == 201)
            #expect(
                try await s.send("POST", "/v1/classes/\(parent.code)/children/\(anselmo.id)/pictures", headers: parent.headers).error()["code"] as? String
                    == "not_creator")
            // The child's own session names her by her first name only.
            let signedIn = try await Self.signIn(s, parent.code, "Anselmo", anselmo.pictures)
            let cookie = try #require(signedIn.sessionCookie)
            let me = try await s.send("GET", "/v1/session", headers: ["Cookie": cookie]).object()
            #expect(me["name"] as? String == "Anselmo")
            #expect(try await s.send("GET", "/v1/me", headers: ["Cookie": cookie]).object()["name"] as? String == "Anselmo")
        }
    }

    @Test("behind a trusted reverse proxy the client's X-Forwarded-For address is counted; from anyone else the header counts for nothing")
    func trustedProxies() async throws {
        let clock = TestClock()
        try await Self.with(.sqlite, clock: clock, settings: ServerSettings(port: 0, trustedProxies: ["127.0.0.2"])) { s in
            func guess(from peer: String, forwardedFor: String) async throws -> Int {
                try await s.send("GET", "/v1/me", token: Tokens.generate(), headers: ["X-Forwarded-For": forwardedFor], from: peer).status
            }
            for _ in 0..<20 { _ = try await guess(from: "127.0.0.2", forwardedFor: "203.0.113.7") }
            #expect(try await guess(from: "127.0.0.2", forwardedFor: "203.0.113.7") == 429, "the client behind the proxy is limited")
            #expect(try await guess(from: "127.0.0.2", forwardedFor: "203.0.113.8") == 401, "another client behind the proxy is not")
            // An untrusted peer cannot choose the address it is counted under.
            for i in 0..<20 { _ = try await guess(from: "127.0.0.3", forwardedFor: "198.51.100.\(i)") }
            #expect(try await guess(from: "127.0.0.3", forwardedFor: "198.51.100.99") == 429)
        }
    }
}
