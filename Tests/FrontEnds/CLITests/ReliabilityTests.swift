import Foundation
import SQLiteDB
import TestSupport
import Testing

/// A home folder and a private copy of the real Categories/, so a test may edit category files.
struct EditableCatalog {
    let dir: TemporaryDirectory
    var home: String { dir.file("home") }
    var categories: String { dir.file("Categories") }
    var catalog: String { home + "/catalog.sqlite" }
    var environment: [String: String] { ["VOCAB_HOME": home, "VOCAB_CATEGORIES": categories, "VOCAB_AUDIO": dir.file("Audio")] }

    init() throws {
        dir = try TemporaryDirectory("cli-reliability")
        try FileManager.default.copyItem(atPath: Repository.categories, toPath: categories)
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    }

    /// Runs the built `vocab`, waiting on a thread of its own (see `runProcessOnThread`).
    func run(_ args: String...) async throws -> ProcessResult { try await run(args) }

    func run(_ args: [String]) async throws -> ProcessResult {
        try await runProcessOnThread(Repository.vocabExecutable, args, environment: environment)
    }

    /// Rewrites one category file through `edit` (its text in, new text out).
    func edit(_ file: String, _ edit: (String) -> String) throws {
        let path = categories + "/" + file
        try Data(edit(try String(contentsOfFile: path, encoding: .utf8)).utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Sets a file's modification time without changing its bytes (what `touch` does).
    func touch(_ file: String, secondsAhead: Double = 5) throws {
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(secondsAhead)],
            ofItemAtPath: categories + "/" + file)
    }
}

/// SQLite's own verdict on a database file: "ok", or what is wrong with it.
func integrity(of path: String) throws -> String {
    let database = try Database(path: path, mode: .readOnly)
    let rows = try database.query("PRAGMA integrity_check") { $0.text(0) ?? "" }
    return rows.joined(separator: "; ")
}

/// What an older vocab left: the database switched to WAL mode by a connection of its own,
/// with written frames in `-wal` that belong to this file as it is now. A new file renamed
/// over it must never be read together with them.
func leaveWriteAheadLog(beside path: String) throws {
    let wal = path + "-wal"
    let saved = path + ".saved-wal"
    do {
        let database = try Database(path: path, mode: .readWrite)
        try database.execute("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;")
        try database.execute("CREATE TABLE older_version(x); INSERT INTO older_version VALUES (randomblob(300000));")
        try database.execute("UPDATE documents SET body = body")
        // Copied while the connection is open, before closing checkpoints and removes it.
        try FileManager.default.copyItem(atPath: wal, toPath: saved)
    }
    try? FileManager.default.removeItem(atPath: wal)
    try FileManager.default.moveItem(atPath: saved, toPath: wal)
    #expect(((try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0) > 300_000, "the log holds the frames")
}

/// A process id that is certainly not running: one of a child that has exited.
func deadProcessID() throws -> Int32 {
    let process = try ChildProcess.start("/bin/true", arguments: [])
    process.waitUntilExit()
    return process.pid
}

/// A process that keeps running until the returned closure stops it.
func liveProcess() throws -> (pid: Int32, stop: () -> Void) {
    let process = try ChildProcess.start("/bin/sleep", arguments: ["600"])
    return (
        process.pid,
        {
            process.signal(SIGKILL)
            process.waitUntilExit()
        }
    )
}

func fileExists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

func contents(of folder: String) -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() }

@Suite("Hardening (issue #11): the built program under edits, kills, concurrency and hostile input", .serialized)
struct ReliabilityTests {
    // MARK: 1. replacing a database never meets a stale write-ahead log

