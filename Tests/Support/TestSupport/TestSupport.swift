import Foundation
import SpawnShim
@_exported import Spawning

/// A fresh directory under the system temp folder, removed by `remove()`.
public struct TemporaryDirectory: Sendable {
    public let path: String

    public init(_ label: String = "vocab-test") throws {
        path = NSTemporaryDirectory() + "\(label)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    public func file(_ name: String) -> String { path + "/" + name }

    public func write(_ name: String, _ text: String) throws {
        let target = file(name)
        try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: target))
    }

    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}

public enum Repository {
    /// The package root, found from this file's location.
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() } // Tests/Support/TestSupport/TestSupport.swift
        return url.path
    }()

    public static var categories: String { root + "/Categories" }

    /// Entries cut from the real MOE dictionary (see its README beside it).
    public static var moeSample: String { root + "/Tests/Domains/MandarinTests/Fixtures/dict-revised-sample.json" }

    /// The folder the test binary was built into; the `vocab` executable sits beside it.
    public static var productsDirectory: String {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        // XCTest bundles nest the binary in <name>.xctest on some platforms.
        if dir.pathExtension == "xctest" { dir.deleteLastPathComponent() }
        return dir.path
    }

    public static var vocabExecutable: String { productsDirectory + "/vocab" }
}

public struct ProcessResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String
}

/// Runs a program to completion with the given input and environment additions. A child
/// killed by a signal has the status a shell gives it, 128 and the signal.
public func runProcess(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:],
    input: String? = nil, currentDirectory: String? = nil
) throws -> ProcessResult {
    var env = ProcessInfo.processInfo.environment
    // espeak-ng is the synthesis tier these tests expect, unless a test asks for the neural
    // voice (its own tests name its folder, or "" to let vocab find it).
    env["VOCAB_NEURAL_VOICE"] = env["VOCAB_NEURAL_VOICE"] ?? "off"
    for (k, v) in environment { env[k] = v }
    let finished = try ChildProcess.run(
        executable, arguments: arguments, environment: env, input: input.map { Data($0.utf8) }, directory: currentDirectory)
    return ProcessResult(
        status: finished.termination.status,
        stdout: String(decoding: finished.output, as: UTF8.self),
        stderr: String(decoding: finished.error, as: UTF8.self))
}

/// A pipe for a child's standard input or output whose ends close on exec. Foundation's `Pipe`
/// does not: a child another test starts while it is open can inherit it (Process closes a list
/// of descriptors made before it forks), and a reader then waits for that child to end too, as
/// long as a server lives. Process gives the child its end under 0, 1 or 2, which stays open.
public struct ChildPipe {
    public let reading: FileHandle
    public let writing: FileHandle

    public init() throws {
        var fds: [Int32] = [0, 0]
        let error = vocab_pipe_cloexec(&fds)
        guard error == 0 else { throw POSIXError(POSIXErrorCode(rawValue: error) ?? .EIO) }
        reading = FileHandle(fileDescriptor: fds[0], closeOnDealloc: true)
        writing = FileHandle(fileDescriptor: fds[1], closeOnDealloc: true)
    }
}

/// `runProcess` for async tests: the wait happens on a thread of its own, not on one of Swift's
/// cooperative threads (as many as the cores), which other tests and in-process servers need.
public func runProcessOnThread(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:], input: String? = nil
) async throws -> ProcessResult {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try runProcess(executable, arguments, environment: environment, input: input) })
        }
    }
}

/// Reads a file (a FIFO, a socket's peer) to its end on a thread started at once: a reader
/// waiting for one of Swift's cooperative threads could leave none for the writer the test
/// starts (the two-core machine has two).
public final class ThreadReader: @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0)
    private var data = Data()

    /// `open` gives the descriptor to read (open(2) of a FIFO, accept(2) of a socket).
    public init(_ open: @escaping @Sendable () -> Int32) {
        Thread.detachNewThread { [self] in
            let fd = open()
            if fd >= 0 {
                data = readAll(fd)
                close(fd)
            }
            finished.signal()
        }
    }

    /// What was read, once the writer closed its end.
    public func text() -> String {
        finished.wait()
        return String(decoding: data, as: UTF8.self)
    }
}
