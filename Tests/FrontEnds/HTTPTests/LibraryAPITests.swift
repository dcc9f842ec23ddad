import App
import Foundation
import Learners
import TestSupport
import Testing

/// POST /v1/me/library as the web app uses it: by the ids the catalog answers give, a set in one
/// request. What was saved is read back from user.sqlite, not from the answer.
@Suite("/v1/me/library: saving catalog entries by the ids the answers carry")
struct LibraryAPITests {
    @Test("a list of entries saves exactly those, in one request; saving them again adds nothing")
    func entriesSavedTogether() async throws {
        try await withServer { s in
            let data = try await LearnerData.open(s)
            let anna = try await data.add("anna")
            let page = try await s.get("/v1/categories/food/words")
            let ids = try #require((try page.object()["words"] as? [[String: Any]])?.compactMap { $0["id"] as? String })
            #expect(ids == ["food/apple", "food/cake", "food/ice-cream"], "every listed entry names its id")
            let body = String(decoding: try JSONSerialization.data(withJSONObject: ["entries": ids]), as: UTF8.self)
            let saved = try await s.send("POST", "/v1/me/library", token: anna.token, json: body)
            #expect(saved.status == 201)
            #expect(try saved.object()["added"] as? Int == 3)
            #expect(try await data.store.items(of: anna.id).map(\.key.entry).sorted() == ids)
            let again = try await s.send("POST", "/v1/me/library", token: anna.token, json: body)
            #expect(try again.status == 200 && again.object()["added"] as? Int == 0)
            #expect(try await data.store.items(of: anna.id).count == 3)
        }
    }

    @Test("an unknown id, a list too long, or both a word and entries: a 4xx with its code, and nothing saved")
    func refusedSavesSaveNothing() async throws {
        try await withServer { s in
            let data = try await LearnerData.open(s)
            let anna = try await data.add("anna")
            let unknown = try await s.send("POST", "/v1/me/library", token: anna.token, json: #"{"entries":["animals/cat","animals/unicorn"]}"#)
            #expect(try unknown.status == 404 && unknown.error()["code"] as? String == "unknown_entry")
            let many = "[" + Array(repeating: #""animals/cat""#, count: 1001).joined(separator: ",") + "]"
            let long = try await s.send("POST", "/v1/me/library", token: anna.token, json: #"{"entries":\#(many)}"#)
            #expect(try long.status == 400 && long.error()["code"] as? String == "bad_request")
            let both = try await s.send("POST", "/v1/me/library", token: anna.token, json: #"{"word":"cat","entries":["animals/cat"]}"#)
            #expect(try both.status == 400 && both.error()["code"] as? String == "bad_request")
            let neither = try await s.send("POST", "/v1/me/library", token: anna.token, json: #"{"source":"catalog"}"#)
            #expect(neither.status == 400)
            #expect(try await data.store.items(of: anna.id).isEmpty)
        }
    }
}
