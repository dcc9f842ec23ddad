#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file a person names for a command to write (`say -o`, `export --out`, `backup --out`), and
/// the one rule for writing it: a regular file, or a path that does not exist yet, is replaced
/// whole by a rename, so it is never half-written; a device, a FIFO or a socket is written
/// through, never replaced (as root, a rename over `/dev/null` made every later program that
/// wrote to it fail); a symbolic link is followed, so its target gets the file and the link
/// stays; `-` is standard output.
///
/// A writer writes the whole file at `temporary` first, then `commit()` puts it in place.
public struct OutputPath: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// A regular file, or none yet: renamed into place.
        case replace
        /// A character or block device, or a FIFO: its bytes are written into it.
        case stream
        /// A listening Unix socket: its bytes are sent to it.
        case socket
        /// `-`.
        case standardOutput
    }

    /// What the person typed.
    public let named: String
    /// Where the bytes go: `named` with its links followed.
    public let target: String
    public let kind: Kind
    /// Where the writer writes first: beside the target when it is replaced (the rename cannot
    /// cross file systems), else in the system's temporary folder (never in /dev).
    public let temporary: String

    /// Most links a path may go through (as the kernel's own limit).
    static let maxLinks = 40

    public static func resolve(_ named: String, tag: String = "writing") throws(FileError) -> OutputPath {
        if named == "-" {
            return OutputPath(named: named, target: named, kind: .standardOutput, temporary: temporaryElsewhere(tag))
        }
        let target = try following(named)
        var info = stat()
        guard stat(target, &info) == 0 else {
            guard errno == ENOENT else { throw FileError.system("cannot reach \(named)") }
            return OutputPath(named: named, target: target, kind: .replace, temporary: TemporaryFile.path(beside: target, tag: tag))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return OutputPath(named: named, target: target, kind: .replace, temporary: TemporaryFile.path(beside: target, tag: tag))
        case S_IFCHR, S_IFBLK, S_IFIFO: return OutputPath(named: named, target: target, kind: .stream, temporary: temporaryElsewhere(tag))
        case S_IFSOCK: return OutputPath(named: named, target: target, kind: .socket, temporary: temporaryElsewhere(tag))
        case S_IFDIR: throw FileError("\(named) is a folder: name a file in it")
        default: throw FileError("\(named) is not a file that can be written")
        }
    }

    /// Puts the finished temporary file in place, and removes it whatever happens. `durable`:
    /// the file and its folder flushed before and after the rename (a backup); a clip skips it.
    public func commit(durable: Bool = true) throws {
        defer { if kind != .replace { unlink(temporary) } }
        switch kind {
        case .replace:
            do {
                if durable {
                    try DurableFile.synchronize(temporary)
                    try DurableFile.replace(target, with: temporary)
                } else if rename(temporary, target) != 0 {
                    throw FileError.system("cannot move \(temporary) to \(target)")
                }
            } catch {
                unlink(temporary)
                throw error
            }
        case .standardOutput: try copy(into: STDOUT_FILENO)
        case .stream:
            let fd = open(target, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw FileError.system("cannot open \(named) for writing") }
            defer { close(fd) }
            try copy(into: fd)
        case .socket:
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw FileError.system("cannot make a socket for \(named)") }
            defer { close(fd) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(target.utf8)
            guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw FileError("\(named): the socket's path is too long") }
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (i, b) in bytes.enumerated() { raw[i] = b }
            }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard connected == 0 else { throw FileError.system("cannot connect to the socket \(named)") }
            try copy(into: fd)
        }
    }

    /// Removes what a writer left at `temporary` (after a failure).
    public func discard() { unlink(temporary) }

    private func copy(into fd: Int32) throws(FileError) {
        let source = open(temporary, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { throw FileError.system("cannot read \(temporary)") }
        defer { close(source) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw FileError.system("cannot read \(temporary)") }
            if n == 0 { return }
            var offset = 0
            while offset < n {
                let written = buffer.withUnsafeBytes { systemWrite(fd, $0.baseAddress! + offset, n - offset) }
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { throw FileError.system("cannot write \(named)") }
                offset += written
            }
        }
    }

    /// The path with every symbolic link on its last component followed (a dangling link's target
    /// is where the file will be made).
    static func following(_ path: String) throws(FileError) -> String {
        var current = path
        for _ in 0..<maxLinks {
            var info = stat()
            guard lstat(current, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(current, &buffer, buffer.count - 1)
            guard n > 0 else { throw FileError.system("cannot read the link \(current)") }
            let link = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = link.hasPrefix("/") ? link : DurableFile.directory(of: current) + "/" + link
        }
        throw FileError("\(path) goes through more than \(maxLinks) links")
    }

    static func temporaryElsewhere(_ tag: String) -> String {
        let folder = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return TemporaryFile.path(beside: folder + "/vocab-output", tag: tag)
    }
}