    /// The issue's reproduction, 10 of 10 runs before the fix: index, touch a file, list, edit
    /// another, show → "database disk image is malformed".
    @Test func aCatalogEditAfterATouchIsServedIntact() async throws {
        let vocab = try EditableCatalog()
        defer { vocab.dir.remove() }
        #expect(try await vocab.run("index").status == 0)
        try vocab.touch("animals.json")
        let words = try await vocab.run("words", "animals")
        #expect(words.status == 0 && words.stdout.contains("cat"), "\(words.stderr)")
        try vocab.edit("colours.json") { $0.replacingOccurrences(of: "\"vi\": \"màu đen\"", with: "\"vi\": \"màu đen tuyền\"") }
        let show = try await vocab.run("show", "black")
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.contains("màu đen tuyền"), "the edit is served: \(show.stdout)")
        #expect(show.stderr.contains("indexed"), "the edit rebuilt the catalog: \(show.stderr)")
        #expect(try integrity(of: vocab.catalog) == "ok")
        #expect(!fileExists(vocab.catalog + "-wal"), "the catalog is never written after its build, so it has no log")
        #expect(try await vocab.run("say", "black", "--tier", "tts", "-o", vocab.dir.file("black.wav")).status == 0)
        #expect(try await vocab.run("library", "add", "black").status == 0)
    }

    /// Issue 32: an edit that keeps the size and puts the old mtime back (`cp -p`, `rsync -t`,
    /// `touch -r`) was not seen until `vocab index`.
    @Test func aSameSizeEditWithTheOldModificationTimeIsSeen() async throws {
        let vocab = try EditableCatalog()
        defer { vocab.dir.remove() }
        #expect(try await vocab.run("index").status == 0)
        let path = vocab.categories + "/colours.json"
        var before = stat()
        #expect(stat(path, &before) == 0)
        // One letter for another of the same length in UTF-8.
        try vocab.edit("colours.json") { $0.replacingOccurrences(of: "\"vi\": \"màu đen\"", with: "\"vi\": \"màu đan\"") }
        var after = stat()
        #expect(stat(path, &after) == 0 && after.st_size == before.st_size, "the edit keeps the size")
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0, "the old modification time is put back, as touch -r does")
        let show = try await vocab.run("show", "black")
        #expect(show.status == 0 && show.stdout.contains("màu đan"), "the edit is served: \(show.stdout)")
    }

    @Test func aStaleLogFromAnOlderVersionNeverMeetsARebuiltCatalog() async throws {
        let vocab = try EditableCatalog()
        defer { vocab.dir.remove() }
        #expect(try await vocab.run("index").status == 0)
        try leaveWriteAheadLog(beside: vocab.catalog)
        // An edit rebuilds the catalog; the old file's log must go with the old file.
        try vocab.edit("colours.json") { $0.replacingOccurrences(of: "\"vi\": \"màu đen\"", with: "\"vi\": \"màu đen tuyền\"") }
        let show = try await vocab.run("show", "black")
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.contains("màu đen tuyền"))
        #expect(try integrity(of: vocab.catalog) == "ok")
        #expect(!fileExists(vocab.catalog + "-wal"))
        let words = try await vocab.run("words", "animals", "--json")
        #expect(words.status == 0, "\(words.stderr)")

        // And `vocab index` on a home left that way repairs it rather than meeting the log.
        try leaveWriteAheadLog(beside: vocab.catalog)
        let index = try await vocab.run("index")
        #expect(index.status == 0, "\(index.stderr)")
        #expect(try integrity(of: vocab.catalog) == "ok")
        #expect(!fileExists(vocab.catalog + "-wal") && !fileExists(vocab.catalog + "-shm"))
        #expect(try await vocab.run("show", "black").stdout.contains("màu đen tuyền"))
    }

    /// The same for the MOE dictionary, which is also built aside and renamed into place.
    @Test func aStaleLogNeverMeetsAReimportedDictionary() async throws {
        let vocab = try EditableCatalog()
        defer { vocab.dir.remove() }
        let sample = Repository.root + "/Tests/Domains/MandarinTests/Fixtures/dict-revised-sample.json"
        #expect(try await vocab.run("import", "moe", sample).status == 0)
        let moe = vocab.home + "/moe.sqlite"
        do {
            // The dictionary has no `documents` table: frames of its own kind.
            let database = try Database(path: moe, mode: .readWrite)
            try database.execute("PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0;")
            try database.execute("CREATE TABLE older_version(x); INSERT INTO older_version VALUES (randomblob(300000));")
            try FileManager.default.copyItem(atPath: moe + "-wal", toPath: moe + ".saved-wal")
        }
        try? FileManager.default.removeItem(atPath: moe + "-wal")
        try FileManager.default.moveItem(atPath: moe + ".saved-wal", toPath: moe + "-wal")
        // A different dictionary this time (the last 20 entries, as few as an import accepts
        // without --force), so old pages cannot pass for new ones.
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sample))) as? [[String: Any]])
        let smaller = vocab.dir.file("smaller.json")
        try JSONSerialization.data(withJSONObject: Array(entries.suffix(20))).write(to: URL(fileURLWithPath: smaller))
        let reimport = try await vocab.run("import", "moe", smaller)
        #expect(reimport.status == 0, "\(reimport.stderr)")
        #expect(reimport.stdout.hasPrefix("Imported 20 entries"), "\(reimport.stdout)")
        #expect(try integrity(of: moe) == "ok")
        #expect(!fileExists(moe + "-wal"))
        let title = try #require(entries.last?["title"] as? String)
        let lookup = try await vocab.run("lookup", title)
        #expect(lookup.status == 0, "\(lookup.stderr)")
        let gone = try #require(entries.first?["title"] as? String)
        #expect(try await vocab.run("lookup", gone).status == 1, "the earlier dictionary was replaced whole")
    }

    // MARK: 4. concurrent writers wait for each other

    @Test func concurrentLibraryAddsOnANewHomeAllSucceed() async throws {
        let words = ["cat", "dog", "bird", "fish", "horse", "lion", "apple", "cake"]
        for round in 1...3 {
            let vocab = try EditableCatalog()
            defer { vocab.dir.remove() }
            let results = try await withThrowingTaskGroup(of: (String, ProcessResult).self) { group in
                for word in words { group.addTask { (word, try await vocab.run("library", "add", word)) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(results.count == words.count)
            for (word, r) in results {
                #expect(r.status == 0, "round \(round), \(word): \(r.stderr)")
            }
            let list = try await vocab.run("library", "list", "--json")
            let body = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any]
            let saved = (body?["items"] as? [[String: Any]])?.compactMap { $0["word"] as? String }
            #expect(Set(saved ?? []) == Set(words), "round \(round)")
            #expect(try integrity(of: vocab.home + "/user.sqlite") == "ok")
        }
    }

    // MARK: 5. invalid category files: the last good catalog, with a warning

    /// Issue 32 item 1: a FIFO, a folder or a link to nothing in place of a category file, or
    /// an extra FIFO named like one, made every command exit 1 with a raw message (a FIFO
    /// could block for ever); now each is named and the last good catalog is served.
    @Test(arguments: ["fifo", "folder", "dangling link", "extra fifo", "huge"])
    func entriesThatAreNotCategoryFilesKeepTheLastGoodCatalog(_ kind: String) async throws {
        let vocab = try EditableCatalog()
        defer { vocab.dir.remove() }
        #expect(try await vocab.run("index").status == 0)
        let colours = vocab.categories + "/colours.json"
        let extra = vocab.categories + "/extra.json"
        switch kind {
        case "fifo":
            unlink(colours)
            #expect(mkfifo(colours, 0o644) == 0)
        case "folder":
            unlink(colours)
            #expect(mkdir(colours, 0o755) == 0)
        case "dangling link":
            unlink(colours)
            #expect(symlink(vocab.dir.file("nowhere.json"), colours) == 0)
        case "extra fifo": #expect(mkfifo(extra, 0o644) == 0)
        default: #expect(FileManager.default.createFile(atPath: extra, contents: nil) && truncate(extra, 64 << 20) == 0)
        }
        let named = kind.hasPrefix("extra") || kind == "huge" ? "extra.json" : "colours.json"
        for args in [["words", "animals"], ["library", "list"], ["categories"]] {
            let r = try await vocab.run(args)
            #expect(r.status == 0, "\(kind), \(args): \(r.stderr)")
            #expect(r.stderr.contains("last good catalog") && r.stderr.contains(named), "\(kind), \(args): \(r.stderr)")
            #expect(!r.stderr.contains(".."), "one full stop at a sentence's end: \(r.stderr)")
        }
        let validate = try await vocab.run("validate")
        #expect(validate.status == 65 && validate.stdout.contains(named), "\(kind): \(validate.stdout) \(validate.stderr)")
    }

    /// Issue 43: a category file vocab may not read (mode 000) was reported as a raw Foundation
    /// error, and as another sentence when its `stat` failed; now as any file error, once. Root
    /// reads every file, so as root the check runs as `nobody`.
    @Test func aFileVocabMayNotReadIsNamedWithTheSystemsReason() async throws {
        let vocab = try EditableCatalog()
        defer { vocab.dir.remove() }
        let colours = vocab.categories + "/colours.json"
        #expect(chmod(colours, 0) == 0)
        #expect(chmod(vocab.dir.path, 0o755) == 0 && chmod(vocab.categories, 0o755) == 0)
        let arguments = ["validate", "--categories", vocab.categories, "--home", vocab.home]
        let validate =
            getuid() == 0
            ? try await runProcessOnThread("/usr/sbin/runuser", ["-u", "nobody", "--", Repository.vocabExecutable] + arguments)
            : try await runProcessOnThread(Repository.vocabExecutable, arguments)
        #expect(validate.status == 65, "\(validate.stdout) \(validate.stderr)")
        #expect(validate.stdout.contains("colours.json: cannot be read: Permission denied."), "\(validate.stdout) \(validate.stderr)")
        #expect(!validate.stdout.contains("NSCocoaErrorDomain") && !validate.stdout.contains("colours.json: colours.json"), "\(validate.stdout)")
    }

    /// Issue 32 item 4: a 64 MB translation passed `validate`, and every later command re-indexed
    /// it for 20 s. A field has at most 1,000 characters (the longest real one has 116); a longer
    /// one is named, and the last good catalog is served meanwhile.
    @Test func aFieldLongerThanAFieldMayBeIsRefusedAndTheLastGoodCatalogServed() async throws {
        let vocab = try EditableCatalog()
        defer { vocab.dir.remove() }
        #expect(try await vocab.run("index").status == 0)
        let long = String(repeating: "màu đen ", count: 250) // 2,000 characters, 2,750 bytes
        try vocab.edit("colours.json") { $0.replacingOccurrences(of: "\"vi\": \"màu đen\"", with: "\"vi\": \"\(long)\"") }
        let validate = try await vocab.run("validate")
        #expect(validate.status == 65, "\(validate.stdout) \(validate.stderr)")
        #expect(
            validate.stdout.contains("colours.json: word 'black': field 'vi' has 2000 characters, more than the 1000 a field may have"),
            "\(validate.stdout)")
        for args in [["words", "colours"], ["show", "black"]] {
            let r = try await vocab.run(args)
            #expect(r.status == 0 && r.stderr.contains("last good catalog") && r.stderr.contains("colours.json"), "\(args): \(r.stderr)")
        }
        #expect(try await vocab.run("show", "black").stdout.contains("màu đen"), "the last good data")
    }

    @Test func invalidCategoryFilesKeepTheLastGoodCatalogWithAWarning() async throws {
        let vocab = try EditableCatalog()
        defer { vocab.dir.remove() }
        #expect(try await vocab.run("index").status == 0)
        let colours = vocab.categories + "/colours.json"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: colours))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: colours))

        // Through the launcher (`words`) and the full program (`show`) alike.
        for args in [["words", "animals"], ["show", "black"], ["categories"]] {
            let r = try await vocab.run(args)
            #expect(r.status == 0, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("last good catalog") && r.stderr.contains("colours.json"), "\(args): \(r.stderr)")
        }
        #expect(try await vocab.run("words", "animals").stdout.contains("cat"))
        #expect(try await vocab.run("show", "black").stdout.contains("màu đen"), "the last good data")
        let json = try await vocab.run("words", "animals", "--json")
        #expect(json.status == 0 && (try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8))) != nil, "stdout stays clean JSON")

        let index = try await vocab.run("index")
        #expect(index.status == 65)
        #expect(index.stderr.contains("colours.json"), "\(index.stderr)")
        let validate = try await vocab.run("validate")
        #expect(validate.status == 65)
        #expect(validate.stdout.contains("colours.json: invalid JSON"), "\(validate.stdout)")
        #expect(try integrity(of: vocab.catalog) == "ok", "the failed index left the last good catalog alone")
    }

    // MARK: 8. leftovers of killed runs

    @Test func leftoversOfAKilledIndexAreRemovedAndALiveProcessIsLeftAlone() async throws {
        let vocab = try EditableCatalog()
        defer { vocab.dir.remove() }
        #expect(try await vocab.run("index").status == 0)
        let dead = try deadProcessID()
        let live = try liveProcess()
        defer { live.stop() }
        let stale = [
            "catalog.sqlite.building-\(dead)-1a2b", "catalog.sqlite.building-\(dead)-1a2b-journal",
            "catalog.state.writing-\(dead)-3c4d",
        ]
        let running = ["catalog.sqlite.building-\(live.pid)-5e6f"]
        for name in stale + running { try Data("partial".utf8).write(to: URL(fileURLWithPath: vocab.home + "/" + name)) }
        #expect(try await vocab.run("index").status == 0)
        let left = contents(of: vocab.home)
        for name in stale { #expect(!left.contains(name), "\(name) should be gone: \(left)") }
        for name in running { #expect(left.contains(name), "\(name) belongs to a running process") }
    }

    @Test func leftoversOfAKilledImportAreRemovedAndALiveProcessIsLeftAlone() async throws {
        let vocab = try EditableCatalog()
        defer { vocab.dir.remove() }
        let sample = Repository.root + "/Tests/Domains/MandarinTests/Fixtures/dict-revised-sample.json"
        let dead = try deadProcessID()
        let live = try liveProcess()
        defer { live.stop() }
        let stale = ["moe.sqlite.importing-\(dead)-1a2b3c4d", "moe.sqlite.importing-\(dead)-1a2b3c4d-journal"]
        let running = ["moe.sqlite.importing-\(live.pid)-5e6f7a8b"]
        for name in stale + running { try Data("partial".utf8).write(to: URL(fileURLWithPath: vocab.home + "/" + name)) }
        #expect(try await vocab.run("import", "moe", sample).status == 0)
        let left = contents(of: vocab.home)
        for name in stale { #expect(!left.contains(name), "\(name) should be gone: \(left)") }
        for name in running { #expect(left.contains(name), "\(name) belongs to a running process") }
    }

    @Test func leftoversOfAKilledRenderAreRemovedByTheNextRender() async throws {
        let vocab = try EditableCatalog()
        defer { vocab.dir.remove() }
        let out = vocab.dir.file("clips")
        let args = ["render", "--category", "colours", "--level", "starters", "--accent", "british", "--out", out]
        #expect(try await vocab.run(args).status == 0)
        let dead = try deadProcessID()
        let live = try liveProcess()
        defer { live.stop() }
        let folder = out + "/british/catalog/colours"
        let stale = [
            out + "/.render-jobs.worker0-\(dead)-77aa", out + "/.render-jobs.worker1-\(dead)-77ab",
            folder + "/red.wav.writing-\(dead)-88bb", folder + "/red.wav.json.writing-\(dead)-99cc",
            out + "/manifest.json.writing-\(dead)-aadd",
        ]
        let running = [out + "/.render-jobs.worker0-\(live.pid)-77ac", folder + "/blue.wav.writing-\(live.pid)-88bc"]
        for path in stale + running { try Data("partial".utf8).write(to: URL(fileURLWithPath: path)) }
        // Every clip is already there: the run renders nothing and still cleans up.
        let again = try await vocab.run(args)
        #expect(again.status == 0, "\(again.stderr)")
        for path in stale { #expect(!fileExists(path), "\(path) should be gone") }
        for path in running { #expect(fileExists(path), "\(path) belongs to a running process") }
    }

    // MARK: 9. a render killed midway resumes with a complete manifest

    @Test func aRenderKilledMidwayResumesWithEveryClipItsTierAndSource() async throws {
        let vocab = try EditableCatalog()
        defer { vocab.dir.remove() }
        #expect(try await vocab.run("index").status == 0)
        let out = vocab.dir.file("clips")
        // The largest category (1,032 clips, most of a second): a smaller one can finish between
        // two looks at the folder on a busy machine.
        let args = ["render", "--category", "everyday-words", "--accent", "both", "--out", out, "--jobs", "2"]
        var env = ProcessInfo.processInfo.environment
        env["VOCAB_NEURAL_VOICE"] = "off" // espeak-ng's tier and source are checked below
        for (k, v) in vocab.environment { env[k] = v }
        let process = try ChildProcess.start(Repository.vocabExecutable, arguments: args, environment: env)
        // Kill the parent once a few clips are finished, long before all are.
        var finished = 0
        for _ in 0..<3000 where process.isRunning {
            finished = recordCount(out)
            if finished >= 6 { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        process.signal(SIGKILL)
        while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        #expect(process.ended == .killed(signal: SIGKILL), "the render was killed, not finished")
        #expect(!fileExists(out + "/manifest.json"), "a killed run wrote no manifest")
        // Its workers lose their parent's pipe and stop; wait for them so the resume starts clean.
        await waitForProcesses(mentioning: out)

        let resumed = try await vocab.run(args + ["--json"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(resumed.stdout.utf8)) as? [String: Any])
        #expect((report["kept"] as? Int ?? 0) >= 6, "clips finished before the kill are kept: \(report)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))) as? [[String: Any]])
        let category = try #require(
            try JSONSerialization.jsonObject(with: Data(await vocab.run("words", "everyday-words", "--json").stdout.utf8)) as? [String: Any])
        let count = try #require(category["total"] as? Int)
        #expect(manifest.count == count * 2, "every clip is listed")
        for row in manifest {
            #expect(["kept", "rendered"].contains(row["status"] as? String ?? ""), "\(row)")
            #expect(row["tier"] as? String == "tts", "\(row)")
            #expect((row["source"] as? String)?.hasPrefix("espeak-ng") == true, "\(row)")
        }
        #expect(manifest.contains { $0["status"] as? String == "kept" })
        #expect(!contents(of: out).contains { $0.hasPrefix(".render-jobs") }, "the killed run's job files are gone")

        // A CSV manifest of a resumed run (all kept) has tier and source on every row too.
        #expect(try await vocab.run(args + ["--manifest", "csv"]).status == 0)
        let lines = try String(contentsOfFile: out + "/manifest.csv", encoding: .utf8).split(separator: "\n")
        let header = try #require(lines.first).split(separator: ",").map(String.init)
        let (status, tier, source) = (
            try #require(header.firstIndex(of: "status")), try #require(header.firstIndex(of: "tier")),
            try #require(header.firstIndex(of: "source"))
        )
        let rows = lines.dropFirst()
        #expect(rows.count == count * 2)
        for row in rows {
            let fields = row.split(separator: ",", omittingEmptySubsequences: false)
            #expect(fields.count == header.count && fields[status] == "kept" && fields[tier] == "tts" && fields[source].hasPrefix("espeak-ng"), "\(row)")
        }
    }

    // MARK: 10. clip files stay inside Audio/

    @Test func aLegacyLinkLeadingOutOfAudioIsNotServed() async throws {
        let vocab = try EditableCatalog()
        defer { vocab.dir.remove() }
        // A real clip, outside Audio/, and a legacy name linking to it.
        let outside = vocab.dir.file("outside/cat.wav")
        try FileManager.default.createDirectory(atPath: vocab.dir.file("outside"), withIntermediateDirectories: true)
        #expect(try await vocab.run("say", "dog", "--tier", "tts", "-o", outside).status == 0)
        try FileManager.default.createDirectory(atPath: vocab.dir.file("Audio/legacy/british"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: vocab.dir.file("Audio/legacy/british/cat.wav"), withDestinationPath: outside)
        let result = try await vocab.run("say", "cat", "--accent", "british", "--json", "-o", vocab.dir.file("cat.wav"))
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(report["tier"] as? String == "tts", "the link is not followed out of Audio/")
        let skipped = (report["skipped"] as? [[String: Any]]) ?? []
        let legacy = skipped.first { $0["tier"] as? String == "legacy" }?["reason"] as? String
        #expect(legacy?.contains("leads outside") == true, "the reason is given: \(skipped)")
        let forced = try await vocab.run("say", "cat", "--accent", "british", "--tier", "legacy")
        #expect(forced.status == 1 && forced.stderr.contains("leads outside"), "\(forced.stderr)")
    }

    @Test func validateRejectsClipReferencesOutsideAudio() async throws {
        let vocab = try EditableCatalog()
        defer { vocab.dir.remove() }
        try vocab.edit("colours.json") {
            $0.replacingOccurrences(
                of: "\"vi\": \"màu đen\",",
                with: "\"vi\": \"màu đen\", \"audio\": {\"british\": {\"recorded\": \"/etc/passwd\"}, \"american\": {\"recorded\": \"../../../etc/passwd\"}},")
        }
        let result = try await vocab.run("validate")
        #expect(result.status == 65)
        #expect(result.stdout.contains("colours.json: word 'black': audio.british.recorded '/etc/passwd' is an absolute path"), "\(result.stdout)")
        #expect(result.stdout.contains("colours.json: word 'black': audio.american.recorded '../../../etc/passwd' leaves Audio/"), "\(result.stdout)")
        #expect(try await vocab.run("say", "black").status == 65, "nothing is indexed from such a file")
    }

    // MARK: 13. command-line edge cases

    @Test func aNegativeLimitIsExplainedNotMistakenForAnOption() async throws {
        let vocab = try EditableCatalog()
        defer { vocab.dir.remove() }
        let result = try await vocab.run("words", "animals", "--limit", "-1")
        #expect(result.status == 64)
        #expect(result.stderr.contains("--limit must be between 1 and 1000 (got -1)"), "\(result.stderr)")
        for args in [
            ["search", "ca", "--limit", "-5"], ["random", "--count", "-1"], ["quiz", "--questions", "-3"],
            ["render", "--out", vocab.dir.file("x"), "--jobs", "-2"], ["serve", "--port", "-1"],
        ] {
            let r = try await vocab.run(args)
            #expect(r.status == 64, "\(args)")
            #expect(!r.stderr.contains("Missing value"), "\(args): \(r.stderr)")
            #expect(r.stderr.contains("(got \(args.last!))"), "\(args): \(r.stderr)")
        }
    }

    @Test func controlCharactersTypedByTheUserNeverReachTheTerminal() async throws {
        let vocab = try EditableCatalog()
        defer { vocab.dir.remove() }
        #expect(try await vocab.run("index").status == 0)
        let hostile = "ca\u{1B}[31mt\u{07}\r"
        let commands: [[String]] = [
            ["show", hostile], ["words", hostile], ["search", hostile], ["say", hostile], ["define", hostile, "--timeout", "0.5"],
            ["library", "add", hostile], ["library", "remove", hostile], ["lookup", hostile], ["strokes", hostile],
            ["radical", "\u{9B}"], ["radical", hostile], ["search", "--pinyin", "xing\u{1B}[2J"], ["search", "--bopomofo", "\u{1B}ㄒ"],
            ["words", "animals", "--level", hostile], ["say", "cat", "--accent", hostile], ["quiz", "--category", hostile],
        ]
        for args in commands {
            let r = try await vocab.run(args)
            #expect(r.status != 0, "\(args) should fail")
            for (name, text) in [("stdout", r.stdout), ("stderr", r.stderr)] {
                let controls = text.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
                #expect(controls.isEmpty, "\(args) \(name) echoes \(controls.map { String($0.value, radix: 16) }): \(text)")
            }
        }
    }

    @Test func sayRefusesNonWordsBeforeAnySynthesis() async throws {
        let vocab = try EditableCatalog()
        defer { vocab.dir.remove() }
        for word in ["", "..", ".", "   ", "a/b", String(repeating: "x", count: 10_000)] {
            let r = try await vocab.run("say", word)
            #expect(r.status == 64, "say '\(word.prefix(12))': \(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
        #expect(!fileExists(vocab.home + "/clips"), "no clip was written: \(contents(of: vocab.home + "/clips"))")
    }

    // MARK: 15. --timeout bounds the whole wait

    @Test func defineAndRandomDoNotRetryOnceTheirTimeoutIsSpent() async throws {
        let silent = try LoopbackHTTPServer { _ in LoopbackHTTPServer.Response(status: 200, body: Array("[]".utf8), delay: 30) }
        defer { silent.stop() }
        let vocab = try EditableCatalog()
        defer { vocab.dir.remove() }
        let define = try await runProcessOnThread(
            Repository.vocabExecutable, ["define", "cat", "--timeout", "1"],
            environment: vocab.environment.merging(["VOCAB_DICTIONARY_URL": silent.baseURL]) { $1 })
        #expect(define.status == 0, "the catalog entry answers offline: \(define.stderr)")
        #expect(define.stdout.contains("could not be reached") && define.stdout.contains("timed out after 1"), "\(define.stdout)")
        #expect(silent.requests(to: "/api/v2/entries/en/cat") == 1, "one attempt used the whole second: no retry after it")

        let random = try await runProcessOnThread(
            Repository.vocabExecutable, ["random", "--count", "3", "--timeout", "1"],
            environment: vocab.environment.merging(["VOCAB_RANDOM_URL": silent.baseURL]) { $1 })
        #expect(random.status == 0, "\(random.stderr)")
        #expect(random.stderr.contains("unavailable") && random.stdout.split(separator: "\n").count == 3, "\(random.stderr)")
        #expect(silent.requests(to: "/word?number=3&lang=en") == 1)
    }
}

/// Finished clips (each carries its record inside; a clip being written has a temporary name).
func recordCount(_ out: String) -> Int {
    (FileManager.default.enumerator(atPath: out)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".wav") }.count
}

/// Waits (at most a minute) until no process has `text` on its command line; then kills any left.
func waitForProcesses(mentioning text: String) async {
    func matching() -> [Int32] {
        contents(of: "/proc").compactMap(Int32.init).filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return String(decoding: data, as: UTF8.self).contains(text)
        }
    }
    for _ in 0..<600 {
        if matching().isEmpty { return }
        try? await Task.sleep(for: .milliseconds(100))
    }
    for pid in matching() { kill(pid, SIGKILL) }
}
