import AppCore
import Foundation
import TestSupport
import Testing

/// The command line and HTTP take their limits and aliases from the same rules (AppCore): a
/// value one accepts, the other accepts, and one it refuses, the other refuses.
@Suite("The CLI and HTTP accept exactly the same limits and aliases")
struct FrontEndsAgreeTests {
    struct CLI {
        let dir: TemporaryDirectory
        func run(_ args: [String]) throws -> Int32 {
            try runProcess(
                Repository.vocabExecutable, args,
                environment: [
                    "VOCAB_HOME": dir.file("cli-home"), "VOCAB_CATEGORIES": dir.file("Categories"), "VOCAB_AUDIO": dir.file("Audio"),
                ]
            ).status
        }
    }

    /// 0 and 200 mean accepted; 64 and 400 refused as bad input.
    func agree(_ label: String, cli: Int32, http: Int) -> Bool {
        let cliAccepts = cli == 0
        let httpAccepts = http == 200
        let agreed = cliAccepts == httpAccepts && (cliAccepts || (cli == 64 && http == 400))
        if !agreed { Issue.record("\(label): CLI exit \(cli), HTTP \(http)") }
        return agreed
    }

    @Test("page limits, offsets, search limits, character limits and levels")
    func limitsAndLevels() async throws {
        let server = try await TestServer.start(moe: true)
        defer { Task { await server.stop() } }
        let cli = CLI(dir: server.dir)
        #expect(try cli.run(["import", "moe", Repository.moeSample]) == 0)
        var checked = 0
        for limit in [-1, 0, 1, Limits.page.upperBound, Limits.page.upperBound + 1] {
            let http = try await server.get("/v1/categories/animals/words?limit=\(limit)").status
            if agree("words --limit \(limit)", cli: try cli.run(["words", "animals", "--limit", "\(limit)"]), http: http) { checked += 1 }
        }
        for offset in [-1, 0, Limits.offset.upperBound, Limits.offset.upperBound + 1] {
            let http = try await server.get("/v1/categories/animals/words?offset=\(offset)").status
            if agree("words --offset \(offset)", cli: try cli.run(["words", "animals", "--offset", "\(offset)"]), http: http) { checked += 1 }
        }
        for limit in [0, 1, Limits.search.upperBound, Limits.search.upperBound + 1] {
            let http = try await server.get("/v1/search?q=ca&limit=\(limit)").status
            if agree("search --limit \(limit)", cli: try cli.run(["search", "ca", "--limit", "\(limit)"]), http: http) { checked += 1 }
        }
        for limit in [0, 1, Limits.characters.upperBound, Limits.characters.upperBound + 1] {
            let http = try await server.get("/v1/moe/strokes/6?limit=\(limit)").status
            if agree("strokes --limit \(limit)", cli: try cli.run(["strokes", "6", "--limit", "\(limit)"]), http: http) { checked += 1 }
        }
        for level in ["starters", "STARTERS", "Movers", "flyer", "beginner"] {
            let http = try await server.get("/v1/categories?level=\(level)").status
            if agree("--level \(level)", cli: try cli.run(["categories", "--level", level]), http: http) { checked += 1 }
        }
        #expect(checked == 22)
    }

    @Test("the word of the day: the CLI's --json is the HTTP body")
    func wordOfTheDay() async throws {
        let server = try await TestServer.start(moe: true)
        defer { Task { await server.stop() } }
        let env = ["VOCAB_HOME": server.dir.file("cli-home")]
        #expect(try runProcess(Repository.vocabExecutable, ["import", "moe", Repository.moeSample], environment: env).status == 0)
        for date in ["2026-03-01", "2031-12-31"] {
            let cli = try runProcess(Repository.vocabExecutable, ["random", "--source", "moe", "--date", date, "--json"], environment: env)
            let http = try await server.get("/v1/moe/today?date=\(date)")
            #expect(cli.status == 0 && http.status == 200)
            let fromCLI = try JSONSerialization.jsonObject(with: Data(cli.stdout.utf8)) as? NSDictionary
            let fromHTTP = try JSONSerialization.jsonObject(with: Data(http.body)) as? NSDictionary
            #expect(fromCLI != nil && fromCLI == fromHTTP, "\(date)")
        }
    }

    @Test("accent names and aliases")
    func accents() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let cli = CLI(dir: server.dir)
        var checked = 0
        for accent in ["british", "uk", "GB", "en-gb", "american", "US", "en-us", "australian", "en"] {
            let http = try await server.get("/v1/audio/cat?accent=\(accent)").status
            let status = try cli.run(["say", "cat", "--accent", accent, "-o", server.dir.file("say-\(accent).wav")])
            if agree("accent \(accent)", cli: status, http: http) { checked += 1 }
        }
        #expect(checked == 9)
    }
}
