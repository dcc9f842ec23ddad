import AudioFile
import Audio
import Cache
import Catalog
import Foundation
import HTTPFetch
import Mandarin
import TestSupport
import HTTPAPI

/// A small catalog, clip collection and (optionally) MOE dictionary written by the test, and
/// a `VocabServer` on an ephemeral loopback port over them.
///
/// animals: cat (all levels; a recorded British clip), dog (all levels; a legacy British clip),
/// elephant (movers, flyers), fish; food: apple, cake (flyers), "ice cream".
enum ServerFixture {
    static func word(_ word: String, levels: [String] = ["starters", "movers", "flyers"], category: String = "animals",
                     vi: String, audio: String = "") -> String {
        let examples = levels.map { "\"\($0)\": \"I can see a \(word).\"" }.joined(separator: ", ")
        return """
        {"word": "\(word)", "levels": [\(levels.map { "\"\($0)\"" }.joined(separator: ", "))], "categories": ["\(category)"],
         "pos": ["noun"], "ipa": {"british": "\(word)", "american": "\(word)"}, "vi": "\(vi)",
         "definition": {"en": "a \(word)", "vi": "\(vi)"}, "examples": {\(examples)}\(audio)}
        """
    }

    static func category(_ id: String, _ en: String, order: Int, words: [String]) -> String {
        """
        {"id": "\(id)", "name": {"en": "\(en)", "vi": "\(id)"}, "icon": "🐾", "color": "#112233", "order": \(order),
         "words": [\(words.joined(separator: ",\n"))]}
        """
    }

    /// Writes Categories/ and Audio/ into `dir`.
    static func write(in dir: TemporaryDirectory) throws {
        try dir.write("Categories/animals.json", category("animals", "Animals", order: 1, words: [
            word("cat", vi: "con mèo", audio: #", "audio": {"british": {"recorded": "recorded/cat.wav"}}"#),
            word("dog", vi: "con chó"),
            word("elephant", levels: ["movers", "flyers"], vi: "con voi"),
            word("fish", vi: "con cá"),
        ]))
        try dir.write("Categories/food.json", category("food", "Food and drink", order: 2, words: [
            word("apple", category: "food", vi: "quả táo"),
            word("cake", levels: ["flyers"], category: "food", vi: "bánh ngọt"),
            word("ice cream", category: "food", vi: "kem"),
        ]))
        try AudioFile.write(tone(440), to: dir.file("Audio/recorded/cat.wav"), format: .wav)
        try AudioFile.write(tone(330), to: dir.file("Audio/legacy/british/dog.wav"), format: .wav)
    }

    /// A short, clearly audible tone: passes the clip plausibility checks.
    static func tone(_ hz: Double) -> PCM {
        let rate = 16_000
        let samples = (0..<rate * 3 / 10).map { Float(0.5 * sin(2 * Double.pi * hz * Double($0) / Double(rate))) }
        return PCM(samples: samples, sampleRate: rate)
    }

    static var moeSample: String { Repository.root + "/Tests/Domains/MandarinTests/Fixtures/dict-revised-sample.json" }
}

/// Collects log lines in memory.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
}

/// A server running in this process on 127.0.0.1 and a free port, over its own fixture.
final class TestServer: Sendable {
    let dir: TemporaryDirectory
    let port: Int
    let server: VocabServer
    let logs: LogLines
    private let task: Task<Void, Never>

    var home: String { dir.file("home") }
    var audioCache: String { home + "/server-audio" }

    private init(dir: TemporaryDirectory, port: Int, server: VocabServer, logs: LogLines, task: Task<Void, Never>) {
        self.dir = dir
        self.port = port
        self.server = server
        self.logs = logs
        self.task = task
    }

    /// Starts a server; `moe` imports the MOE sample dictionary into its home first.
    static func start(moe: Bool = false) async throws -> TestServer {
        let dir = try TemporaryDirectory("vocab-serve")
        try ServerFixture.write(in: dir)
        let home = dir.file("home")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        if moe { _ = try MOEImporter(databasePath: home + "/moe.sqlite").importFile(at: ServerFixture.moeSample) }
        let server = try await makeServer(dir: dir)
        let logs = LogLines()
        let logged = VocabServer(catalog: server.catalog, pronouncer: server.pronouncer, settings: server.settings,
                                 logSink: { logs.append($0) })
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let task = Task {
            do {
                try await logged.run(handleSignals: false) { continuation.yield($0) }
            } catch {
                logs.append("server failed: \(error)")
            }
            continuation.finish()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            throw ClientError("the server did not start: \(logs.all.joined())")
        }
        return TestServer(dir: dir, port: port, server: logged, logs: logs, task: task)
    }

    /// The catalog service and settings the server is built from (also used to list routes).
    static func makeServer(dir: TemporaryDirectory) async throws -> (catalog: CatalogService, pronouncer: Pronouncer, settings: ServerSettings) {
        let home = dir.file("home")
        let indexer = CatalogIndexer(source: CatalogSource(directory: dir.file("Categories")), databasePath: home + "/catalog.sqlite")
        let (store, _) = try await indexer.open()
        let catalog = CatalogService(store: store, cache: QueryCache(storage: MemoryCacheStorage()))
        // Recorded and legacy tiers only: espeak-ng is process-wide state, and other suites in
        // this test process use it. The subprocess tests cover the synthesis tier.
        let pronouncer = Pronouncer(sources: [
            RecordedClipSource(audioRoot: dir.file("Audio"), cacheDirectory: home + "/audio-cache", http: CurlHTTPClient()),
            LegacyClipSource(audioRoot: dir.file("Audio")),
        ])
        return (catalog, pronouncer, ServerSettings(home: home, port: 0))
    }

    func get(_ target: String, headers: [String: String] = [:]) async throws -> RawResponse {
        try await RawHTTP.get(port: port, target, headers: headers)
    }

    func request(_ method: String, _ target: String, headers: [String: String] = [:]) async throws -> RawResponse {
        try await RawHTTP.get(port: port, target, method: method, headers: headers)
    }

    func stop() async {
        task.cancel()
        await task.value
        dir.remove()
    }
}

/// Runs `body` against a fresh server and always stops it.
func withServer(moe: Bool = false, _ body: (TestServer) async throws -> Void) async throws {
    let server = try await TestServer.start(moe: moe)
    do {
        try await body(server)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}
