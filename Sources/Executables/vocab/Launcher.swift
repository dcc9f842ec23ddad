import CLICore
import Catalog
import Dispatch
import FileAccess

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `vocab` is judged as a whole process, and its most frequent calls (`vocab words ...`,
/// `vocab categories`, the Mandarin `lookup`, `strokes`, `radical` and reading searches) are a
/// few milliseconds of work. This small, statically linked program
/// answers those itself; for everything else it becomes `vocab-full` (exec, same process id, same arguments), the
/// program with every command, argument-parser, audio and the HTTP server.
struct Launcher {
    static let fullProgram = "vocab-full"
    let arguments: [String]

    func run() -> Never {
        guard let invocation = FastPath.parse(arguments) else { becomeFullProgram() }
        // Not an async main: its main thread ends in pthread_exit, whose unwinding costs
        // ~20 ms in a static binary. The work runs on the cooperative pool while the main
        // thread waits, and the process then exits directly.
        let finished = DispatchSemaphore(value: 0)
        let outcome = Outcome()
        Task.detached {
            do { try await invocation.run() } catch { outcome.failed() }
            finished.signal()
        }
        finished.wait()
        // Errors are rare, and their wording and exit codes belong to the full program: it
        // runs the command again and reports it (the catalog work is idempotent, the
        // dictionary is only read).
        if outcome.didFail { becomeFullProgram() }
        exit(0)
    }

    func becomeFullProgram() -> Never {
        guard let path = Self.locateFullProgram() else {
            Output.error("vocab: cannot find '\(Self.fullProgram)' beside this program or in ../libexec/vocab; reinstall vocab (make install).")
            exit(70)
        }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        Output.error("vocab: cannot run \(path): \(String(cString: strerror(errno)))")
        exit(70)
    }

    /// Beside the launcher (the build folder), else in the libexec folder `make install` uses.
    static func locateFullProgram() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard n > 0 else { return nil }
        let exe = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let dir = DurableFile.directory(of: exe)
        for candidate in [dir + "/" + fullProgram, dir + "/../libexec/vocab/" + fullProgram] where access(candidate, X_OK) == 0 {
            return candidate
        }
        return nil
    }
}

/// Whether the fast path threw, set on the worker thread and read after the semaphore.
private final class Outcome: @unchecked Sendable {
    private(set) var didFail = false
    func failed() { didFail = true }
}
