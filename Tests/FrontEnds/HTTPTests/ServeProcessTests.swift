import Foundation
import TestSupport
import Testing

@Suite("vocab serve as a process: held connections, unreadable clips, stale catalogs", .serialized)
struct ServeProcessTests {
    func fixture() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory("serve-process")
        try ServerFixture.write(in: dir)
        try FileManager.default.createDirectory(atPath: dir.file("home"), withIntermediateDirectories: true)
        return dir
    }

    func environment(_ dir: TemporaryDirectory) -> [String: String] {
        ["VOCAB_HOME": dir.file("home"), "VOCAB_CATEGORIES": dir.file("Categories"), "VOCAB_AUDIO": dir.file("Audio")]
    }

    @Test("200 idle connections against --max-connections 64: /healthz still answers, SIGTERM still stops it")
    func manyIdleConnections() async throws {
        let dir = try fixture()
        defer { dir.remove() }
        let server = try await ServeProcess.start(environment: environment(dir), arguments: ["--max-connections", "64"])
        let held = try await onThread { try (0..<200).map { _ in try ClientSocket(port: server.port) } }
        // A refusal (503) or an answer (200) — what it must never do is keep the client waiting.
        let health = try await RawHTTP.get(port: server.port, "/healthz")
        #expect([200, 503].contains(health.status), "\(health.status) \(health.text)")
        if health.status == 503 { #expect(health.header("retry-after") != nil) }
        let refused = try await onThread { () -> Int in
            var closed = 0
            for _ in 0..<100 {
                closed = held.filter { $0.isClosedByServer(waiting: 0) }.count
                if closed >= 200 - 64 { break }
                usleep(50_000)
            }
            return closed
        }
        #expect(refused >= 200 - 64, "connections over the limit are closed at once, not left waiting (\(refused) closed)")
        #expect(try await server.stop(signal: SIGTERM) == 0, "SIGTERM stops the server with connections still held")
        for client in held { client.close() }
    }

    @Test("a FIFO where a legacy clip should be: the requests are answered, the server stays responsive and stops")
    func fifoClip() async throws {
        let dir = try fixture()
        defer { dir.remove() }
        try dir.write(
            "Categories/animals.json",
            CatalogFixture.category(
                "animals", name: "Animals", order: 1,
                words: [
                    CatalogFixture.word("cat", vi: "con mèo"), CatalogFixture.word("sheep", vi: "con cừu"),
                ]))
        try FileManager.default.createDirectory(atPath: dir.file("Audio/legacy/british"), withIntermediateDirectories: true)
        #expect(mkfifo(dir.file("Audio/legacy/british/sheep.wav"), 0o644) == 0)
        let server = try await ServeProcess.start(environment: environment(dir))

        let answers = try await withThrowingTaskGroup(of: RawResponse.self) { group in
            for _ in 0..<3 { group.addTask { try await RawHTTP.get(port: server.port, "/v1/audio/sheep") } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.count == 3)
        for answer in answers {
            // The FIFO is skipped for not being a regular file, and speech answers instead.
            #expect(answer.status == 200, "\(answer.status) \(answer.text.prefix(200))")
            #expect(answer.header("x-vocab-tier") == "tts")
        }
        let health = try await RawHTTP.get(port: server.port, "/healthz")
        #expect(health.status == 200)
        let words = try await RawHTTP.get(port: server.port, "/v1/words/sheep")
        #expect(words.status == 200)
        #expect(try await server.stop(signal: SIGTERM) == 0, "SIGTERM stops it: \(server.stderr.suffix(500))")
    }

    @Test("started on invalid category files, it serves the last good catalog and logs why")
    func staleCatalog() async throws {
        let dir = try fixture()
        defer { dir.remove() }
        let index = try runProcess(
            Repository.vocabExecutable, ["index"],
            environment: ["VOCAB_HOME": dir.file("home"), "VOCAB_CATEGORIES": dir.file("Categories")])
        #expect(index.status == 0, "\(index.stderr)")
        try dir.write("Categories/food.json", #"{"id": "food", "words": ["#)
        let server = try await ServeProcess.start(environment: environment(dir))
        #expect(server.stderr.contains("last good catalog") && server.stderr.contains("food.json"), "\(server.stderr)")
        let cake = try await RawHTTP.get(port: server.port, "/v1/words/cake")
        #expect(cake.status == 200, "the food category of the last good catalog is served")
        #expect(try await RawHTTP.get(port: server.port, "/healthz").status == 200)
        #expect(try await server.stop(signal: SIGTERM) == 0)
    }
}
