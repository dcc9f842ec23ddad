import Catalog
import Definitions
import Foundation
import HTTPFetch
import Quiz
import Store
import TestSupport

/// Time that moves only when a test moves it.
final class TestClock: QuizClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date = Date(timeIntervalSince1970: 1_750_000_000)) { current = start }

    func now() -> Date { lock.withLock { current } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }

    /// For services that take a `now` closure.
    var closure: @Sendable () -> Date { { [self] in now() } }
}

/// Answers typed by a pretend learner who takes `think` seconds over each one.
final class ScriptedAnswers: AnswerSource {
    private var lines: [(text: String, think: TimeInterval)]
    private let clock: TestClock

    init(_ lines: [(String, TimeInterval)], clock: TestClock) {
        self.lines = lines.map { (text: $0.0, think: $0.1) }
        self.clock = clock
    }

    func nextLine(timeout: TimeInterval?) -> AnswerEvent {
        guard !lines.isEmpty else { return .endOfInput }
        let next = lines.removeFirst()
        if let timeout, next.think >= timeout {
            clock.advance(timeout)
            return .timedOut
        }
        clock.advance(next.think)
        return .line(next.text)
    }
}

/// A loopback server whose answers a test can change while it runs.
final class SwitchableServer: @unchecked Sendable {
    typealias Handler = @Sendable (String) -> LoopbackHTTPServer.Response
    private let lock = NSLock()
    private var handler: Handler
    private(set) var server: LoopbackHTTPServer!

    init(_ handler: @escaping Handler) throws {
        self.handler = handler
        server = try LoopbackHTTPServer { [weak self] path in
            // A request still in flight when the test ends finds no one to answer it.
            guard let self else { return .text("gone", status: 503) }
            return self.lock.withLock { self.handler }(path)
        }
    }

    func answer(with handler: @escaping Handler) { lock.withLock { self.handler = handler } }
    var baseURL: String { server.baseURL }
    func requests(to path: String) -> Int { server.requests(to: path) }
    func stop() { server.stop() }
}

/// A temp folder with the fixture catalog indexed and an empty user store.
struct Sandbox {
    let dir: TemporaryDirectory
    let catalog: CatalogService
    let userStore: SQLiteDocumentStore

    init() async throws {
        dir = try TemporaryDirectory("learning")
        try LearningFixtures.writeCatalog(in: dir)
        catalog = try await Self.openCatalog(dir, force: false)
        userStore = try SQLiteDocumentStore(path: dir.file("user.sqlite"))
    }

    static func openCatalog(_ dir: TemporaryDirectory, force: Bool) async throws -> CatalogService {
        let indexer = CatalogIndexer(source: CatalogSource(directory: dir.file("Categories")), databasePath: dir.file("catalog.sqlite"))
        return CatalogService(store: try await indexer.open(force: force).store)
    }

    /// Short limits and a quick retry, so failure tests finish fast.
    static let quickOptions = HTTPRequestOptions(timeout: 0.5, connectTimeout: 0.5, maxBytes: 1 << 20)
    static let quickRetry = RetryPolicy(retries: 1, delay: .milliseconds(10))

    /// Room for a retry within the whole wait, for tests of answers that come quickly but wrong.
    /// Generous: the wait includes being scheduled again after each attempt, and while the
    /// command-line suites run, the whole suite's async tests can wait tens of seconds for that.
    static let roomyOptions = HTTPRequestOptions(timeout: 120, connectTimeout: 5, maxBytes: 1 << 20)

    func definitions(
        _ baseURL: String, clock: TestClock = TestClock(), policy: DefinitionService.Policy = .init(),
        options: HTTPRequestOptions = quickOptions
    ) -> DefinitionService {
        let client = DictionaryAPIClient(http: CurlHTTPClient(), baseURL: baseURL, options: options, retry: Self.quickRetry)
        return DefinitionService(client: client, store: userStore, policy: policy, now: clock.closure)
    }
}
