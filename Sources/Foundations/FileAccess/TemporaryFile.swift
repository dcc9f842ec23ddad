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

    /// Whether a process with this id exists (it may belong to another user: EPERM means it does).
    public static func isRunning(_ pid: Int32) -> Bool {
        if pid == getpid() { return true }
        return kill(pid, 0) == 0 || errno == EPERM
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
