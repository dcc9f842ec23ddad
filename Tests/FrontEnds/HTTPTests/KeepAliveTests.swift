import Foundation
import Testing

/// A target answered once is answered again from memory, before routing (RepeatedRequestLane).
/// These run on keep-alive connections, where that lane is taken.
@Suite("vocab serve: repeated requests on a keep-alive connection")
struct KeepAliveTests {
    typealias Request = (method: String, target: String, headers: [String: String])

    /// The date and the request's own id differ from answer to answer by design.
    func withoutDate(_ r: RawResponse) -> [String: String] { r.headers.filter { $0.key != "date" && $0.key != "x-request-id" } }

    @Test("a repeated request gets the same status, headers and bytes as the first, in every variant")
    func repeatsMatchTheFirstAnswer() async throws {
        try await withServer { s in
            let variants: [Request] = [
                ("GET", "/v1/categories/animals/words?level=starters", [:]),
                ("GET", "/v1/categories/animals/words?level=starters", ["Accept-Encoding": "gzip"]),
                ("HEAD", "/v1/categories?level=movers", [:]),
                ("GET", "/v1/words/cat", [:]),
                ("GET", "/v1/search?q=ca", ["Accept-Encoding": "br;q=1, gzip;q=0"]),
            ]
            for request in variants {
                let answers = try await RawHTTP.exchange(port: s.port, [request, request, request])
                let first = answers[0]
                #expect(first.status == 200, "\(request.target)")
                #expect(first.header("date") != nil)
                for again in answers.dropFirst() {
                    #expect(again.status == first.status, "\(request)")
                    #expect(withoutDate(again) == withoutDate(first), "\(request)")
                    #expect(again.body == first.body, "\(request)")
                    #expect(again.header("date") != nil, "\(request)")
                }
                if request.method == "HEAD" { #expect(answers.allSatisfy { $0.body.isEmpty && $0.header("content-length") != nil }) }
            }
        }
    }

    /// Seen in CI as a page whose saved word never said "Saved": NIO's encoder matched each
    /// response with the next request its decoder read, the answers from memory put that out of
    /// step, and a GET after a HEAD from memory lost its body but kept its Content-Length.
    @Test("after answers from memory on one connection, every answer still has its own body: a GET after a HEAD, a HEAD after a GET")
    func answersFromMemoryKeepTheNextAnswersBody() async throws {
        try await withServer { s in
            let answers = try await RawHTTP.exchange(
                port: s.port,
                [
                    ("HEAD", "/v1/words/cat", [:]), ("HEAD", "/v1/words/cat", [:]), // the second from memory
                    ("GET", "/v1/words/dog", [:]), // answered by the application
                    ("GET", "/v1/words/dog", [:]), ("GET", "/v1/words/dog", [:]), // from memory
                    ("HEAD", "/v1/words/fish", [:]), // by the application, after two from memory
                    ("HEAD", "/", [:]), ("HEAD", "/", [:]), // the web app's page, then from memory
                    ("GET", "/v1/words/zebra", [:]), // a 404 by the application
                    ("HEAD", "/v1/words/zebra", [:]),
                    ("GET", "/app.js", [:]),
                ])
            #expect(answers.map(\.status) == [200, 200, 200, 200, 200, 200, 200, 200, 404, 404, 200])
            for (i, answer) in answers.enumerated() {
                let length = try #require(answer.header("content-length").flatMap(Int.init), "answer \(i)")
                #expect(length > 0, "answer \(i)")
            }
            for i in [2, 3, 4] { #expect(answers[i].text.contains("\"word\":\"dog\""), "answer \(i): \(answers[i].text)") }
            #expect(answers[8].text.contains("zebra"))
            #expect(answers[10].text.contains("import"))
            // A HEAD's answer has no body: had it one, the next answer read would start inside it.
            for i in [0, 1, 5, 6, 7, 9] { #expect(answers[i].body.isEmpty, "answer \(i)") }
        }
    }

    @Test("If-None-Match on a repeated request still gives 304 with the tag and no body")
    func conditionalRepeats() async throws {
        try await withServer { s in
            let target = "/v1/categories/food/words"
            let first = try await RawHTTP.exchange(port: s.port, [("GET", target, ["Accept-Encoding": "gzip"])])[0]
            let tag = try #require(first.header("etag"))
            #expect(tag.hasSuffix("-gz\""))
            let answers = try await RawHTTP.exchange(
                port: s.port,
                [
                    ("GET", target, ["If-None-Match": tag, "Accept-Encoding": "gzip"]),
                    ("GET", target, ["If-None-Match": tag, "Accept-Encoding": "gzip"]),
                    ("GET", target, ["If-None-Match": "\"other\""]),
                ])
            #expect(answers[0].status == 304 && answers[1].status == 304)
            #expect(answers[0].body.isEmpty && answers[1].body.isEmpty)
            #expect(answers[1].header("etag") == tag)
            #expect(answers[2].status == 200 && answers[2].header("etag") == String(tag.dropLast(4)) + "\"")
        }
    }

    @Test("pipelined requests are answered in the order they were sent, cached or not")
    func pipelinedResponsesKeepTheirOrder() async throws {
        try await withServer { s in
            _ = try await RawHTTP.exchange(port: s.port, [("GET", "/v1/categories", [:]), ("GET", "/v1/words/dog", [:])])
            // Uncached, cached, an error, cached: the cached ones must wait their turn.
            let answers = try await RawHTTP.exchange(
                port: s.port,
                [
                    ("GET", "/v1/words/fish", [:]), ("GET", "/v1/categories", [:]),
                    ("GET", "/v1/words/zebra", [:]), ("GET", "/v1/words/dog", [:]),
                ], pipelined: true)
            #expect(answers.map(\.status) == [200, 200, 404, 200])
            #expect(answers[0].text.contains("\"word\":\"fish\""))
            #expect(answers[1].text.contains("\"animals\""))
            #expect(answers[2].text.contains("zebra"))
            #expect(answers[3].text.contains("\"word\":\"dog\""))
        }
    }

    @Test("answers from memory are logged like any other request")
    func repeatsAreLogged() async throws {
        try await withServer { s in
            let request: Request = ("GET", "/v1/categories/animals/words?level=movers", [:])
            let answers = try await RawHTTP.exchange(port: s.port, [request, request])
            #expect(answers.map(\.status) == [200, 200])
            let lines = s.logs.all.filter { $0.contains("msg=request") }
            #expect(lines.count == 2, "\(lines)")
            for line in lines {
                #expect(line.contains(" method=GET path=/v1/categories/animals/words query=\"level=movers\" status=200 duration_ms="), "\(line)")
                #expect(line.contains(" bytes=\(answers[0].body.count)"), "\(line)")
            }
        }
    }
}
