import FileAccess

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// The `Categories/` folder: which files it has, whether they changed, what they say.
public struct CatalogSource: Sendable {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    /// `changed` (the inode's change time) and the inode catch what size and mtime miss: an edit
    /// that keeps the size and puts the old mtime back (`cp -p`, `rsync -t`, `touch -r`) still
    /// changes the inode's time, which no user call can set.
    public struct FileStamp: Sendable, Equatable {
        public var name: String
        public var size: Int
        public var modified: Double
        public var changed: Double = 0
        public var inode: UInt64 = 0
        /// Why the entry cannot be read as a category file (not a regular file, a link to
        /// nothing, too large); nil when it can.
        public var problem: String? = nil
    }

    /// Far more than any category file (the largest is a few dozen KB): a larger one is a
    /// mistake, reported instead of read into memory.
    public static let maxFileBytes = 4 << 20

    /// The category files, by name. Cheap (one stat per file, plain POSIX calls): it runs on
    /// every command, before anything else.
    public func stamps() throws -> [FileStamp] {
        guard let dir = opendir(directory) else { throw CatalogError.missingCategories(directory) }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(".json") && !name.hasPrefix(".") { names.append(name) }
        }
        if names.isEmpty { throw CatalogError.missingCategories(directory) }
        return names.sorted().map { name in
            var info = stat()
            guard stat(directory + "/" + name, &info) == 0 else {
                // A link to nothing, or an entry that went away: named, not fatal.
                return FileStamp(name: name, size: -1, modified: 0, problem: Self.unreadable(errno))
            }
            let kind = info.st_mode & S_IFMT
            let problem: String? =
                kind == S_IFDIR
                ? "is a folder, not a file"
                : kind != S_IFREG
                    ? "is not a regular file (a FIFO, device or socket)"
                    : Int(info.st_size) > Self.maxFileBytes
                        ? "has \(info.st_size) bytes, more than the \(Self.maxFileBytes >> 20) MiB a category file may have"
                        : nil
            let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
            let changed = Double(info.st_ctim.tv_sec) + Double(info.st_ctim.tv_nsec) / 1e9
            return FileStamp(name: name, size: Int(info.st_size), modified: modified, changed: changed, inode: UInt64(info.st_ino), problem: problem)
        }
    }

    /// A cheap fingerprint of names, sizes and times: when it matches, nothing is read.
    public func fingerprint() throws -> String {
        // A loop, not `joined(separator:)`: the generic join looks up a witness at run time,
        // which a launch of the launcher paid for on every command.
        var text = ""
        for stamp in try stamps() {
            if !text.isEmpty { text += "|" }
            text += "\(stamp.name):\(stamp.size):\(stamp.modified):\(stamp.changed):\(stamp.inode)"
        }
        return text
    }

    /// The readable files with their bytes, and an issue for each entry that cannot be read as
    /// a category file, so the last good catalog can be served while it is fixed.
    public func read() throws -> (files: [(name: String, data: Data)], unreadable: [ValidationIssue]) {
        var files: [(name: String, data: Data)] = []
        var unreadable: [ValidationIssue] = []
        for stamp in try stamps() {
            if let problem = stamp.problem {
                unreadable.append(ValidationIssue(file: stamp.name, message: "\(problem)."))
                continue
            }
            do {
                files.append((stamp.name, Data(try ContainedFile.read(directory + "/" + stamp.name, limit: Self.maxFileBytes))))
            } catch let error as FileError where error.code != 0 {
                unreadable.append(ValidationIssue(file: stamp.name, message: Self.unreadable(error.code) + "."))
            } catch {
                unreadable.append(ValidationIssue(file: stamp.name, message: "cannot be read: \(error)."))
            }
        }
        return (files, unreadable)
    }

    /// One wording for a file the system will not let vocab read, whether its `stat` or its
    /// `read` fails: the system's reason ("Permission denied"), as every file error gives it.
    static func unreadable(_ code: Int32) -> String { "cannot be read: \(String(cString: strerror(code)))" }

    /// FNV-1a over names and bytes: decides whether touched files really changed.
    public static func contentHash(_ files: [(name: String, data: Data)]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
            for b in bytes { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
        }
        for file in files {
            mix(file.name.utf8)
            mix([0])
            file.data.withUnsafeBytes { mix($0) }
            mix([0])
        }
        return String(hash, radix: 16)
    }
}
