import FileAccess
import Foundation
import SQLiteDB
import TestSupport
import Testing

@Suite("Replacing files whole, and the leftovers of killed runs")
struct DurableFileTests {
    /// Builds a small database with one table of `rows` rows, written with no journal, as
    /// databases that are replaced whole are.
    func build(_ path: String, rows: Int) throws {
        let db = try Database(path: path)
        try db.execute("PRAGMA journal_mode=OFF; CREATE TABLE t(n INTEGER, pad TEXT);")
        for n in 0..<rows { try db.run("INSERT INTO t VALUES (?, ?)", [.integer(Int64(n)), .text(String(repeating: "x", count: 300))]) }
    }

    @Test("a write-ahead log left beside a database never reaches the database that replaces it")
    func staleWriteAheadLogIsNotApplied() throws {
        let dir = try TemporaryDirectory("durable")
        defer { dir.remove() }
        let target = dir.file("catalog.sqlite")
        try build(target, rows: 50)
        // Someone writes to the live file in WAL mode and leaves its log behind (a reader still
        // holding the file open keeps SQLite from removing it).
        let reader = try Database(path: target, mode: .readOnly)
        do {
            let writer = try Database(path: target)
            try writer.execute("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;")
            try writer.run("UPDATE t SET pad = 'changed' WHERE n < 40")
        }
        _ = try reader.scalar("SELECT count(*) FROM t")
        #expect(FileManager.default.fileExists(atPath: target + "-wal"))

        let temporary = TemporaryFile.path(beside: target, tag: "building")
        try build(temporary, rows: 7)
        try DurableFile.replaceDatabase(target, with: temporary)

        let fresh = try Database(path: target, mode: .readOnly)
        #expect(try fresh.scalar("PRAGMA integrity_check")?.textValue == "ok")
        #expect(try fresh.scalar("SELECT count(*) FROM t")?.intValue == 7)
        #expect(!FileManager.default.fileExists(atPath: target + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: temporary))
    }

    @Test("atomic writes leave the old file or the new one, never a temporary")
    func atomicWrite() throws {
        let dir = try TemporaryDirectory("durable")
        defer { dir.remove() }
        let path = dir.file("state")
        try DurableFile.write(Array("one".utf8), to: path)
        try DurableFile.write(Array("two".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "two")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["state"])
        // A folder that cannot be written: an error, and nothing left behind.
        #expect(throws: FileError.self) { try DurableFile.write([1], to: dir.file("missing/state")) }
    }

