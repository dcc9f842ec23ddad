#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Names for work in progress beside a target (`<target>.<tag>-<pid>-<random>`), and the
/// clean-up of those a killed process left behind. The process id in the name tells a
/// leftover (its process is gone) from a file another process is still writing.
public enum TemporaryFile {
    /// A fresh name beside `target`, in the same folder so the final rename stays on one file
    /// system. `tag` says what the file is for ("building", "importing"); no "-" in it.
    public static func path(beside target: String, tag: String) -> String {
        let random = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        return "\(target).\(tag)-\(getpid())-\(random)"
    }

    /// Removes the temporaries of `target` with one of `tags` whose process no longer runs,
    /// and what SQLite left beside them. Returns the names removed. Errors are ignored: a
    /// leftover that cannot be removed now will be tried again next time.
    @discardableResult
    public static func removeStale(beside target: String, tags: [String]) -> [String] {
        let folder = DurableFile.directory(of: target)
        let prefix = DurableFile.name(of: target) + "."
        var removed: [String] = []
        for name in entries(of: folder) where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count).split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
            guard rest.count == 3, tags.contains(String(rest[0])), let pid = Int32(rest[1]), pid > 0 else { continue }
            guard !isRunning(pid) else { continue }
            if unlink(folder + "/" + name) == 0 { removed.append(name) }
        }
        return removed
    }

    /// Removes, in `folder` (and with `recursive` the folders below it), every temporary
    /// (`<name>.<tag>-<pid>-…`, with one of `tags`) whose process no longer runs: what killed
    /// runs left among many targets, such as the clips of a render. Returns the paths removed.
    @discardableResult
    public static func removeStale(in folder: String, tags: [String], recursive: Bool = false) -> [String] {
        var removed: [String] = []
        var folders = [folder]
        while let current = folders.popLast() {
            for name in entries(of: current) {
                let path = current + "/" + name
                if let pid = ownerProcess(of: name, tags: tags) {
                    if !isRunning(pid), unlink(path) == 0 { removed.append(path) }
                } else if recursive, isFolder(path) {
                    folders.append(path)
                }
            }
        }
        return removed
    }

    /// The process id in a temporary's name (`<name>.<tag>-<pid>-<random>`, perhaps with SQLite's
    /// `-journal` after it), or nil when the name is not one of `tags`.
    static func ownerProcess(of name: String, tags: [String]) -> Int32? {
        let bytes = Array(name.utf8)
        for tag in tags {
            let marker = Array(".\(tag)-".utf8)
            guard bytes.count > marker.count else { continue }
            var start = bytes.count - marker.count
            while start >= 1 {
                if Array(bytes[start..<start + marker.count]) == marker {
                    let digits = bytes[(start + marker.count)...].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
                    let after = start + marker.count + digits.count
                    if !digits.isEmpty, after < bytes.count, bytes[after] == UInt8(ascii: "-"),
                        let pid = Int32(String(decoding: digits, as: UTF8.self)), pid > 0
                    {
                        return pid
                    }
                }
                start -= 1
            }
        }
        return nil
    }

    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// A fresh name for a folder made whole beside `target` and then renamed to it
    /// (`<target>.<pid>.tmp`), such as the private espeak-ng data folder.
    public static func folder(beside target: String) -> String { "\(target).\(getpid()).tmp" }

    /// Removes, in `folder`, the temporary folders (`folder(beside:)`) whose names start with
    /// `prefix` and whose process no longer runs, with everything in them: what a process
    /// killed while making one left. Links inside are removed, never followed. Returns the
    /// paths removed.
    @discardableResult
    public static func removeStaleFolders(in folder: String, prefix: String) -> [String] {
        var removed: [String] = []
        for name in entries(of: folder) where name.hasPrefix(prefix) {
            guard let pid = folderOwner(of: name), !isRunning(pid) else { continue }
            let path = folder + "/" + name
            if isFolder(path), removeTree(path) { removed.append(path) }
        }
        return removed
    }

    /// The process id in a temporary folder's name (`<name>.<pid>.tmp`), or nil.
    static func folderOwner(of name: String) -> Int32? {
        guard name.hasSuffix(".tmp") else { return nil }
        let stem = name.dropLast(4)
        guard let dot = stem.lastIndex(of: "."), let pid = Int32(stem[stem.index(after: dot)...]), pid > 0 else { return nil }
        return pid
    }

    /// Removes `path` and, for a folder, everything below it (lstat: a link is removed, not followed).
    static func removeTree(_ path: String) -> Bool {
        if isFolder(path) {
            for name in entries(of: path) { _ = removeTree(path + "/" + name) }
            return rmdir(path) == 0
        }
        return unlink(path) == 0
    }

    /// Whether a process with this id still runs: it exists (it may belong to another user:
    /// EPERM means it does) and has not exited. A process that exited and whose parent has not
    /// yet collected its status (a zombie) keeps its id, but it writes nothing any more: what
    /// it left is as stale as that of a process that is gone.
    public static func isRunning(_ pid: Int32) -> Bool {
        if pid == getpid() { return true }
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        return !hasExited(pid)
    }

    /// Whether /proc shows the process as exited (state Z, a zombie, or X, being removed).
    /// Without /proc, or when it cannot be read, the process is taken to run.
    static func hasExited(_ pid: Int32) -> Bool {
        #if os(Linux)
            let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return false }
            defer { close(fd) }
            var buffer = [UInt8](repeating: 0, count: 512)
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return false }
            // "pid (name) state …": the name may hold spaces and parentheses, so the state is the
            // field after the last ')'.
            let line = buffer[..<count]
            guard let end = line.lastIndex(of: UInt8(ascii: ")")), end + 2 < count else { return false }
            return line[end + 2] == UInt8(ascii: "Z") || line[end + 2] == UInt8(ascii: "X")
        #else
            return false
        #endif
    }

    static func entries(of folder: String) -> [String] {
        guard let dir = opendir(folder) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
