import App
import AppCore
import Foundation
import Learners
import SQLiteDB
import TestSupport
import Testing

/// People sign in to the web app with a name and password and hold a session cookie: real
/// requests over loopback against the server `vocab serve` runs, what is stored read back from
/// user.sqlite.
@Suite("web sessions: password sign-in, the cookie, CSRF, sign-out")
struct SessionTests {
    static let password = "correct horse battery"

    static func signIn(_ s: TestServer, _ name: String, _ password: String, from address: String? = nil) async throws -> RawResponse {
        try await s.send("POST", "/v1/session", json: #"{"name":"\#(name)","password":"\#(password)"}"#, from: address)
    }

    @Test(
        "a wrong password, an unknown name and a learner without a password all get the same 401 and no cookie; the right one a session cookie that is HttpOnly, SameSite=Strict, Path=/ and stored only as its hash"
    )
    func signInAndCookieFlags() async throws {
        try await withServer { s in
            let data = try await LearnerData.open(s)
            let anna = try await data.add("anna")
            _ = try await data.add("ben") // no password
            try await data.learning.setPassword(Self.password, for: anna.learner)
            let stored = try #require(try await data.store.passwordHash(of: anna.id))
            #expect(stored.hasPrefix("$2b$12$"), "bcrypt, cost 12: \(stored.prefix(7))")

            var bodies: Set<String> = []
            for (name, password) in [("anna", "correct horse batterY"), ("nobody", Self.password), ("ben", Self.password), ("anna", "")] {
                let r = try await Self.signIn(s, name, password)
                #expect(r.status == 401, "\(name)")
                #expect(r.header("set-cookie") == nil)
                bodies.insert(r.text)
            }
            #expect(bodies.count == 1, "the answers tell nothing about which part was wrong: \(bodies)")

            let r = try await Self.signIn(s, "ANNA", Self.password) // names are compared without case
            #expect(r.status == 200)
            #expect(r.header("cache-control") == "no-store")
            let setCookie = try #require(r.header("set-cookie"))
            let attributes = Set(setCookie.split(separator: ";").dropFirst().map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
            #expect(attributes.isSuperset(of: ["httponly", "samesite=strict", "path=/", "max-age=2592000"]), "\(setCookie)")
            let body = try r.object()
            #expect(body["name"] as? String == "anna" && (body["id"] as? NSNumber)?.int64Value == anna.id)
            let cookie = try #require(r.sessionCookie)
            let token = String(cookie.dropFirst("vocab_session=".count))
            #expect(Sessions.isWellFormed(token))
            #expect(body["csrf"] as? String == Sessions.csrf(for: token))

            // Only the SHA-256 of the session is in user.sqlite, never the cookie's value.
            let db = try Database(path: s.home + "/user.sqlite", mode: .readOnly)
            let hashes = try db.query("SELECT hash FROM sessions", map: { $0.bytes(0) })
            #expect(hashes == [Sessions.hash(token)])
            let file = try Data(contentsOf: URL(fileURLWithPath: s.home + "/user.sqlite"))
            #expect(file.range(of: Data(token.utf8)) == nil)

            let me = try await s.send("GET", "/v1/me", headers: ["Cookie": cookie])
            #expect(try me.status == 200 && me.object()["name"] as? String == "anna")
            let current = try await s.send("GET", "/v1/session", headers: ["Cookie": cookie])
            #expect(try current.status == 200 && current.object()["csrf"] as? String == Sessions.csrf(for: token))
        }
    }

    @Test(
        "signed in by the cookie, a change without the session's CSRF token (none, another session's, a bearer-looking one) is 403 and changes nothing; with it, it works; bearer tokens need no CSRF token"
    )
    func csrfDefence() async throws {
        try await withServer { s in
            let data = try await LearnerData.open(s)
            let anna = try await data.add("anna").signedIn(s, data: data)
            let ben = try await data.add("ben").signedIn(s, data: data)
            let session = try #require(anna.session)
            let item = try await data.save(["dog"], for: anna)[0]
            let before = try await data.snapshot(of: anna)
            let refusals: [[String: String]] = [
                ["Cookie": session.cookie],
                ["Cookie": session.cookie, "X-CSRF-Token": try #require(ben.session).csrf],
                ["Cookie": session.cookie, "X-CSRF-Token": ""],
                ["Cookie": session.cookie, "X-CSRF-Token": session.csrf + "x"],
            ]
            for headers in refusals {
                for (method, target, json) in [
                    ("POST", "/v1/me/library", #"{"word":"cat"}"#), ("DELETE", "/v1/me/library/\(item.id)", nil),
                    ("POST", "/v1/me/reviews", #"{"item":\#(item.id),"rating":3}"#),
                ] {
                    let r = try await s.send(method, target, json: json, headers: headers)
                    #expect(r.status == 403, "\(method) \(target) \(headers.keys.sorted())")
                    #expect(try r.error()["code"] as? String == "csrf_token_missing")
                }
                #expect(try await s.send("DELETE", "/v1/session", headers: headers).status == 403)
            }
            #expect(try await data.snapshot(of: anna) == before, "nothing changed")
            #expect(try await s.send("GET", "/v1/session", headers: anna.credentials).status == 200, "still signed in")
            // Reading needs no CSRF token; changing with it works.
            #expect(try await s.send("GET", "/v1/me/library", headers: ["Cookie": session.cookie]).status == 200)
            #expect(try await s.send("POST", "/v1/me/library", json: #"{"word":"cat"}"#, headers: anna.credentials).status == 201)
            // Apps with a bearer token are unchanged, even if they also send a stale cookie.
            var app = anna
            app.session = nil
            #expect(try await s.send("POST", "/v1/me/library", json: #"{"word":"fish"}"#, headers: app.credentials).status == 201)
            #expect(
                try await s.send(
                    "POST", "/v1/me/library", json: #"{"word":"apple"}"#,
                    headers: app.credentials.merging(["Cookie": "vocab_session=\(Sessions.generate())"]) { a, _ in a }
                ).status == 201)
            // Signing in takes JSON only: a cross-site form cannot post it.
            let form = try await s.send(
                "POST", "/v1/session", json: "name=anna&password=correct+horse+battery",
                headers: ["Content-Type": "application/x-www-form-urlencoded"])
            #expect(form.status == 415 && form.header("set-cookie") == nil)
        }
    }

    @Test("signing out ends that session only (401 and the cookie cleared afterwards); a new password ends every session; tokens keep working")
    func signOut() async throws {
        try await withServer { s in
            let data = try await LearnerData.open(s)
            let anna = try await data.add("anna")
            let phone = try await anna.signedIn(s, data: data)
            let second = try await Self.signIn(s, "anna", Self.password)
            let laptop = ["Cookie": try #require(second.sessionCookie), "X-CSRF-Token": try #require(try second.object()["csrf"] as? String)]
            let out = try await s.send("DELETE", "/v1/session", headers: phone.credentials)
            #expect(out.status == 204)
            #expect(out.header("set-cookie")?.contains("Max-Age=0") == true)
            for target in ["/v1/me", "/v1/session", "/v1/me/library"] {
                let r = try await s.send("GET", target, headers: phone.credentials)
                #expect(r.status == 401, "\(target)")
                #expect(r.header("set-cookie")?.contains("Max-Age=0") == true, "the ended cookie is cleared")
            }
            #expect(try await s.send("POST", "/v1/me/library", json: #"{"word":"cat"}"#, headers: phone.credentials).status == 401)
            #expect(try await s.send("GET", "/v1/me", headers: laptop).status == 200, "the other session goes on")
            // `vocab users passwd` (the same service call) signs out every browser, not apps.
            try await data.learning.setPassword("another long password", for: anna.learner)
            #expect(try await s.send("GET", "/v1/me", headers: laptop).status == 401)
            #expect(try await s.send("GET", "/v1/me", token: anna.token).status == 200)
            #expect(try await Self.signIn(s, "anna", Self.password).status == 401)
            #expect(try await Self.signIn(s, "anna", "another long password").status == 200)
        }
    }

    @Test(
        "wrong passwords count towards the same limit as bad tokens: 19 bad tokens and one wrong password from one address make 20, then 429 with Retry-After, for the right password too; other addresses unaffected"
    )
    func guessingPasswordsIsSlowedDown() async throws {
        // The minute is the server's clock's, which only the test moves: however long 20 bcrypt
        // checks take on a busy machine, they are within it.
        let clock = TestClock()
        try await withServer(clock: clock) { s in
            let data = try await LearnerData.open(s)
            let anna = try await data.add("anna")
            try await data.learning.setPassword(Self.password, for: anna.learner)
            let guesser = "127.0.0.11"
            for _ in 0..<19 { #expect(try await s.send("GET", "/v1/me", token: Tokens.generate(), from: guesser).status == 401) }
            #expect(try await Self.signIn(s, "anna", "wrong horse battery", from: guesser).status == 401)
            let refused = try await Self.signIn(s, "anna", Self.password, from: guesser)
            #expect(refused.status == 429 && refused.header("retry-after") != nil && refused.header("set-cookie") == nil)
            #expect(try await s.send("GET", "/v1/session", headers: ["Cookie": "vocab_session=\(Sessions.generate())"], from: guesser).status == 429)
            #expect(try await Self.signIn(s, "anna", Self.password, from: "127.0.0.12").status == 200)
            clock.advance(by: 61)
            #expect(try await Self.signIn(s, "anna", Self.password, from: guesser).status == 200, "the minute over, the right password works")
        }
    }

    @Test(
        "a burst of sign-ins takes one core per check and a short queue: the rest get 429 sign_in_busy with Retry-After, never a 5xx, and sign-in works again after"
    )
    func signInBurst() async throws {
        try await withServer { s in
            let data = try await LearnerData.open(s)
            let anna = try await data.add("anna")
            try await data.learning.setPassword(Self.password, for: anna.learner)
            // More than the server admits at once (one check per core plus four per core queued),
            // all sent together: a check takes a quarter of a second, far longer than sending.
            let burst = 5 * ProcessInfo.processInfo.activeProcessorCount + 8
            let answers = try await withThrowingTaskGroup(of: RawResponse.self) { group in
                for _ in 0..<burst { group.addTask { try await Self.signIn(s, "anna", Self.password) } }
                return try await group.reduce(into: [RawResponse]()) { $0.append($1) }
            }
            #expect(answers.allSatisfy { [200, 429].contains($0.status) }, "\(answers.map(\.status))")
            let busy = answers.filter { $0.status == 429 }
            #expect(!busy.isEmpty && answers.contains { $0.status == 200 })
            for r in busy {
                #expect(r.header("retry-after") == "1" && r.header("set-cookie") == nil)
                #expect(try (r.object()["error"] as? [String: Any])?["code"] as? String == "sign_in_busy")
            }
            #expect(try await Self.signIn(s, "anna", Self.password).status == 200)
        }
    }

    @Test("the password rule is written once: too short, too long for bcrypt or with control characters is refused before hashing")
    func passwordRule() async throws {
        for bad in ["short", String(repeating: "é", count: 37), "ten chars\u{0}!"] {
            #expect(throws: Failure.self) { try PasswordRules.check(bad) }
        }
        try PasswordRules.check(String(repeating: "x", count: PasswordRules.minLength))
    }
}
