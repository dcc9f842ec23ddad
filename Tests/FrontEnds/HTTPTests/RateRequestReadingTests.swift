import Foundation
import Testing

@testable import HTTPAPI

/// POST /v1/me/reviews reads its body's common shape without JSONDecoder; for every body it
/// either agrees with JSONDecoder or leaves the body to it.
@Suite("Rating bodies: the plain reader agrees with JSONDecoder or steps aside")
struct RateRequestReadingTests {
    typealias RateRequest = LearnerRoutes.RateRequest

    static func plain(_ body: String) -> RateRequest? {
        Array(body.utf8).withUnsafeBufferPointer { RateRequest.plain($0) }
    }

    static func decoded(_ body: [UInt8]) -> RateRequest? {
        try? JSONDecoder().decode(RateRequest.self, from: Data(body))
    }

    @Test(
        "the shapes clients send are read by the plain reader, as JSONDecoder reads them",
        arguments: [
            #"{"item":12,"rating":3}"#,
            #"{"rating":1,"item":9007199254740993}"#,
            #" { "item" : 7 , "rating" : "good" } "#,
            "{\"item\":\n7,\r\n\t\"rating\":4}",
            #"{"item":-3,"rating":0}"#,
            #"{"item":5,"rating":"Easy","version":0,"clientId":"phone-1:42"}"#,
            #"{"item":5,"rating":2,"clientId":"日本語 ok","version":-1}"#,
            #"{"item":5,"rating":"","clientId":""}"#,
        ])
    func plainShapes(body: String) throws {
        let plain = try #require(Self.plain(body), "the plain reader stepped aside")
        #expect(plain == Self.decoded(Array(body.utf8)))
    }

    @Test(
        "anything else is left to JSONDecoder (which accepts some and refuses others)",
        arguments: [
            #"{"item":12,"rating":3,"note":"x"}"#, // a member it does not know
            #"{"item":12,"item":13,"rating":3}"#, // a member twice
            #"{"item":12.0,"rating":3}"#, // a whole number written as a fraction
            #"{"item":1e1,"rating":3}"#,
            #"{"item":012,"rating":3}"#, // not JSON
            #"{"item":99999999999999999999,"rating":3}"#,
            #"{"item":12,"rating":2.5}"#,
            #"{"item":12,"rating":"g\u006fod"}"#, // an escape
            #"{"item":12,"rating":3,"clientId":"a\"b"}"#,
            #"{"item":12,"rating":3,"version":null}"#,
            #"{"item":12,"rating":3,"clientId":null}"#,
            #"{"item":"12","rating":3}"#,
            #"{"item":12}"#,
            #"{"rating":3}"#,
            #"{}"#,
            #"[{"item":12,"rating":3}]"#,
            #"{"item":12,"rating":3} x"#,
            #"{"item":12,"rating":3"#,
            #"{"item":12,"rating":true}"#,
            "",
        ])
    func stepsAside(body: String) {
        #expect(Self.plain(body) == nil)
    }

    @Test("a string that is not valid UTF-8 is left to JSONDecoder")
    func invalidUTF8() {
        let body = Array(#"{"item":1,"rating":3,"clientId":"a"#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8)
        #expect(body.withUnsafeBufferPointer { RateRequest.plain($0) } == nil)
    }

    @Test("random bodies built from the members' pieces: never a different answer from JSONDecoder")
    func randomBodies() {
        let pieces = [
            #""item""#, #""rating""#, #""version""#, #""clientId""#, #""x""#, ":", ",", "{", "}", "[", "]", " ",
            "0", "7", "-1", "12", "1.5", "1e2", "007", "null", "true", #""good""#, #""a\nb""#, #""é""#, #"""#,
        ]
        var rng = SystemRandomNumberGenerator()
        var plainCount = 0
        for _ in 0..<20_000 {
            var body = #"{"item":"# + ["1", "12", "-4"].randomElement(using: &rng)! + #","rating":"# + ["3", #""hard""#].randomElement(using: &rng)!
            for _ in 0..<Int.random(in: 0...6, using: &rng) { body += pieces.randomElement(using: &rng)! }
            if Bool.random(using: &rng) { body += "}" }
            guard let plain = Self.plain(body) else { continue }
            plainCount += 1
            #expect(plain == Self.decoded(Array(body.utf8)), "\(body)")
        }
        #expect(plainCount > 1_000, "the random bodies must exercise the plain reader")
    }
}
