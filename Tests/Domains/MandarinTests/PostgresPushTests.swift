import Foundation
import Mandarin
import PostgresMandarin
import PostgresStore
import SQLiteDB
import TestSupport
import Testing

/// `vocab db push`'s copy of moe.sqlite into PostgreSQL, on the test server.
@Suite("PostgresMandarinDictionary: pushing moe.sqlite")
struct PostgresPushTests {
    /// The sample and the issue-16 cut imported into their own files; the caller removes the folder.
    static func imports() throws -> (TemporaryDirectory, sample: String, other: String) {
        let home = try TemporaryDirectory("moe-push")
        _ = try MOEImporter(databasePath: home.file("sample.sqlite")).importFile(at: Fixture.samplePath)
        _ = try MOEImporter(databasePath: home.file("other.sqlite")).importFile(at: LearnerReadingTests.issue16Path)
        return (home, home.file("sample.sqlite"), home.file("other.sqlite"))
    }

    @Test func aPushCopiesEveryRowWithItsCountsAndAnotherReplacesItWhole() async throws {
        let (home, sample, other) = try Self.imports()
        defer { home.remove() }
        let (dictionary, close) = try await Fixture.pushed(nil)
        do {
            #expect(try await dictionary.counts() == nil)
            let lines = Lines()
            let summary = try await dictionary.push(fromSQLite: sample, progress: { lines.append($0) })
            #expect(summary == MOEPushSummary(entries: Fixture.sampleEntries, heteronyms: Fixture.sampleHeteronyms, definitions: Fixture.sampleDefinitions))
            #expect(lines.all == ["moe: 40 entries copied", "moe: 56 heteronyms copied", "moe: 229 definitions copied"])
            #expect(try await dictionary.counts()! == (40, 56, 229))
            #expect(try await dictionary.lookup("行").first?.readings.count == 4)

            // The other cut has no 行: after its push nothing of the sample is left.
            let replaced = try await dictionary.push(fromSQLite: other)
            #expect(try await dictionary.counts()! == (replaced.entries, replaced.heteronyms, replaced.definitions))
            await #expect(throws: MOEError.self) { try await dictionary.lookup("行") }
            #expect(try await dictionary.lookup("一定").first?.title == "一定")
            #expect(try await dictionary.search(pinyin: "xing", limit: 100).readings.allSatisfy { $0.title != "行" })

            // And the sample again: the same rows as the first time, not twice as many.
            #expect(try await dictionary.push(fromSQLite: sample) == summary)
            #expect(try await dictionary.characters(strokes: 6, limit: 200).characters.map(\.title) == ["休", "好", "汗", "江", "池", "行"])
        } catch {
            await close()
            Issue.record("\(String(reflecting: error))")
            throw error
        }
        await close()
    }

    @Test func aPushThatFailsHalfWayLeavesThePreviousDictionaryWhole() async throws {
        let (home, sample, other) = try Self.imports()
        defer { home.remove() }
        // A sense holding a NUL byte, which PostgreSQL text cannot hold: the COPY of the last
        // table fails after the entries and readings of the new dictionary went in.
        let broken = try Database(path: other, mode: .readWrite)
        try broken.execute("INSERT INTO definition(id, heteronym_id, def) VALUES (1000000, 1, CAST(x'e8a18c00' AS TEXT))")
        let (dictionary, close) = try await Fixture.pushed(sample)
        do {
            await #expect(throws: (any Error).self) { try await dictionary.push(fromSQLite: other) }
            #expect(try await dictionary.counts()! == (40, 56, 229))
            #expect(try await dictionary.lookup("行").first?.readings.map(\.pinyin) == ["xíng", "háng", "xìng", "hàng"])
            await #expect(throws: MOEError.self) { try await dictionary.lookup("一定") }
        } catch {
            await close()
            Issue.record("\(String(reflecting: error))")
            throw error
        }
        await close()
    }

    @Test func withoutAPushEveryQuerySaysSoAndNamesTheCommands() async throws {
        let (dictionary, close) = try await Fixture.pushed(nil)
        do {
            #expect(await dictionary.isAvailable() == false)
            do {
                _ = try await dictionary.lookup("行")
                Issue.record("a dictionary that was never pushed answered")
            } catch let error as MOEError {
                guard case .notPushed(let database) = error else {
                    Issue.record("\(error)")
                    return
                }
                #expect(database == dictionary.database.displayURL)
                #expect(error.description.contains("vocab db push"))
            }
            await #expect(throws: MOEError.self) { try await dictionary.characters(strokes: 6, limit: 10) }
        } catch {
            await close()
            throw error
        }
        await close()
    }

    @Test func importsOfAnotherVersionAreRefusedBeforeAnythingIsDeleted() async throws {
        let (home, sample, _) = try Self.imports()
        defer { home.remove() }
        let (dictionary, close) = try await Fixture.pushed(sample)
        do {
            try home.write("old.sqlite", "not a database")
            await #expect(throws: MOEError.incompatibleDatabase(home.file("old.sqlite"))) {
                try await dictionary.push(fromSQLite: home.file("old.sqlite"))
            }
            await #expect(throws: MOEError.notImported(database: home.file("none.sqlite"))) {
                try await dictionary.push(fromSQLite: home.file("none.sqlite"))
            }
            #expect(try await dictionary.counts()! == (40, 56, 229))
        } catch {
            await close()
            throw error
        }
        await close()
    }
}

/// Progress lines, collected from whichever thread reports them.
final class Lines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }
    func append(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
    }
}
