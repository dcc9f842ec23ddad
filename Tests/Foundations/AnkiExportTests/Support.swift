import Foundation
import Spawning
import Testing

@testable import AnkiExport

/// A fresh directory removed when the value dies; every test gets its own.
final class TemporaryDirectory {
    let path: String

    init() throws {
        let base = FileManager.default.temporaryDirectory.path
        path = "\(base)/anki-export-tests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { "\(path)/\(name)" }

    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }
}

struct ProcessResult {
    let status: Int32
    let stdout: Data
    let stderr: String
}

/// Runs a program found on PATH.
func runProcess(_ program: String, _ arguments: [String]) throws -> ProcessResult {
    let finished = try ChildProcess.run("/usr/bin/env", arguments: [program] + arguments)
    return ProcessResult(status: finished.termination.status, stdout: finished.output, stderr: String(decoding: finished.error, as: UTF8.self))
}

/// A real, playable WAV: 0.1 s of a 440 Hz tone, 8 kHz mono 16-bit PCM.
func tinyWAV(frequency: Double = 440) -> [UInt8] {
    let rate = 8000
    let samples = (0..<rate / 10).map { i in
        Int16(8000 * sin(2 * Double.pi * frequency * Double(i) / Double(rate)))
    }
    var data: [UInt8] = []
    func u32(_ v: UInt32) { data.appendLE(v) }
    func u16(_ v: UInt16) { data.appendLE(v) }
    data += Array("RIFF".utf8)
    u32(UInt32(36 + samples.count * 2))
    data += Array("WAVE".utf8)
    data += Array("fmt ".utf8)
    u32(16)
    u16(1)
    u16(1)
    u32(UInt32(rate))
    u32(UInt32(rate * 2))
    u16(2)
    u16(16)
    data += Array("data".utf8)
    u32(UInt32(samples.count * 2))
    for s in samples { u16(UInt16(bitPattern: s)) }
    return data
}

/// Byte-exact comparison: String's `==` treats canonically equivalent text (NFC/NFD) as equal.
func utf8(_ strings: [String]) -> [[UInt8]] { strings.map { Array($0.utf8) } }

func readBytes(_ path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
}

