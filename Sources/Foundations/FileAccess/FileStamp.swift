import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file's identity for fingerprints: size and modification time to the nanosecond, or
/// "absent". Replacing a clip (even with one of the same size) changes it; so does adding,
/// removing or renaming a file in a folder, for the folder's own stamp.
///
/// Every stamp taken while a `StampWitness` is bound to the task is noted by it: what an answer
/// was computed from, so that a later process can tell, with a few `stat` calls, that the
/// answer still holds without computing it again.
public func fileStamp(_ path: String) -> String {
    var info = stat()
    let stamp: String
    if stat(path, &info) == 0 {
        #if canImport(Glibc)
            stamp = "\(info.st_size)@\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
        #else
            stamp = "\(info.st_size)@\(info.st_mtimespec.tv_sec).\(info.st_mtimespec.tv_nsec)"
        #endif
    } else {
        stamp = "absent"
    }
    StampWitness.current?.note(path, stamp)
    return stamp
}

/// The files an answer depended on, as their stamps when it was computed: bound to a task
/// (`StampWitness.$current.withValue`), it notes every `fileStamp` taken inside. Work whose
/// answer depends on more than files (the time, the network) says so (`dependsOnMoreThanFiles`),
/// and such an answer is not to be reused on the strength of its files.
public final class StampWitness: Sendable {
    @TaskLocal public static var current: StampWitness?

    private struct State {
        var stamps: [(path: String, stamp: String)] = []
        var unrepeatable = false
    }
    private let state = Mutex(State())

    public init() {}

    public func note(_ path: String, _ stamp: String) {
        state.withLock { s in
            if !s.stamps.contains(where: { $0.path == path }) { s.stamps.append((path, stamp)) }
        }
    }

    /// The answer also depends on something no stamp shows.
    public func dependsOnMoreThanFiles() { state.withLock { $0.unrepeatable = true } }

    /// Each file noted once, with its first stamp; nil when the answer depends on more than files.
    public var stamps: [(path: String, stamp: String)]? {
        state.withLock { $0.unrepeatable ? nil : $0.stamps }
    }

    /// Whether every file still has the stamp it had: the answer computed from them still holds.
    public static func unchanged(_ stamps: [(path: String, stamp: String)]) -> Bool {
        stamps.allSatisfy { entry in StampWitness.$current.withValue(nil) { fileStamp(entry.path) } == entry.stamp }
    }
}
