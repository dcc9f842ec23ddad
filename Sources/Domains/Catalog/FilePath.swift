#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Store

/// The few file operations the catalog needs beyond FileManager, in plain POSIX calls: the
/// catalog modules stay on FoundationEssentials so the `vocab` launcher stays small.
public enum FilePath {
    /// The folder part of a path ("." for a bare name, "/" for a file at the root).
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Flushes a finished file to disk before it is renamed into place.
    static func synchronize(_ path: String) throws {
        let fd = open(path, O_RDWR)
        guard fd >= 0 else { throw failure("cannot open \(path)") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw failure("cannot flush \(path)") }
    }

    static func rename(_ from: String, to: String) throws {
        #if canImport(Glibc)
        let result = Glibc.rename(from, to)
        #else
        let result = Darwin.rename(from, to)
        #endif
        guard result == 0 else { throw failure("cannot move \(from) to \(to)") }
    }

    private static func failure(_ message: String) -> StoreError {
        StoreError("\(message): \(String(cString: strerror(errno)))")
    }
}
