import Foundation
import TestSupport
import Testing

/// Issue 32 item 2, at the terminal: the vocab home on a real file system of 4 MiB (tmpfs) filled
/// to its last page. Before, every command exited 74 with "SQLite error 10: disk I/O error" (a
/// reader could not make the log index of user.sqlite or cache.sqlite), and an edited category
/// with no room for the rebuild failed every command with a truncated SQL fragment.
@Suite("A full disk at the terminal: reads go on, writes say the disk is full (exit 75)", .serialized)
struct FullDiskTests {
    /// The words of the real animals category, to save one after another until the disk refuses.
    static let animals = [
        "dog", "bird", "fish", "horse", "lion", "bear", "bee", "chicken", "cow", "duck", "elephant",
        "frog", "giraffe", "goat", "hippo", "jellyfish", "lizard", "monkey", "mouse", "sheep", "snake",
        "spider", "tiger", "zebra", "whale", "crocodile", "kangaroo", "parrot", "penguin", "rabbit",
    ]

    @Test func commandsThatOnlyReadKeepWorkingOnAFullDisk() async throws {
        let vocab = try EditableCatalog()
        defer { vocab.dir.remove() }
        let disk = try SmallDisk(at: vocab.home)
        defer { disk.unmount() }
        #expect(try await vocab.run("library", "add", "cat").status == 0)
        #expect(try await vocab.run("words", "animals").status == 0)
        try disk.fill()

        // The launcher answers `words` and `categories` itself; the rest is the full program,
        // asked through the launcher and directly.
        let full = Repository.productsDirectory + "/vocab-full"
        var warned = false
        for (program, args) in [
            (Repository.vocabExecutable, ["words", "animals", "--limit", "3"]),
            (Repository.vocabExecutable, ["categories"]),
            (full, ["words", "animals", "--level", "movers"]),
            (Repository.vocabExecutable, ["words", "food-and-drink", "--level", "flyers"]),
            (Repository.vocabExecutable, ["show", "cat"]),
            (Repository.vocabExecutable, ["library", "list"]),
            (full, ["library", "list"]),
            (Repository.vocabExecutable, ["stats"]),
        ] {
            let r = try await runProcessOnThread(program, args, environment: vocab.environment)
            #expect(r.status == 0, "\(args): \(r.stderr)")
            #expect(!r.stderr.contains("SQLite") && !r.stderr.contains("I/O"), "\(args): \(r.stderr)")
            if !r.stderr.isEmpty { #expect(r.stderr.contains("the disk is full"), "a warning names the problem: \(r.stderr)") }
            warned = warned || r.stderr.contains("the disk is full")
        }
        #expect(warned, "a query whose answer could not be cached says the disk is full")
        #expect(try await vocab.run("words", "animals", "--limit", "3").stdout.contains("animal"))
        #expect(try await vocab.run("show", "cat").stdout.contains("con mèo"))
        #expect(try await vocab.run("library", "list").stdout.contains("cat"))

        // Writes: the log may still have room for a few, taken from its earlier length; then the
        // disk refuses, and the command says so in those words with EX_TEMPFAIL, storing nothing.
        var refused: (word: String, result: ProcessResult)?
        for word in Self.animals {
            let r = try await vocab.run("library", "add", word)
            if r.status != 0 {
                refused = (word, r)
                break
            }
        }
        let (word, refusal) = try #require(refused, "the disk refused a write")
        #expect(refusal.status == 75, "\(refusal.stderr)")
        #expect(refusal.stderr.hasPrefix("vocab: the disk is full, so nothing was stored"), "\(refusal.stderr)")
        #expect(!refusal.stderr.contains("SQLite"), "\(refusal.stderr)")
        let listed = try await vocab.run("library", "list", "--json")
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(!Self.savedWords(listed.stdout).contains(word), "nothing of the refused write was stored")

        disk.free()
        let again = try await vocab.run("library", "add", word)
        #expect(again.status == 0, "with space again the same command succeeds: \(again.stderr)")
        #expect(Self.savedWords(try await vocab.run("library", "list", "--json").stdout).contains(word))
        #expect(try integrity(of: vocab.home + "/user.sqlite") == "ok")
    }

    @Test func anEditedCategoryWithNoRoomToRebuildKeepsTheLastGoodCatalog() async throws {
        let vocab = try EditableCatalog()
        defer { vocab.dir.remove() }
        // Room for two catalogs (2.6 MB each) once the filler goes: the old one and its rebuild.
        let disk = try SmallDisk(at: vocab.home, size: "8m")
        defer { disk.unmount() }
        #expect(try await vocab.run("index").status == 0)
        #expect(try await vocab.run("library", "add", "black").status == 0)
        try disk.fill()
        try vocab.edit("colours.json") { $0.replacingOccurrences(of: "\"vi\": \"màu đen\"", with: "\"vi\": \"màu đen tuyền\"") }

        for args in [["show", "black"], ["words", "colours"], ["categories"], ["library", "list"]] {
            let r = try await vocab.run(args)
            #expect(r.status == 0, "\(args): \(r.stderr)")
            #expect(
                r.stderr.contains("the category files changed, but the disk is full, so the catalog cannot be rebuilt: the last good catalog is used"),
                "\(args): \(r.stderr)")
            #expect(!r.stderr.contains("SQLite") && !r.stderr.contains("(in:"), "no SQL in messages: \(r.stderr)")
        }
        let show = try await vocab.run("show", "black")
        #expect(show.stdout.contains("màu đen") && !show.stdout.contains("tuyền"), "the last good data: \(show.stdout)")
        #expect(!contents(of: vocab.home).contains { $0.contains("building") }, "no half-built catalog is left: \(contents(of: vocab.home))")
        #expect(try integrity(of: vocab.catalog) == "ok")

        disk.free()
        let rebuilt = try await vocab.run("show", "black")
        #expect(rebuilt.status == 0 && rebuilt.stdout.contains("màu đen tuyền"), "with space the edit is served: \(rebuilt.stdout) \(rebuilt.stderr)")
        #expect(rebuilt.stderr.contains("indexed"), "\(rebuilt.stderr)")
    }

