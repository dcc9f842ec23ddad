import Foundation
import TestSupport
import Testing

@Suite("vocab serve: request logs, the command, graceful shutdown")
struct ServiceTests {
    @Test("one structured log line per request: method, path, status, duration")
    func requestLogs() async throws {
        try await withServer { s in
            _ = try await s.get("/v1/categories?level=starters")
            _ = try await s.get("/v1/words/zebra")
            _ = try await s.get("/v1/words/ca%0At")
            let lines = s.logs.all.filter { $0.contains("msg=request") }
            #expect(lines.count == 3, "\(lines)")
            #expect(lines.allSatisfy { $0.hasSuffix("\n") && $0.dropLast().contains("\n") == false })
            let first = try #require(lines.first)
            #expect(first.hasPrefix("ts="))
            #expect(first.contains(" level=info "))
            #expect(first.contains(" method=GET path=/v1/categories query=\"level=starters\" status=200 duration_ms="), "\(first)")
            #expect(lines[1].contains("path=/v1/words/zebra status=404"))
            #expect(lines[2].contains("status=400"))
            #expect(s.logs.all.contains { $0.contains("msg=listening") && $0.contains("url=http://127.0.0.1:\(s.port)") })
        }
    }

    @Test("vocab serve: listens on the port given, speaks with espeak-ng, stops cleanly on SIGTERM and SIGINT")
    func processLifecycle() async throws {
        let dir = try TemporaryDirectory("vocab-serve-process")
        defer { dir.remove() }
        try ServerFixture.write(in: dir)
        let environment = ["VOCAB_AUDIO": dir.file("Audio"), "VOCAB_HOME": dir.file("home"), "VOCAB_CATEGORIES": dir.file("Categories")]

        let first = try await ServeProcess.start(environment: environment)
        let health = try await RawHTTP.get(port: first.port, "/healthz")
        #expect(try health.object()["tts"] as? Bool == true)
        let fish = try await RawHTTP.get(port: first.port, "/v1/audio/fish?accent=american")
        #expect(fish.status == 200, "\(fish.text.prefix(300))")
        #expect(fish.header("x-vocab-tier") == "tts")
        #expect(fish.header("x-vocab-cache") == "miss")
        let status = try await first.stop(signal: SIGTERM)
        #expect(status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("msg=stopped"))
        #expect(first.stderr.contains("method=GET path=/v1/audio/fish query=\"accent=american\" status=200"))
        #expect(first.stderr.contains("msg=request request_id="))

        // A new process finds the rendered clip on disk.
        let second = try await ServeProcess.start(environment: environment)
        let again = try await RawHTTP.get(port: second.port, "/v1/audio/fish?accent=american")
        #expect(again.header("x-vocab-tier") == "tts")
        #expect(again.header("x-vocab-cache") == "hit")
        #expect(again.body == fish.body)
        #expect(try await second.stop(signal: SIGINT) == 0)
    }

    @Test("vocab serve refuses bad options with a usage error")
    func badOptions() throws {
        for args in [["--port", "70000"], ["--port", "-1"], ["--log-level", "loud"]] {
            let r = try runProcess(Repository.vocabExecutable, ["serve"] + args)
            #expect(r.status == 64, "\(args): \(r.stderr)")
        }
    }
}

/// `vocab serve --port 0` as a child process; its port is read from its log.
final class ServeProcess: @unchecked Sendable {
    /// Standard error as it arrives, read on its own thread.
    final class ErrorLog: @unchecked Sendable {
        private let lock = NSLock()
        private var text = ""
        private var port = 0
        private var closed = false

        func read(_ fd: Int32) {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                lock.lock()
                text += String(decoding: buffer[0..<n], as: UTF8.self)
                // The "listening" line (logfmt or JSON), not the metrics listener's.
                if port == 0, let range = text.range(of: "url=http://127.0.0.1:") ?? text.range(of: #""url":"http://127.0.0.1:"#),
                    let p = Int(text[range.upperBound...].prefix { $0.isNumber })
                {
                    port = p
                }
                lock.unlock()
            }
            lock.lock()
            closed = true
            lock.unlock()
        }

        var all: String {
            lock.lock()
            defer { lock.unlock() }
            return text
        }
        var foundPort: Int {
            lock.lock()
            defer { lock.unlock() }
            return port
        }
        var isClosed: Bool {
            lock.lock()
            defer { lock.unlock() }
            return closed
        }
    }

    let process: ChildProcess
    private(set) var port = 0
    private let log: ErrorLog

    var stderr: String { log.all }

    private init(process: ChildProcess, log: ErrorLog) {
        self.process = process
        self.log = log
    }

    /// Starts the process and waits (at most 60 s) for it to report its port.
    static func start(environment: [String: String], arguments: [String] = []) async throws -> ServeProcess {
        // espeak-ng is the synthesis tier these servers are checked with, unless a test asks for the neural voice.
        let env = ProcessInfo.processInfo.environment.merging(["VOCAB_NEURAL_VOICE": "off"].merging(environment) { _, new in new }) { _, new in
            new
        }
        let pipe = try ChildPipe()
        let process = try ChildProcess.start(
            Repository.vocabExecutable, arguments: ["serve", "--port", "0", "--host", "127.0.0.1"] + arguments, environment: env,
            error: pipe.writing.fileDescriptor)
        try pipe.writing.close()
        let log = ErrorLog()
        let p = ServeProcess(process: process, log: log)
        // The thread holds the reading end, which closes when it is released.
        let reading = pipe.reading
        Thread.detachNewThread { log.read(reading.fileDescriptor) }
        let deadline = Date().addingTimeInterval(60)
        while log.foundPort == 0 && p.process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        p.port = log.foundPort
        guard p.port > 0 else {
            p.process.signal(SIGTERM)
            throw ClientError("vocab serve did not report a port: \(log.all)")
        }
        return p
    }

    /// Sends the signal and waits (at most 30 s) for the exit status.
    func stop(signal: Int32) async throws -> Int32 {
        process.signal(signal)
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        guard let ended = process.ended else {
            process.signal(SIGKILL)
            throw ClientError("vocab serve did not stop within 30 s of signal \(signal)")
        }
        for _ in 0..<250 where !log.isClosed { try await Task.sleep(for: .milliseconds(20)) }
        return ended.status
    }
}
