import Foundation

/// A real file system of a few MiB (tmpfs) mounted on a folder, which a test fills to the last
/// page: the kernel then answers ENOSPC as on a full disk, to every process. Mounting needs root,
/// which the tests and CI have.
public final class SmallDisk: Sendable {
    public let path: String
    public var filler: String { path + "/filler" }

    /// Mounts an empty tmpfs of `size` (as mount's `size=` takes it) on `path`, made if missing.
    public init(at path: String, size: String = "4m") throws {
        self.path = path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let mounted = try runProcess("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path])
        guard mounted.status == 0 else { throw SmallDiskError("mount -t tmpfs on \(path) failed: \(mounted.stderr)") }
    }

    /// Writes a filler file until the disk refuses another page.
    public func fill() throws {
        let fd = open(filler, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SmallDiskError("cannot create \(filler)") }
        defer { close(fd) }
        let page = [UInt8](repeating: 0x55, count: 4096)
        while true {
            let n = page.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                guard errno == ENOSPC else { throw SmallDiskError("filling \(path): \(String(cString: strerror(errno)))") }
                return
            }
        }
    }

    /// Space left for new files, in bytes.
    public var available: Int {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { return -1 }
        return Int(info.f_bavail) * Int(info.f_frsize)
    }

    /// Removes the filler: the space is there again.
    public func free() { unlink(filler) }

    /// Lazily, so that a process of a failed test still holding a file cannot keep it mounted.
    public func unmount() { _ = try? runProcess("/bin/umount", ["-l", path]) }
}

public struct SmallDiskError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