func writeBytes(_ bytes: [UInt8], to path: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

/// A minimal ZIP reader for the tests: it trusts nothing it can check (signatures, local header
/// against central directory, CRC of every entry) and handles stored entries only.
struct ZipArchiveReader {
    struct Entry: Equatable {
        let name: String
        let flags: UInt16
        let method: UInt16
        let crc: UInt32
        let data: [UInt8]
        let externalAttributes: UInt32
    }

    enum Failure: Error, CustomStringConvertible {
        case malformed(String)
        var description: String {
            if case .malformed(let s) = self { return s }
            return ""
        }
    }

    let entries: [Entry]

    init(bytes: [UInt8]) throws {
        func u16(_ at: Int) throws -> UInt16 {
            guard at >= 0, at + 2 <= bytes.count else { throw Failure.malformed("read past end at \(at)") }
            return UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
        }
        func u32(_ at: Int) throws -> UInt32 {
            UInt32(try u16(at)) | UInt32(try u16(at + 2)) << 16
        }
        let endAt = bytes.count - 22 // no archive comment is written
        guard try u32(endAt) == 0x0605_4B50 else { throw Failure.malformed("no end record") }
        let count = Int(try u16(endAt + 10))
        guard try u16(endAt + 8) == count else { throw Failure.malformed("entry counts differ") }
        let directorySize = Int(try u32(endAt + 12))
        var at = Int(try u32(endAt + 16))
        guard at + directorySize == endAt else { throw Failure.malformed("central directory is not right before the end record") }
        var entries: [Entry] = []
        for _ in 0..<count {
            guard try u32(at) == 0x0201_4B50 else { throw Failure.malformed("bad central header at \(at)") }
            let flags = try u16(at + 8)
            let method = try u16(at + 10)
            let crc = try u32(at + 16)
            let compressed = Int(try u32(at + 20))
            let size = Int(try u32(at + 24))
            let nameLength = Int(try u16(at + 28))
            let extra = Int(try u16(at + 30))
            let comment = Int(try u16(at + 32))
            let external = try u32(at + 38)
            let local = Int(try u32(at + 42))
            let nameBytes = Array(bytes[at + 46..<at + 46 + nameLength])
            at += 46 + nameLength + extra + comment

            guard try u32(local) == 0x0403_4B50 else { throw Failure.malformed("bad local header at \(local)") }
            guard try u16(local + 6) == flags, try u16(local + 8) == method, try u32(local + 14) == crc,
                Int(try u32(local + 18)) == compressed, Int(try u32(local + 22)) == size,
                Array(bytes[local + 30..<local + 30 + nameLength]) == nameBytes
            else { throw Failure.malformed("local header disagrees with central directory for \(nameBytes)") }
            guard method == 0, compressed == size else { throw Failure.malformed("not stored") }
            let start = local + 30 + nameLength + Int(try u16(local + 28))
            let data = Array(bytes[start..<start + size])
            guard CRC32.checksum(data) == crc else { throw Failure.malformed("CRC mismatch") }
            entries.append(
                Entry(
                    name: String(decoding: nameBytes, as: UTF8.self), flags: flags, method: method,
                    crc: crc, data: data, externalAttributes: external))
        }
        self.entries = entries
    }

    subscript(name: String) -> [UInt8]? { entries.first { $0.name == name }?.data }
}

/// The oracle's output (see Scripts/anki_import.py).
struct OracleResult: Decodable {
    struct Log: Decodable, Equatable {
        let new, updated, duplicate, conflicting: Int
        let first_field_match, missing_notetype, missing_deck, empty_first_field: Int
        let found_notes: Int
    }
    struct Note: Decodable {
        let guid: String
        let fields: [String]
        let tags: [String]
        let notetype: String
        let mtime: Int64
        let csum: Int64
        let sfld: String
    }
    struct Card: Decodable {
        let guid: String
        let ord: Int
        let deck: String
        let type: Int
        let queue: Int
        let due: Int
    }
    struct NoteType: Decodable {
        let name: String
        let fields: [String]
    }
    struct MediaCheck: Decodable {
        let missing: [String]
        let unused: [String]
    }
    struct Integrity: Decodable {
        let ok: Bool
        let problems: [String]
    }
    struct CSVMetadata: Decodable {
        let delimiter: String
        let is_html: Bool
        let column_labels: [String]
        let guid_column: Int
        let tags_column: Int
        let deck_id: Int64?
        let deck_name: String?
        let notetype: String?
        let field_columns: [Int]
    }

    let log: Log
    let note_count: Int
    let card_count: Int
    let notes: [Note]
    let cards: [Card]
    let decks: [String]
    let notetypes: [NoteType]
    let media_files: [String]
    let media_check: MediaCheck
    let integrity: Integrity
    let csv_metadata: CSVMetadata?

    func note(_ guid: String) -> Note? { notes.first { $0.guid == guid } }
}

enum AnkiOracle {
    static let script: String = {
        let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        return here.appendingPathComponent("Scripts/anki_import.py").path
    }()

    /// Imports `file` into the collection at `collection` (created on first use) with the
    /// official `anki` package.
    static func importFile(
        _ kind: String, _ file: String, collection: String,
        extra: [String] = []
    ) throws -> OracleResult {
        let result = try runProcess("python3", [script, kind, file, "--collection", collection] + extra)
        guard result.status == 0 else {
            Issue.record("anki_import.py failed (\(result.status)): \(result.stderr)")
            throw ZipArchiveReader.Failure.malformed("oracle failed")
        }
        // Opt-in record of what Anki said, for reading when a test fails or for a report.
        if let log = ProcessInfo.processInfo.environment["ANKI_ORACLE_LOG"],
            let handle = FileHandle(forWritingAtPath: log)
                ?? {
                    _ = FileManager.default.createFile(atPath: log, contents: nil)
                    return FileHandle(forWritingAtPath: log)
                }()
        {
            handle.seekToEndOfFile()
            handle.write(Data("== \(kind) \(URL(fileURLWithPath: file).lastPathComponent)\n".utf8) + result.stdout)
            if !result.stderr.isEmpty { handle.write(Data("-- stderr:\n\(result.stderr)\n".utf8)) }
            handle.closeFile()
        }
        do {
            return try JSONDecoder().decode(OracleResult.self, from: result.stdout)
        } catch {
            Issue.record("cannot decode oracle output: \(String(decoding: result.stdout, as: UTF8.self))")
            throw error
        }
    }
}
