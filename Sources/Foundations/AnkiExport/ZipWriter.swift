import CivilDate

/// A ZIP writer for stored (uncompressed) entries. Stored is enough: media is already
/// compressed audio, and every unzip and Anki read it. No ZIP64, so each entry, the whole
/// archive and the entry count must stay under the 32/16-bit limits; exceeding them throws.
final class ZipWriter {
    private struct Entry {
        let name: [UInt8]
        let crc: UInt32
        let size: UInt32
        let headerOffset: UInt32
    }

    private let output: FileOutput
    private let dosTime: UInt16
    private let dosDate: UInt16
    private var entries: [Entry] = []

    /// General purpose flag bit 11: names are UTF-8 (APPNOTE 4.4.4), so non-ASCII names survive.
    private static let utf8Flag: UInt16 = 1 << 11
    private static let versionNeeded: UInt16 = 10 // 1.0: stored entries only
    /// Upper byte 3 = Unix, so the external attributes below are read as a file mode.
    private static let versionMadeBy: UInt16 = 3 << 8 | 20
    private static let regularFileMode: UInt32 = 0o100644 << 16

    /// `modified` (epoch seconds, UTC) stamps every entry, so output depends only on the input.
    init(output: FileOutput, modified: Int64) {
        self.output = output
        (dosTime, dosDate) = Self.dosDateTime(epochSeconds: modified)
    }

    func addFile(name: String, bytes: [UInt8]) throws {
        let size = try checkedUInt32(UInt64(bytes.count), "entry \(name)")
        let headerOffset = try checkedUInt32(output.offset, "archive before \(name)")
        let crc = CRC32.checksum(bytes)
        let nameBytes = Array(name.utf8)
        try output.write(localHeader(name: nameBytes, crc: crc, size: size))
        try output.write(bytes)
        entries.append(Entry(name: nameBytes, crc: crc, size: size, headerOffset: headerOffset))
    }

    /// Streams a file: the local header is written with zero CRC and sizes, then patched once
    /// the data has been copied, which avoids both reading the file twice and data descriptors.
    func addFile(name: String, contentsOf path: String) throws {
        let headerOffset = try checkedUInt32(output.offset, "archive before \(name)")
        let nameBytes = Array(name.utf8)
        try output.write(localHeader(name: nameBytes, crc: 0, size: 0))
        let input = try FileInput(path: path)
        var crc = CRC32()
        var total: UInt64 = 0
        try input.forEachChunk { chunk in
            crc.update(chunk)
            total += UInt64(chunk.count)
            _ = try checkedUInt32(total, "entry \(name)")
            try output.write(chunk)
        }
        let size = UInt32(total)
        var fields: [UInt8] = []
        fields.appendLE(crc.value)
        fields.appendLE(size)
        fields.appendLE(size)
        try output.patch(fields, at: UInt64(headerOffset) + 14)
        entries.append(Entry(name: nameBytes, crc: crc.value, size: size, headerOffset: headerOffset))
    }

    /// Writes the central directory and the end record; the archive is complete afterwards.
    func finish() throws {
        guard entries.count <= 0xFFFF else { throw AnkiExportError.tooLargeForZip("\(entries.count) entries") }
        let directoryOffset = try checkedUInt32(output.offset, "archive before the central directory")
        var directory: [UInt8] = []
        for entry in entries {
            directory.appendLE(UInt32(0x0201_4B50))
            directory.appendLE(Self.versionMadeBy)
            directory.appendLE(Self.versionNeeded)
            directory.appendLE(Self.utf8Flag)
            directory.appendLE(UInt16(0)) // stored
            directory.appendLE(dosTime)
            directory.appendLE(dosDate)
            directory.appendLE(entry.crc)
            directory.appendLE(entry.size) // compressed
            directory.appendLE(entry.size) // uncompressed
            directory.appendLE(UInt16(entry.name.count))
            directory.appendLE(UInt16(0)) // extra field length
            directory.appendLE(UInt16(0)) // comment length
            directory.appendLE(UInt16(0)) // disk number start
            directory.appendLE(UInt16(0)) // internal attributes
            directory.appendLE(Self.regularFileMode)
            directory.appendLE(entry.headerOffset)
            directory += entry.name
        }
        let directorySize = try checkedUInt32(UInt64(directory.count), "central directory")
        _ = try checkedUInt32(UInt64(directoryOffset) + UInt64(directorySize), "archive")
        try output.write(directory)

        var end: [UInt8] = []
        end.appendLE(UInt32(0x0605_4B50))
        end.appendLE(UInt16(0)) // this disk
        end.appendLE(UInt16(0)) // disk with the central directory
        end.appendLE(UInt16(entries.count))
        end.appendLE(UInt16(entries.count))
        end.appendLE(directorySize)
        end.appendLE(directoryOffset)
        end.appendLE(UInt16(0)) // comment length
        try output.write(end)
    }

    private func localHeader(name: [UInt8], crc: UInt32, size: UInt32) throws -> [UInt8] {
        guard name.count <= 0xFFFF else { throw AnkiExportError.tooLargeForZip("entry name") }
        var header: [UInt8] = []
        header.appendLE(UInt32(0x0403_4B50))
        header.appendLE(Self.versionNeeded)
        header.appendLE(Self.utf8Flag)
        header.appendLE(UInt16(0)) // stored
        header.appendLE(dosTime)
        header.appendLE(dosDate)
        header.appendLE(crc) // offset 14: patched by the streaming path
        header.appendLE(size)
        header.appendLE(size)
        header.appendLE(UInt16(name.count))
        header.appendLE(UInt16(0))
        header += name
        return header
    }

    private func checkedUInt32(_ value: UInt64, _ what: String) throws -> UInt32 {
        guard value <= UInt64(UInt32.max) else { throw AnkiExportError.tooLargeForZip(what) }
        return UInt32(value)
    }

    /// MS-DOS date and time (2-second resolution, years 1980–2107), computed from the epoch
    /// without the calendar APIs so that the local time zone cannot change the output.
    static func dosDateTime(epochSeconds: Int64) -> (time: UInt16, date: UInt16) {
        let clamped = min(max(epochSeconds, 315_532_800), 4_354_819_198) // 1980-01-01 … 2107-12-31
        let days = clamped / 86_400
        let secondsOfDay = clamped % 86_400
        let (year, month, day) = CivilDate.of(day: Int(days))
        let time = UInt16(secondsOfDay / 3600) << 11 | UInt16(secondsOfDay % 3600 / 60) << 5 | UInt16(secondsOfDay % 60 / 2)
        let date = UInt16(year - 1980) << 9 | UInt16(month) << 5 | UInt16(day)
        return (time, date)
    }
}

extension Array where Element == UInt8 {
    mutating func appendLE(_ value: UInt16) {
        append(UInt8(truncatingIfNeeded: value))
        append(UInt8(truncatingIfNeeded: value >> 8))
    }

    mutating func appendLE(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }
}
