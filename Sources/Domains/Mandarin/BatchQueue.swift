#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What the parsing thread hands over: rows, then its counts or its error.
enum LoadMessage: Sendable {
    case batch(RowBatch)
    case finished(entries: Int64, heteronyms: Int64, definitions: Int64)
    case failed(any Error)
}

/// The inserting side stopped; the parser unwinds with this and its error is not reported.
struct LoadCancelled: Error {}

/// A bounded hand-over between the parsing thread and the inserting one, plus a pool of used
/// batches going back, so their buffers are allocated once.
///
/// The bound keeps the parser, which is several times faster than SQLite, from reading far
/// ahead: the rows waiting here, and the input pages they point into, are what the import holds
/// in memory beyond SQLite's own cache.
///
/// `@unchecked Sendable`: every stored property is read and written with `mutex` held.
final class BatchQueue: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let capacity: Int
    private var pending: [LoadMessage] = []
    private var spares: [RowBatch] = []
    private var cancelled = false
    /// Who is blocked on `changed`; at most one side at a time, since each waits for the other.
    private var parserWaits = false
    private var inserterWaits = false

    init(capacity: Int) {
        self.capacity = capacity
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
        pending.reserveCapacity(capacity + 1)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        changed.deallocate()
    }

    /// Parser side: waits while the queue is full; throws once the inserter has given up.
    ///
    /// A full queue is only taken up again once it is half empty: the parser is the faster side,
    /// and waking it for every batch taken would cost two context switches per batch.
    func send(_ batch: RowBatch) throws {
        try locked {
            if pending.count >= capacity {
                parserWaits = true
                while pending.count > capacity / 2 && !cancelled { pthread_cond_wait(changed, mutex) }
                parserWaits = false
            }
            if cancelled { throw LoadCancelled() }
            pending.append(.batch(batch))
            if inserterWaits { pthread_cond_signal(changed) }
        }
    }

    /// Parser side: the last message, which never waits.
    func finish(_ message: LoadMessage) {
        locked {
            pending.append(message)
            if inserterWaits { pthread_cond_signal(changed) }
        }
    }

    /// Parser side: an emptied batch of this table to fill again, if one has come back.
    func spare(for table: LoadedTable) -> RowBatch? {
        locked {
            guard let index = spares.firstIndex(where: { $0.table == table }) else { return nil }
            return spares.remove(at: index)
        }
    }

    /// Inserter side: the next message, waiting for one.
    func receive() -> LoadMessage {
        locked {
            if pending.isEmpty {
                inserterWaits = true
                while pending.isEmpty { pthread_cond_wait(changed, mutex) }
                inserterWaits = false
            }
            let message = pending.removeFirst()
            if parserWaits && pending.count <= capacity / 2 { pthread_cond_signal(changed) }
            return message
        }
    }

    /// Inserter side: hands an inserted batch back for reuse.
    func recycle(_ batch: RowBatch) {
        var batch = batch
        batch.reset()
        locked { spares.append(batch) }
    }

    /// Inserter side: stops the parser at its next send.
    func cancel() {
        locked {
            cancelled = true
            pthread_cond_broadcast(changed)
        }
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A thread that runs one closure and is joined, for work that must finish before the memory it
/// reads is unmapped, which a task or a detached thread could not promise.
struct JoinableThread {
    #if canImport(Glibc)
        private let thread: pthread_t
    #else
        private let thread: pthread_t?
    #endif

    private final class Start: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Starts `body` on a new thread; nil if none could be created.
    static func start(_ body: @escaping @Sendable () -> Void) -> JoinableThread? {
        let start = Unmanaged.passRetained(Start(body)).toOpaque()
        #if canImport(Glibc)
            var thread = pthread_t()
            let rc = pthread_create(
                &thread, nil,
                { raw in
                    Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue().body()
                    return nil
                }, start)
        #else
            var thread: pthread_t?
            let rc = pthread_create(
                &thread, nil,
                { raw in
                    Unmanaged<Start>.fromOpaque(raw).takeRetainedValue().body()
                    return nil
                }, start)
        #endif
        guard rc == 0 else {
            Unmanaged<Start>.fromOpaque(start).release()
            return nil
        }
        return JoinableThread(thread: thread)
    }

    func join() {
        #if canImport(Glibc)
            pthread_join(thread, nil)
        #else
            if let thread { pthread_join(thread, nil) }
        #endif
    }
}
