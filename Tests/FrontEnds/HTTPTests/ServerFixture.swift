import App
import AppCore
import Audio
import AudioFile
import Cache
import Catalog
import Foundation
import HTTPAPI
import HTTPFetch
import Mandarin
import Speech
import TestSupport

/// A small catalog, clip collection and (optionally) MOE dictionary written by the test, and
/// a `VocabServer` on an ephemeral loopback port over them.
///
/// animals: cat (all levels; a recorded British clip), dog (all levels; a legacy British clip),
/// elephant (movers, flyers), fish; food: apple, cake (flyers), "ice cream".
enum ServerFixture {
    /// Writes Categories/ and Audio/ into `dir`.
    static func write(in dir: TemporaryDirectory) throws {
        try dir.write("Categories/animals.json", animals())
        try dir.write(
            "Categories/food.json",
            CatalogFixture.category(
                "food", name: "Food and drink", order: 2,
                words: [
                    CatalogFixture.word("apple", category: "food", vi: "quả táo"),
                    CatalogFixture.word("cake", levels: ["flyers"], category: "food", vi: "bánh ngọt"),
                    CatalogFixture.word("ice cream", category: "food", vi: "kem"),
                ]))
        try dir.write(
            "Pictures/openmoji/1F408.svg", #"<svg viewBox="0 0 72 72" xmlns="http://www.w3.org/2000/svg"><circle cx="36" cy="36" r="30"/></svg>"#)
        try AudioFile.write(tone(440), to: dir.file("Audio/recorded/cat.wav"), format: .wav)
        try AudioFile.write(tone(330), to: dir.file("Audio/legacy/british/dog.wav"), format: .wav)
        // The letter names look-and-spell says (the repository's Audio/letters), for the words here.
        for letter in Set("catdogfishelephantapplecakeicecreamcowduckgoatsheephorse") {
            try AudioFile.write(tone(500), to: dir.file("Audio/letters/\(letter).ogg"), format: .ogg)
        }
    }

    /// The animals file, with `more` entries after the four.
    static func animals(_ more: [String] = []) -> String {
        CatalogFixture.category(
            "animals", name: "Animals", order: 1,
            words: [
                CatalogFixture.word(
                    "cat", vi: "con mèo", extra: #", "picture": "🐈", "image": "openmoji/1F408.svg", "audio": {"british": {"recorded": "recorded/cat.wav"}}"#),
                CatalogFixture.word("dog", vi: "con chó"),
                CatalogFixture.word("elephant", levels: ["movers", "flyers"], vi: "con voi"),
                CatalogFixture.word("fish", vi: "con cá"),
            ] + more)
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
    func append(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
    }
    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }
}

/// A server running in this process on 127.0.0.1 and a free port, over its own fixture,
/// built by the composition root as `vocab serve` builds it.
final class TestServer: Sendable {
    let dir: TemporaryDirectory
    let port: Int
    let server: VocabServer
    let logs: LogLines
    private let task: Task<Void, Never>

    var home: String { dir.file("home") }
    var clips: String { home + "/clips" }

    private init(dir: TemporaryDirectory, port: Int, server: VocabServer, logs: LogLines, task: Task<Void, Never>) {
        self.dir = dir
        self.port = port
        self.server = server
        self.logs = logs
        self.task = task
    }

    /// Starts a server; `moe` imports the MOE sample dictionary into its home first.
    /// `neural`: with the neural voice the project installs (else English is spoken by espeak-ng).
    /// `database`: a PostgreSQL database gets the fixture's catalog pushed first, as `vocab db push` does.
    static func start(
        moe: Bool = false, neural: Bool = false, listener: Bool = false, keepRecordings: Bool = false,
        settings: ServerSettings = ServerSettings(port: 0),
        database: DatabaseChoice = .embedded, clock: TestClock? = nil,
        prepare: (TemporaryDirectory) throws -> Void = { _ in }
    ) async throws -> TestServer {
        let dir = try TemporaryDirectory("vocab-serve")
        try ServerFixture.write(in: dir)
        try prepare(dir)
        try FileManager.default.createDirectory(atPath: dir.file("home"), withIntermediateDirectories: true)
        if moe { _ = try MOEImporter(databasePath: dir.file("home") + "/moe.sqlite").importFile(at: ServerFixture.moeSample) }
        let logs = LogLines()
        if case .postgres(let url, _) = database {
            let shared = try ServerDatabase(url: url, maximumConnections: 2)
            let (catalog, _) = try await VocabApp(environment: environment(dir), database: .embedded, use: .command).catalogFiles()
            _ = try await shared.whileRunning(reachableWithin: .seconds(60)) { _ in try await shared.push(catalogFrom: catalog) }
        }
        var environment = environment(dir, neural: neural, listener: listener, clock: clock)
        if keepRecordings { environment.keptRecordings = dir.file("recordings") }
        let server = try await VocabServer.make(
            environment: environment, settings: settings, database: database,
            logSink: { logs.append($0) })
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let task = Task {
            do {
                try await server.run(handleSignals: false) { continuation.yield($0) }
            } catch {
                logs.append("server failed: \(error)")
            }
            continuation.finish()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            throw ClientError("the server did not start: \(logs.all.joined())")
        }
        return TestServer(dir: dir, port: port, server: server, logs: logs, task: task)
    }

    /// The environment the server is built from, over the fixture in `dir`.
    /// `listener`: with the listener the project installs (else attempts are refused, 503).
    static func environment(_ dir: TemporaryDirectory, neural: Bool = false, listener: Bool = false, clock: TestClock? = nil) -> VocabEnvironment {
        // The speech engine is one per process and keeps the data folder of whoever starts it
        // first: start it on a folder that outlives every test's temporary home.
        _ = try? EspeakSynthesizer(dataDirectory: NSTemporaryDirectory() + "vocab-audio-tests-speech")
        return VocabEnvironment(
            categoriesDirectory: dir.file("Categories"), audioDirectory: dir.file("Audio"),
            home: HomeLayout(root: dir.file("home")),
            neuralVoice: neural ? .directory(Repository.root + "/neural-voice") : .off,
            listener: listener ? .directory(Repository.root + "/listener") : .off,
            clock: clock.map { WallClock($0.read) } ?? .system)
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
func withServer(
    moe: Bool = false, neural: Bool = false, listener: Bool = false, clock: TestClock? = nil, _ body: (TestServer) async throws -> Void
) async throws {
    let server = try await TestServer.start(moe: moe, neural: neural, listener: listener, clock: clock)
    do {
        try await body(server)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}