    /// Issue 42: `vocab say` and `vocab import moe` on a full disk exited 74 with "No space left
    /// on device" and "SQLite error 13"; now every writer of clips and dictionaries says what a
    /// rating says (exit 75, the disk is full), and a clip made before is still said.
    @Test func clipsAndTheDictionaryOnAFullDiskSayTheDiskIsFull() async throws {
        let vocab = try EditableCatalog()
        defer { vocab.dir.remove() }
        let disk = try SmallDisk(at: vocab.home, size: "8m")
        defer { disk.unmount() }
        let made = try await vocab.run("say", "cat", "--accent", "american")
        #expect(made.status == 0, "\(made.stderr)")
        try disk.fill()

        let again = try await vocab.run("say", "cat", "--accent", "american")
        #expect(again.status == 0 && again.stdout.contains("cat (american)"), "a clip made before: \(again.stdout) \(again.stderr)")
        let say = try await vocab.run("say", "dog", "--accent", "american")
        #expect(say.status == 75, "\(say.stderr)")
        #expect(say.stderr.hasPrefix("vocab: the disk is full, so nothing was stored"), "\(say.stderr)")
        let render = try await vocab.run("render", "--category", "colours", "--level", "starters", "--accent", "american", "--out", vocab.home + "/clips")
        #expect(render.status == 75, "\(render.stderr)")
        #expect(render.stderr.contains("vocab: the disk is full: 0 of "), "\(render.stderr)")
        let moe = try await vocab.run("import", "moe", Repository.moeSample)
        #expect(moe.status == 75, "\(moe.stderr)")
        #expect(moe.stderr.contains("the disk is full, so nothing was imported"), "\(moe.stderr)")
        for r in [say, render, moe] {
            #expect(!r.stderr.contains("SQLite") && !r.stderr.contains("No space left on device"), "the failure in the user's words: \(r.stderr)")
        }
        #expect(!contents(of: vocab.home).contains { $0.contains("writing") || $0.contains("importing") }, "nothing half-written: \(contents(of: vocab.home))")

        disk.free()
        let stored = try await vocab.run("say", "dog", "--accent", "american")
        #expect(stored.status == 0, "with space again: \(stored.stderr)")
        #expect(try await vocab.run("import", "moe", Repository.moeSample).status == 0)
    }

    static func savedWords(_ json: String) -> [String] {
        let body = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return (body?["items"] as? [[String: Any]])?.compactMap { $0["word"] as? String } ?? []
    }
}
