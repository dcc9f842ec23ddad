#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Files named by data (a clip reference in a category file, a word in a URL) are opened only
/// when they are regular files inside the folder they belong to: no absolute paths, no "..",
/// no symbolic link that leads outside, no FIFO or device that would block or never end.
public enum ContainedFile {
    /// The real path of `reference` (relative to `root`) when it stays inside `root`.
    public static func resolve(_ reference: String, inside root: String) throws -> String {
        guard !reference.isEmpty else { throw FileError("an empty file reference") }
        guard !reference.hasPrefix("/") else { throw FileError("\(reference) is an absolute path; references are relative to \(root)") }
        let parts = reference.split(separator: "/", omittingEmptySubsequences: true)
        guard !parts.contains("..") else { throw FileError("\(reference) leaves \(root)") }
        guard let realRoot = realPath(root) else { throw FileError.system("cannot open the folder \(root)") }
        let candidate = realRoot + "/" + parts.joined(separator: "/")
        guard let real = realPath(candidate) else { throw FileError("missing file \(root)/\(reference)") }
        guard real == realRoot || real.hasPrefix(realRoot + "/") else {
            throw FileError("\(reference) leads outside \(root) (through a symbolic link)")
        }
        return real
    }

    /// Opens a file for reading only if it is a regular file. The open does not block on a FIFO
    /// (O_NONBLOCK), and the check is made on the opened descriptor, so the file cannot be
    /// swapped between the check and the read. The caller closes the descriptor.
    public static func openRegular(_ path: String) throws -> Int32 {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { throw FileError("missing file \(path)") }
            throw FileError.system("cannot open \(path)")
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            throw FileError.system("cannot read \(path)")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw FileError("\(path) is not a regular file")
        }
        // Regular files ignore O_NONBLOCK, but libraries handed the descriptor need not see it.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    /// The bytes of a regular file, refusing more than `limit`.
    public static func read(_ path: String, limit: Int) throws -> [UInt8] {
        let fd = try openRegular(path)
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError.system("cannot read \(path)")
            }
            if n == 0 { return bytes }
            guard bytes.count + n <= limit else { throw FileError("\(path) is larger than \(limit) bytes") }
            bytes.append(contentsOf: buffer[0..<n])
        }
    }

    /// Whether `path` is a regular file (following links), without opening it.
    public static func isRegular(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

#if canImport(Glibc)
    private let systemRead = Glibc.read
#else
    private let systemRead = Darwin.read
#endif
