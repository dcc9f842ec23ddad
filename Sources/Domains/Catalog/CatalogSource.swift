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
    }

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
        return try names.sorted().map { name in
            var info = stat()
            guard stat(directory + "/" + name, &info) == 0 else {
                throw CatalogError.missingCategories(directory + "/" + name)
            }
            let modified = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
            let changed = Double(info.st_ctim.tv_sec) + Double(info.st_ctim.tv_nsec) / 1e9
            return FileStamp(name: name, size: Int(info.st_size), modified: modified, changed: changed, inode: UInt64(info.st_ino))
        }
    }

    /// A cheap fingerprint of names, sizes and times: when it matches, nothing is read.
    public func fingerprint() throws -> String {
        try stamps().map { "\($0.name):\($0.size):\($0.modified):\($0.changed):\($0.inode)" }.joined(separator: "|")
    }

    public func read() throws -> [(name: String, data: Data)] {
        try stamps().map { stamp in
            (stamp.name, try Data(contentsOf: URL(fileURLWithPath: directory + "/" + stamp.name)))
        }
    }

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
