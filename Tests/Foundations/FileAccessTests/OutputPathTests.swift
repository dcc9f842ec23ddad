import FileAccess
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The one rule for files a person names: a regular file is replaced whole, a device, FIFO or
/// socket is written into and stays what it is, a link is followed and stays a link.
@Suite("OutputPath: what a file a person names is written as")
struct OutputPathTests {
    func write(_ text: String, to path: String) throws {
        let out = try OutputPath.resolve(path)
        try Data(text.utf8).write(to: URL(fileURLWithPath: out.temporary))
        try out.commit()
    }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
    }

    @Test("a regular file is replaced by a rename (a new inode), a new path is made, and no temporary is left")
    func regularFiles() throws {
        let dir = try TemporaryDirectory("output")
        defer { dir.remove() }
        let file = dir.file("clip.wav")
        try "old".write(toFile: file, atomically: false, encoding: .utf8)
        var before = stat()
        stat(file, &before)
        try write("new", to: file)
        var after = stat()
        stat(file, &after)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "new" && before.st_ino != after.st_ino)
        try write("made", to: dir.file("fresh.csv"))
        #expect(try String(contentsOfFile: dir.file("fresh.csv"), encoding: .utf8) == "made")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["clip.wav", "fresh.csv"])
    }

    @Test("a character device made by mknod (as /dev/null is) is written into and stays a device")
    func devices() throws {
        let dir = try TemporaryDirectory("output")
        defer { dir.remove() }
        let null = dir.file("null")
        // The same device as /dev/null (1, 3): root may make it; elsewhere the system's own is used.
        let made = mknod(null, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0 // glibc's makedev(1, 3)
        let device = made ? null : "/dev/null"
        try write("discarded", to: device)
        #expect(mode(device) == S_IFCHR, "\(device) is still a character device")
        #expect(try OutputPath.resolve(device).kind == .stream)
        #expect(mode("/dev/null") == S_IFCHR)
    }

    @Test("a FIFO is written into while a reader reads it, and stays a FIFO")
    func fifos() throws {
        let dir = try TemporaryDirectory("output")
        defer { dir.remove() }
        let fifo = dir.file("player")
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = ThreadReader { open(fifo, O_RDONLY) }
        try write("through the pipe", to: fifo)
        #expect(reader.text() == "through the pipe")
        #expect(mode(fifo) == S_IFIFO)
    }

    @Test("a symbolic link is followed: its target gets the file, the link stays; a dangling link's target is made")
    func links() throws {
        let dir = try TemporaryDirectory("output")
        defer { dir.remove() }
        try "old".write(toFile: dir.file("real.csv"), atomically: false, encoding: .utf8)
        #expect(symlink("real.csv", dir.file("link.csv")) == 0)
        try write("new", to: dir.file("link.csv"))
        #expect(mode(dir.file("link.csv")) == S_IFLNK)
        #expect(try String(contentsOfFile: dir.file("real.csv"), encoding: .utf8) == "new")
        #expect(symlink(dir.file("later.csv"), dir.file("dangling.csv")) == 0)
        try write("made", to: dir.file("dangling.csv"))
        #expect(mode(dir.file("dangling.csv")) == S_IFLNK && (try? String(contentsOfFile: dir.file("later.csv"), encoding: .utf8)) == "made")
    }

    @Test("a listening Unix socket gets the bytes; a folder is refused with a clear message")
    func socketsAndFolders() throws {
        let dir = try TemporaryDirectory("output")
        defer { dir.remove() }
        let path = dir.file("s")
        let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in Array(path.utf8).enumerated() { raw[i] = b } }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(server, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0 && listen(server, 1) == 0)
        let reader = ThreadReader { accept(server, nil, nil) }
        try write("to the socket", to: path)
        #expect(reader.text() == "to the socket")
        close(server)
        #expect(mode(path) == S_IFSOCK)
        #expect(throws: FileError.self) { try OutputPath.resolve(dir.path) }
    }
}
