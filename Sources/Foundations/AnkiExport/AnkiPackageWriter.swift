#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes `.apkg` files in the legacy layout every Anki imports: a ZIP of `collection.anki2`
/// (schema 11), `media` (JSON `{"0": "cat.ogg"}`) and the media files named "0", "1", ….
/// (The newer `collection.anki21b` layout is zstd-compressed and other tools cannot read it.)
public enum AnkiPackageWriter {
    /// Validates `package`, then builds the collection and the ZIP in temporary files beside
    /// `path` and renames the ZIP over `path`. On any error both temporary files are removed and
    /// an existing file at `path` is left as it was.
    ///
    /// - Parameter now: epoch seconds; stamps notes, cards and ZIP entries and seeds the ids, so
    ///   the same input and `now` give the same bytes. A later `now` makes Anki's default
    ///   "update if newer" import replace notes it imported from an earlier package.
    public static func write(_ package: AnkiPackage, to path: String, now: Int64) throws {
        let prepared = try PreparedPackage(package)

        let directory = FileSystem.directory(of: path)
        // Same directory as the target, so the final rename cannot cross file systems. The pid and
        // a random suffix keep two concurrent exports to the same target apart.
        let stem = "\(directory)/.\(FileSystem.fileName(of: path)).\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let collectionPath = stem + ".anki2"
        let zipPath = stem + ".tmp"

        // Only files this call created are ever removed, never a stranger's with a clashing name.
        var ownsCollection = false
        var ownsZip = false
        defer {
            if ownsCollection { FileSystem.remove(collectionPath) }
            if ownsZip { FileSystem.remove(zipPath) }
        }
        _ = try FileOutput(creatingNew: collectionPath) // closed at once; SQLite fills the empty file
        ownsCollection = true
        try LegacyCollection.write(prepared, to: collectionPath, now: now)

        let output = try FileOutput(creatingNew: zipPath)
        ownsZip = true
        let zip = ZipWriter(output: output, modified: now)
        try zip.addFile(name: "collection.anki2", contentsOf: collectionPath)
        try zip.addFile(name: "media", bytes: Array(mediaMap(prepared.media).text.utf8))
        for (index, item) in prepared.media.enumerated() {
            switch item.source {
            case .bytes(let bytes): try zip.addFile(name: String(index), bytes: bytes)
            case .file(let source): try zip.addFile(name: String(index), contentsOf: source)
            }
        }
        try zip.finish()
        try output.syncAndClose()
        try FileSystem.rename(zipPath, to: path)
        ownsZip = false
        FileSystem.syncDirectory(directory)
    }

    static func mediaMap(_ media: [AnkiMedia]) -> JSONText {
        .object(media.enumerated().map { (String($0.offset), .string($0.element.name)) })
    }
}
