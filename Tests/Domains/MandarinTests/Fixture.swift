import Foundation
import JSONReading
import PostgresMandarin
import PostgresStore
import TestSupport
import Testing

@testable import Mandarin

/// The committed cut of real dictionary entries, and helpers to import it or inline JSON.
enum Fixture {
    static var samplePath: String {
        Bundle.module.resourceURL!.appendingPathComponent("Fixtures/dict-revised-sample.json").path
    }

    static let sampleEntries = 40
    static let sampleHeteronyms = 56
    static let sampleDefinitions = 229

    /// A fresh home folder with the sample imported; the caller removes it.
    static func importedSample() throws -> (TemporaryDirectory, MOEDictionary) {
        let home = try TemporaryDirectory("moe")
        _ = try MOEImporter(databasePath: home.file("moe.sqlite")).importFile(at: samplePath)
        return (home, try MOEDictionary(path: home.file("moe.sqlite")))
    }

    /// Runs `body` on a dictionary imported from `file` (the sample by default): moe.sqlite
    /// itself, or a fresh database on the test PostgreSQL server that the import was pushed to.
    static func withDictionary(
        _ engine: StorageEngine, importing file: String = samplePath,
        _ body: (any MandarinDictionary) async throws -> Void
    ) async throws {
        let home = try TemporaryDirectory("moe")
        defer { home.remove() }
        _ = try MOEImporter(databasePath: home.file("moe.sqlite")).importFile(at: file)
        switch engine {
        case .sqlite:
            try await body(SQLiteMandarinDictionary(path: home.file("moe.sqlite")))
        case .postgres:
            let (dictionary, close) = try await pushed(home.file("moe.sqlite"))
            do { try await body(dictionary) } catch {
                await close()
                // PostgresNIO keeps the server's message out of the error's description.
                Issue.record("\(String(reflecting: error))")
                throw error
            }
            await close()
        }
    }

    /// A fresh database with the dictionary schema, and `path` pushed into it unless nil.
    static func pushed(_ path: String?) async throws -> (PostgresMandarinDictionary, @Sendable () async -> Void) {
        let url = try TestPostgres.shared().createDatabase("moe")
        let pool = try PostgresPool(url: url, maximumConnections: 4)
        pool.start()
        do {
            try await PostgresMandarinDictionary.migrator.migrate(pool)
            let dictionary = PostgresMandarinDictionary(database: pool)
            if let path { _ = try await dictionary.push(fromSQLite: path) }
            return (dictionary, { await pool.shutdown() })
        } catch {
            await pool.shutdown()
            throw error
        }
    }

    /// Runs `body` with the UTF-8 bytes of `text`.
    static func withBytes<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try withBytes(Array(text.utf8), body)
    }

    static func withBytes<R>(_ bytes: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try bytes.withUnsafeBufferPointer(body)
    }

    /// The error `body` throws, as a JSONError, with its line and column in `bytes`.
    static func jsonError(_ bytes: [UInt8], _ body: (inout JSONReader) throws -> Void) -> (JSONError, SourcePosition)? {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = JSONReader(buffer)
            do {
                try body(&reader)
                return nil
            } catch let error as JSONError {
                return (error, SourcePosition(offset: error.offset, in: buffer))
            } catch {
                return nil
            }
        }
    }

    /// Entries of a small document, one line each, wrapped in an array.
    static func document(_ entries: String...) -> String { "[" + entries.joined(separator: ",\n") + "]" }
}

/// Collects what the reader hands over, decoded to Strings for easy comparison.
struct RecordingSink: DictionarySink {
    struct Entry: Equatable {
        var id: Int64
        var title: String
        var radical: String?
        var strokes: Int64?
        var rest: Int64?
    }
    struct Heteronym: Equatable {
        var id: Int64
        var entryID: Int64
        var pinyin: String?
        var bopomofo: String?
    }
    struct Definition: Equatable {
        var id: Int64
        var heteronymID: Int64
        var text: String?
        var type: String?
        var examples: String?
        var quotes: String?
        var links: String?
        var synonyms: String?
        var antonyms: String?
    }

    var entries: [Entry] = []
    var heteronyms: [Heteronym] = []
    var definitions: [Definition] = []

    mutating func entry(_ r: EntryRecord) throws {
        entries.append(
            Entry(
                id: r.id, title: r.title?.string ?? "", radical: r.radical?.string,
                strokes: r.strokeCount, rest: r.nonRadicalStrokeCount))
    }

    mutating func heteronym(_ r: HeteronymRecord) throws {
        heteronyms.append(Heteronym(id: r.id, entryID: r.entryID, pinyin: r.pinyin?.string, bopomofo: r.bopomofo?.string))
    }

    mutating func definition(_ r: DefinitionRecord) throws {
        func json(_ list: JSONList) -> String? { list.count == 0 ? nil : String(decoding: list.bytes, as: UTF8.self) }
        definitions.append(
            Definition(
                id: r.id, heteronymID: r.heteronymID, text: r.text?.string, type: r.type?.string,
                examples: json(r.examples), quotes: json(r.quotes), links: json(r.links),
                synonyms: json(r.synonyms), antonyms: json(r.antonyms)))
    }

    /// Reads `text` as a dictionary document.
    static func read(_ text: String) throws -> RecordingSink {
        var sink = RecordingSink()
        try Fixture.withBytes(text) { bytes in
            var reader = DictionaryReader()
            try reader.read(bytes, into: &sink)
        }
        return sink
    }
}