    @Test("temporaries of processes that are gone are removed; a running process's are kept")
    func staleTemporaries() throws {
        let dir = try TemporaryDirectory("durable")
        defer { dir.remove() }
        let target = dir.file("moe.sqlite")
        // A pid that cannot be running: beyond pid_max.
        let dead = dir.file("moe.sqlite.importing-99999999-abc")
        let deadJournal = dir.file("moe.sqlite.importing-99999999-abc-journal")
        let mine = TemporaryFile.path(beside: target, tag: "importing")
        let other = dir.file("moe.sqlite.building-99999999-abc")
        for file in [dead, deadJournal, mine, other, target] { FileManager.default.createFile(atPath: file, contents: Data()) }
        let removed = TemporaryFile.removeStale(beside: target, tags: ["importing"])
        #expect(Set(removed) == ["moe.sqlite.importing-99999999-abc", "moe.sqlite.importing-99999999-abc-journal"])
        for kept in [mine, other, target] { #expect(FileManager.default.fileExists(atPath: kept)) }
    }

    @Test("temporaries among many targets (the clips of a render): dead ones removed at any depth asked for, nothing else")
    func staleTemporariesInAFolderTree() throws {
        let dir = try TemporaryDirectory("durable")
        defer { dir.remove() }
        let dead = "99999999"
        let files = [
            "british/catalog/animals/cat.wav.writing-\(dead)-1f", "british/catalog/animals/cat.wav.json.writing-\(dead)-2e",
            ".render-jobs.worker3-\(dead)-3d", "manifest.json.writing-\(dead)-4c",
            // Kept: the clips themselves, a running process's work, names that only look alike.
            "british/catalog/animals/cat.wav", "british/catalog/animals/dog.wav.writing-\(getpid())-5b",
            "british/catalog/animals/my.writing-notes.txt", "british/catalog/animals/x.writing-12ab-c",
            ".render-jobs.worker10x-\(dead)-6a",
        ]
        for file in files {
            try FileManager.default.createDirectory(atPath: dir.file(DurableFile.directory(of: file)), withIntermediateDirectories: true)
            FileManager.default.createFile(atPath: dir.file(file), contents: Data())
        }
        let top = TemporaryFile.removeStale(in: dir.path, tags: ["writing", "worker3"])
        #expect(Set(top) == [dir.file(".render-jobs.worker3-\(dead)-3d"), dir.file("manifest.json.writing-\(dead)-4c")], "the top level only")
        let below = TemporaryFile.removeStale(in: dir.file("british"), tags: ["writing"], recursive: true)
        #expect(
            Set(below) == [
                dir.file("british/catalog/animals/cat.wav.writing-\(dead)-1f"),
                dir.file("british/catalog/animals/cat.wav.json.writing-\(dead)-2e"),
            ])
        for file in files.suffix(5) { #expect(FileManager.default.fileExists(atPath: dir.file(file)), "\(file)") }
    }
}

@Suite("Files named by data stay inside their folder and are regular files")
struct ContainedFileTests {
    @Test("absolute paths, .. and links that leave the folder are refused; links inside are followed")
    func containment() throws {
        let dir = try TemporaryDirectory("contained")
        defer { dir.remove() }
        try dir.write("Audio/recorded/cat.wav", "RIFF")
        try dir.write("outside/secret.wav", "RIFF")
        let root = dir.file("Audio")
        #expect(try ContainedFile.resolve("recorded/cat.wav", inside: root).hasSuffix("/Audio/recorded/cat.wav"))
        #expect(throws: FileError.self) { try ContainedFile.resolve("/etc/passwd", inside: root) }
        #expect(throws: FileError.self) { try ContainedFile.resolve("../../../etc/passwd", inside: root) }
        #expect(throws: FileError.self) { try ContainedFile.resolve("recorded/missing.wav", inside: root) }
        try FileManager.default.createSymbolicLink(atPath: dir.file("Audio/recorded/leak.wav"), withDestinationPath: dir.file("outside/secret.wav"))
        try FileManager.default.createSymbolicLink(atPath: dir.file("Audio/recorded/alias.wav"), withDestinationPath: "cat.wav")
        #expect(throws: FileError.self) { try ContainedFile.resolve("recorded/leak.wav", inside: root) }
        #expect(try ContainedFile.resolve("recorded/alias.wav", inside: root).hasSuffix("/Audio/recorded/cat.wav"))
    }

    @Test("a FIFO named like a clip is refused at once instead of blocking the reader")
    func fifo() throws {
        let dir = try TemporaryDirectory("contained")
        defer { dir.remove() }
        let path = dir.file("sheep.wav")
        #expect(mkfifo(path, 0o644) == 0)
        let started = Date()
        #expect(throws: FileError.self) { try ContainedFile.read(path, limit: 1 << 20) }
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(!ContainedFile.isRegular(path))
    }

    @Test("reads stop at the size limit")
    func limit() throws {
        let dir = try TemporaryDirectory("contained")
        defer { dir.remove() }
        try dir.write("big", String(repeating: "x", count: 1000))
        #expect(try ContainedFile.read(dir.file("big"), limit: 1000).count == 1000)
        #expect(throws: FileError.self) { try ContainedFile.read(dir.file("big"), limit: 999) }
    }
}
