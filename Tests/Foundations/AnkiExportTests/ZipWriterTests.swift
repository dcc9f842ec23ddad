import Foundation
import Testing

@testable import AnkiExport

@Suite struct ZipWriterTests {
    /// Writes bytes, a streamed file, an empty entry and a non-ASCII name, then reads the archive
    /// back three ways: our reader (headers, CRCs), `unzip -l` and Python's `zipfile -t`.
    @Test func roundTrip() throws {
        let dir = try TemporaryDirectory()
        let streamed = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 7) }
        try writeBytes(streamed, to: dir.file("source.bin"))

        let zipPath = dir.file("test.zip")
        let output = try FileOutput(creatingNew: zipPath)
        let zip = ZipWriter(output: output, modified: 1_750_000_000)
        try zip.addFile(name: "hello.txt", bytes: Array("hello, zip\n".utf8))
        try zip.addFile(name: "big", contentsOf: dir.file("source.bin"))
        try zip.addFile(name: "empty", bytes: [])
        try zip.addFile(name: "猫 cat.txt", bytes: Array("meow".utf8))
        try zip.finish()
        try output.syncAndClose()

        let archive = try ZipArchiveReader(bytes: try readBytes(zipPath))
        #expect(archive.entries.map(\.name) == ["hello.txt", "big", "empty", "猫 cat.txt"])
        #expect(archive["hello.txt"] == Array("hello, zip\n".utf8))
        #expect(archive["big"] == streamed)
        #expect(archive["empty"] == [])
        #expect(archive["猫 cat.txt"] == Array("meow".utf8))
        #expect(archive.entries.allSatisfy { $0.flags & 0x0800 != 0 }) // UTF-8 names
        #expect(archive.entries.allSatisfy { $0.externalAttributes >> 16 == 0o100644 })

        let listing = try runProcess("unzip", ["-l", zipPath])
        #expect(listing.status == 0)
        let text = String(decoding: listing.stdout, as: UTF8.self)
        #expect(text.contains("hello.txt") && text.contains("猫 cat.txt") && text.contains("200000"))
        #expect(text.contains("4 files"))
        // The date in the listing comes from the DOS fields (local time, so only the year is stable).
        #expect(text.contains("2025"))

        let unzipTest = try runProcess("unzip", ["-t", zipPath])
        #expect(unzipTest.status == 0, "\(String(decoding: unzipTest.stdout, as: UTF8.self))")

        let python = try runProcess("python3", ["-m", "zipfile", "-t", zipPath])
        #expect(python.status == 0, "\(python.stderr)")
        let names = try runProcess("python3", ["-c", "import sys, zipfile; print('|'.join(zipfile.ZipFile(sys.argv[1]).namelist()))", zipPath])
        #expect(String(decoding: names.stdout, as: UTF8.self) == "hello.txt|big|empty|猫 cat.txt\n")
    }

    @Test func streamedEntryHeaderIsPatched() throws {
        let dir = try TemporaryDirectory()
        try writeBytes(Array("123456789".utf8), to: dir.file("nine"))
        let output = try FileOutput(creatingNew: dir.file("a.zip"))
        let zip = ZipWriter(output: output, modified: 1_750_000_000)
        try zip.addFile(name: "nine", contentsOf: dir.file("nine"))
        try zip.finish()
        try output.syncAndClose()
        let bytes = try readBytes(dir.file("a.zip"))
        // Local header: CRC at 14, sizes at 18 and 22.
        #expect(Array(bytes[14..<18]) == [0x26, 0x39, 0xF4, 0xCB])
        #expect(Array(bytes[18..<26]) == [9, 0, 0, 0, 9, 0, 0, 0])
    }

    /// (epoch, year, month, day, hour, minute, second as stored: DOS keeps even seconds)
    @Test(arguments: [
        (Int64(1_709_210_096), [2024, 2, 29, 12, 34, 56]),
        (Int64(0), [1980, 1, 1, 0, 0, 0]), // before DOS time: clamped
        (Int64(946_684_799), [1999, 12, 31, 23, 59, 58]),
    ])
    func dosDateTime(epoch: Int64, parts: [Int]) {
        let result = ZipWriter.dosDateTime(epochSeconds: epoch)
        let date = (parts[0] - 1980) << 9 | parts[1] << 5 | parts[2]
        let time = parts[3] << 11 | parts[4] << 5 | parts[5] / 2
        #expect(Int(result.date) == date)
        #expect(Int(result.time) == time)
    }

    @Test func missingSourceFileThrows() throws {
        let dir = try TemporaryDirectory()
        let output = try FileOutput(creatingNew: dir.file("a.zip"))
        let zip = ZipWriter(output: output, modified: 1_750_000_000)
        #expect(throws: AnkiExportError.self) { try zip.addFile(name: "x", contentsOf: dir.file("missing")) }
    }

    @Test func temporaryFilesAreNeverClobbered() throws {
        let dir = try TemporaryDirectory()
        try writeBytes([1, 2, 3], to: dir.file("taken"))
        #expect(throws: AnkiExportError.self) { _ = try FileOutput(creatingNew: dir.file("taken")) }
        #expect(try readBytes(dir.file("taken")) == [1, 2, 3])
    }
}
