#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file descriptor opened for a new file. POSIX rather than FileHandle because the ZIP writer
/// patches local headers in place (pwrite) after streaming an entry, and because errors must
/// surface as thrown errors, never as traps.
final class FileOutput {
    let path: String
    private var fd: Int32
    private(set) var offset: UInt64 = 0

    /// Fails if `path` exists: temporary names must never clobber someone else's file.
    init(creatingNew path: String) throws {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fd < 0 { throw AnkiExportError.io(operation: "create", path: path, errno: errno) }
    }

    deinit { if fd >= 0 { _ = close(fd) } }

    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    func write(_ buffer: UnsafeRawBufferPointer) throws {
        var done = 0
        while done < buffer.count {
            let n = posixWrite(fd, buffer.baseAddress! + done, buffer.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw AnkiExportError.io(operation: "write", path: path, errno: errno)
            }
            done += n
        }
        offset += UInt64(buffer.count)
    }

    /// Overwrites bytes already written, leaving the append position alone.
    func patch(_ bytes: [UInt8], at position: UInt64) throws {
        try bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let n = pwrite(fd, buffer.baseAddress! + done, buffer.count - done, off_t(position) + off_t(done))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw AnkiExportError.io(operation: "write", path: path, errno: errno)
                }
                done += n
            }
        }
    }

    /// Flushes to disk before the rename, so a crash cannot leave a renamed but empty package.
    func syncAndClose() throws {
        if fsync(fd) != 0 { throw AnkiExportError.io(operation: "fsync", path: path, errno: errno) }
        let rc = close(fd)
        fd = -1
        if rc != 0 { throw AnkiExportError.io(operation: "close", path: path, errno: errno) }
    }
}

/// Reads a file in chunks, for streaming media into the package.
final class FileInput {
    let path: String
    private var fd: Int32

    init(path: String) throws {
        self.path = path
        fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 { throw AnkiExportError.io(operation: "open", path: path, errno: errno) }
    }

    deinit { _ = close(fd) }

    /// Calls `body` with successive chunks until end of file.
    func forEachChunk(size: Int = 1 << 16, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let n = read(fd, buffer.baseAddress!, size)
            if n < 0 {
                if errno == EINTR { continue }
                throw AnkiExportError.io(operation: "read", path: path, errno: errno)
            }
            if n == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
    }
}

enum FileSystem {
    static func remove(_ path: String) { _ = unlink(path) }

    static func rename(_ from: String, to: String) throws {
        if posixRename(from, to) != 0 { throw AnkiExportError.io(operation: "rename", path: to, errno: errno) }
    }

    /// Makes the rename itself durable; best effort, as some file systems refuse fsync on a directory.
    static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            _ = fsync(fd)
            _ = close(fd)
        }
    }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let dir = path[..<slash]
        return dir.isEmpty ? "/" : String(dir)
    }

    static func fileName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}

// The methods above are named `write`/`rename`, which shadow the C functions of the same names.
@inline(__always) private func posixWrite(_ fd: Int32, _ buf: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buf, count)
}

@inline(__always) private func posixRename(_ from: String, _ to: String) -> Int32 {
    rename(from, to)
}
