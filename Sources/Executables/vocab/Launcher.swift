import CLICore
import Catalog
import FileAccess

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `vocab` is judged as a whole process, and its most frequent calls (`vocab words ...`,
/// `vocab categories`, the Mandarin `lookup`, `strokes`, `radical` and reading searches, `vocab
/// say` of a clip said before) are a few milliseconds of work. This small, statically linked program
/// answers those itself; for everything else it becomes `vocab-full` (exec, same process id, same arguments), the
/// program with every command, argument-parser, audio and the HTTP server.
struct Launcher {
    static let fullProgram = "vocab-full"
    let arguments: [String]

    func run() -> Never {
        guard var invocation = FastPath.parse(arguments) else { becomeFullProgram() }
        if case .say = invocation.command { invocation.fullProgram = Self.locateFullProgram().flatMap(Self.resolved) }
        // Not an async main: its main thread ends in pthread_exit, whose unwinding costs
        // ~20 ms in a static binary. Nor the cooperative pool: its threads cost more than the
        // few milliseconds of work. The task and every actor it calls run here, on the main
        // thread (a task executor preference covers default actors too), and the process then
        // exits directly.
        let executor = CallingThreadExecutor()
        let outcome = Outcome()
        Task(executorPreference: executor) {
            do { try await invocation.run() } catch { outcome.failed() }
            executor.finish()
        }
        executor.run()
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

    /// The path without links or "..", as the full program sees itself (/proc/self/exe).
    static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
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

/// Runs the jobs given to it on the thread that calls run(), until finish(). A job may be given
/// from another thread (work the runtime keeps off this executor ends by resuming here), so the
/// queue is locked and an empty queue is waited on.
private final class CallingThreadExecutor: TaskExecutor, @unchecked Sendable {
    private var jobs: [UnownedJob] = []
    private var finished = false
    // Allocated: a lock must not move, and a stored property's address is not promised to stay.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        pthread_mutex_lock(mutex)
        jobs.append(job)
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    func finish() {
        pthread_mutex_lock(mutex)
        finished = true
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    func run() {
        while true {
            pthread_mutex_lock(mutex)
            while jobs.isEmpty && !finished { pthread_cond_wait(condition, mutex) }
            if jobs.isEmpty {
                pthread_mutex_unlock(mutex)
                return
            }
            let job = jobs.removeFirst()
            pthread_mutex_unlock(mutex)
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Whether the fast path threw, set by the task and read once it has finished.
private final class Outcome: @unchecked Sendable {
    private(set) var didFail = false
    func failed() { didFail = true }
}
