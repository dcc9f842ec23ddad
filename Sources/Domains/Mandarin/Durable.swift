#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file-system steps of an atomic replace: flush the new file, rename it over the old one,
/// flush the folder so the rename itself survives a power cut.
enum Durable {
    static func sync(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw MOEError.writeFailed("cannot open \(path): \(lastError())") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw MOEError.writeFailed("cannot flush \(path): \(lastError())") }
    }

    /// Starts writing what is already in `path` to disk, on a thread of its own, so the final
    /// `sync` has less left to wait for. Only a head start: errors are left for `sync` to report.
    static func flushInBackground(_ path: String) -> JoinableThread? {
        JoinableThread.start {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return }
            _ = fdatasync(fd)
            close(fd)
        }
    }

    /// The new file is built with no journal, so a `-wal`, `-shm` or `-journal` beside the target
    /// belongs to the old file (an older vocab opened it in WAL mode): left there, SQLite would
    /// apply it to the new file and corrupt it. It goes with the old file.
    static func replace(_ target: String, with temporary: String) throws {
        for suffix in ["-wal", "-shm", "-journal"] { unlink(target + suffix) }
        guard rename(temporary, target) == 0 else {
            throw MOEError.writeFailed("cannot move the new database to \(target): \(lastError())")
        }
        // Best effort: some file systems refuse fsync on a folder, and the data is already safe.
        let folder = directory(of: target)
        let fd = open(folder, O_RDONLY | O_CLOEXEC | O_DIRECTORY)
        if fd >= 0 {
            _ = fsync(fd)
            close(fd)
        }
    }

    /// Removes a file and the journal SQLite may have left beside it; missing files are fine.
    static func remove(_ path: String) {
        for file in [path, path + "-journal", path + "-wal", path + "-shm"] { unlink(file) }
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
