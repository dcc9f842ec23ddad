#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file-system failure, with the path and the system's reason.
public struct FileError: Error, CustomStringConvertible, Sendable, Equatable {
    public let description: String
    /// The system's errno, 0 when the failure is not a system call's.
    public let code: Int32
    public init(_ description: String, code: Int32 = 0) {
        self.description = description
        self.code = code
    }

    public static func system(_ what: String) -> FileError {
        let code = errno
        return FileError("\(what): \(String(cString: strerror(code)))", code: code)
    }

    /// Whether it failed for lack of space: the same write can succeed once space is freed.
    public var isDiskFull: Bool { code == ENOSPC || code == EDQUOT }
}

/// The steps of replacing a file whole so that a reader, a crash or a power cut sees either
/// the old file or the new one: write a temporary file beside the target, flush it, rename it
/// over the target, flush the folder. POSIX calls only (no Foundation), so the small `vocab`
/// launcher can use it.
public enum DurableFile {
    /// The folder part of a path ("." for a bare name, "/" for a file at the root).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The last component of a path.
    public static func name(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// Creates a folder and its parents (mode 0755); an existing folder is fine.
    public static func createDirectory(_ path: String) throws {
        var built = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            // Appended, not `"/" + part`: String + Substring is the generic `+`, whose witness
            // lookup at run time cost a launcher's command more than the mkdir calls.
            built += "/"
            built.append(contentsOf: part)
            if mkdir(built, 0o755) != 0 && errno != EEXIST { throw FileError.system("cannot create the folder \(built)") }
        }
    }

    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Flushes a finished file to disk before it is renamed into place.
    public static func synchronize(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileError.system("cannot open \(path)") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw FileError.system("cannot flush \(path)") }
    }

    /// Renames `temporary` over `target` and flushes the folder, so the rename itself survives
    /// a power cut (best effort: some file systems refuse fsync on a folder).
    public static func replace(_ target: String, with temporary: String) throws {
        guard rename(temporary, target) == 0 else { throw FileError.system("cannot move \(temporary) to \(target)") }
        let fd = open(directory(of: target), O_RDONLY | O_CLOEXEC | O_DIRECTORY)
        if fd >= 0 {
            _ = fsync(fd)
            close(fd)
        }
    }

    /// Replaces a SQLite database file whole. SQLite keeps a write-ahead log (`-wal`), its index
    /// (`-shm`) and a rollback journal (`-journal`) beside a database under the database's name;
    /// left beside the new file, a stale one is applied to it and corrupts it (a catalog edit
    /// after a WAL write did exactly that). Databases replaced this way are only ever written
    /// before the rename, with no journal, so whatever sits beside the target under those
    /// names belongs to the old file and goes with it.
    public static func replaceDatabase(_ target: String, with temporary: String) throws {
        try synchronize(temporary)
        for suffix in ["-wal", "-shm", "-journal"] { unlink(target + suffix) }
        try replace(target, with: temporary)
    }

    /// Writes bytes to `path` atomically (temporary file, flush, rename). Not `durable`: no
    /// flush of the file nor of its folder, only the rename (a rendered clip can be rendered
    /// again; flushing the folder after each of thousands of clips made a render wait on the disk).
    public static func write(_ bytes: [UInt8], to path: String, durable: Bool = true) throws {
        let temporary = TemporaryFile.path(beside: path, tag: "writing")
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError.system("cannot create \(temporary)") }
        var failure: FileError?
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = systemWrite(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = FileError.system("cannot write \(temporary)")
                    return
                }
                offset += n
            }
        }
        if failure == nil, durable, fsync(fd) != 0 { failure = FileError.system("cannot flush \(temporary)") }
        close(fd)
        if let failure {
            unlink(temporary)
            throw failure
        }
        if !durable {
            guard rename(temporary, path) == 0 else {
                let error = FileError.system("cannot move \(temporary) to \(path)")
                unlink(temporary)
                throw error
            }
            return
        }
        do { try replace(path, with: temporary) } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Removes a file and what SQLite may have left beside it; missing files are fine.
    public static func removeDatabase(_ path: String) {
        for file in [path, path + "-journal", path + "-wal", path + "-shm"] { unlink(file) }
    }
}

#if canImport(Glibc)
    let systemWrite = Glibc.write
#else
    let systemWrite = Darwin.write
#endif
