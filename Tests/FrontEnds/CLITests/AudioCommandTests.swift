import Foundation
import TestSupport
import Testing

@Suite("vocab say and vocab render, as processes")
struct AudioCommandTests {
    func runner(audio: String? = nil) throws -> (VocabRunner, [String: String]) {
        let vocab = try VocabRunner()
        var env = ["VOCAB_HOME": vocab.home.path, "VOCAB_CATEGORIES": vocab.categories]
        env["VOCAB_AUDIO"] = audio ?? vocab.home.file("no-audio")
        return (vocab, env)
    }

    @Test func sayPlayIsHonestWhenThePlayerFails() throws {
        let (vocab, base) = try runner()
        // Players stand in for the real ones: one that fails (no sound device), one that plays.
        let bin = vocab.home.file("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        func player(_ name: String, exit status: Int) throws {
            try "#!/bin/sh\nexit \(status)\n".write(toFile: "\(bin)/\(name)", atomically: true, encoding: .utf8)
            chmod("\(bin)/\(name)", 0o755)
        }
        var env = base
        env["PATH"] = bin
        let none = try runProcess(Repository.vocabExecutable, ["say", "cat", "--play"], environment: env)
        #expect(none.status == 69, "\(none.stdout)\(none.stderr)")
        #expect(none.stderr.contains("no audio player found"), "\(none.stderr)")
        #expect(none.stdout.contains("cat (british): tts"), "the clip is still written and reported: \(none.stdout)")

        try player("paplay", exit: 1)
        let failed = try runProcess(Repository.vocabExecutable, ["say", "cat", "--play"], environment: env)
        #expect(failed.status == 69)
        #expect(failed.stderr.contains("could not be played (paplay exited with status 1"), "\(failed.stderr)")
        #expect(!failed.stdout.contains("played with"), "\(failed.stdout)")
        let json = try runProcess(Repository.vocabExecutable, ["say", "cat", "--play", "--json"], environment: env)
        #expect(json.status == 69)
        #expect(json.stdout.contains("\"played\" : false"), "\(json.stdout)")

        // The next player is tried when one fails.
        try player("aplay", exit: 0)
        let played = try runProcess(Repository.vocabExecutable, ["say", "cat", "--play"], environment: env)
        #expect(played.status == 0, "\(played.stderr)")
        #expect(played.stdout.contains("played with aplay"), "\(played.stdout)")
    }

    @Test func saySynthesizesWhenNoClipExistsAndSaysWhy() throws {
        let (vocab, env) = try runner()
        let out = vocab.home.file("cat.wav")
        let result = try runProcess(Repository.vocabExecutable, ["say", "cat", "--accent", "british", "-o", out, "--json"], environment: env)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(report["tier"] as? String == "tts")
        #expect(report["source"] as? String == "espeak-ng en-gb")
        #expect(report["path"] as? String == out)
        let duration = try #require(report["duration"] as? Double)
        #expect((0.1...2).contains(duration))
        let skipped = try #require(report["skipped"] as? [[String: Any]])
        #expect(skipped.compactMap { $0["tier"] as? String } == ["recorded", "legacy", "neural"])
        #expect(FileManager.default.fileExists(atPath: out))
    }

    @Test("a clip made before is answered from the store, not made again; a recording added since makes it again")
    func sayAnswersAClipMadeBeforeFromTheStore() throws {
        let audio = try TemporaryDirectory("cli-audio-again")
        let (_, env) = try runner(audio: audio.path)
        func say() throws -> [String: Any] {
            let result = try runProcess(Repository.vocabExecutable, ["say", "cat", "--json"], environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        }
        let first = try say()
        #expect(first["madeBefore"] as? Bool == false && first["tier"] as? String == "tts")
        let path = try #require(first["path"] as? String)
        let written = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        let second = try say()
        #expect(second["madeBefore"] as? Bool == true && second["path"] as? String == path && second["tier"] as? String == "tts", "\(second)")
        #expect((second["skipped"] as? [Any])?.isEmpty == true, "no tier was asked")
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == written, "the file was not written again")
        // A legacy clip for cat changes the inputs: the next call makes the clip from it.
        let made = try runProcess(Repository.vocabExecutable, ["say", "dog", "--tier", "tts", "-o", audio.file("legacy/british/cat.wav")], environment: env)
        #expect(made.status == 0, "\(made.stderr)")
        let third = try say()
        #expect(third["madeBefore"] as? Bool == false && third["tier"] as? String == "legacy", "\(third)")
    }

    @Test func sayPrefersALegacyClipAndWritesTheRequestedFormat() throws {
        let audio = try TemporaryDirectory("cli-audio")
        // A real clip for the legacy tier, made with the espeak-ng tier itself.
        let (vocab, env) = try runner(audio: audio.path)
        let made = try runProcess(Repository.vocabExecutable, ["say", "dog", "--tier", "tts", "-o", audio.file("legacy/american/cat.wav")], environment: env)
        #expect(made.status == 0, "\(made.stderr)")
        let out = vocab.home.file("cat.ogg")
        let result = try runProcess(Repository.vocabExecutable, ["say", "cat", "--accent", "american", "-o", out], environment: env)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("cat (american): legacy from \(audio.path)/legacy/american/cat.wav"))
        #expect(result.stdout.contains("skipped recorded"))
        let header = try Data(contentsOf: URL(fileURLWithPath: out)).prefix(4)
        #expect(String(decoding: header, as: UTF8.self) == "OggS")
    }

    @Test func sayWithAForcedTierThatHasNoClipFails() throws {
        let (_, env) = try runner()
        let result = try runProcess(Repository.vocabExecutable, ["say", "cat", "--tier", "recorded"], environment: env)
        #expect(result.status == 1)
        #expect(result.stderr.contains("no recorded clip for british (none imported, none referenced)"))
        let bad = try runProcess(Repository.vocabExecutable, ["say", "cat", "--accent", "scottish"], environment: env)
        #expect(bad.status == 64)
    }

    @Test func importOffersOnlyTheTiersThatReadStoredClips() throws {
        let (_, env) = try runner()
        let folder = try TemporaryDirectory("vocab-import-tier")
        defer { folder.remove() }
        for tier in ["neural", "tts"] {
            let result = try runProcess(Repository.vocabExecutable, ["audio", "import", folder.path, "--tier", tier], environment: env)
            #expect(result.status == 64, "\(tier): \(result.stderr)")
            #expect(result.stderr.contains("'recorded'") && result.stderr.contains("'legacy'"), "\(result.stderr)")
        }
        let help = try runProcess(Repository.vocabExecutable, ["audio", "import", "--help"], environment: env)
        #expect(help.stdout.contains("(values: recorded, legacy)"), "\(help.stdout)")
    }

    @Test func renderWritesEveryClipAManifestAndResumes() throws {
        let (vocab, env) = try runner()
        let out = vocab.home.file("clips")
        let args = ["render", "--category", "colours", "--level", "starters", "--accent", "both", "--out", out]
        let first = try runProcess(Repository.vocabExecutable, args, environment: env)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("render: "), "progress lines when not a terminal")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))) as? [[String: Any]])
        let colours = try #require(try VocabRunner().json("words", "colours", "--level", "starters") as? [String: Any])
        let count = (colours["words"] as? [Any])?.count ?? 0
        #expect(count > 5)
        #expect(manifest.count == count * 2)
        #expect(manifest.allSatisfy { $0["status"] as? String == "rendered" && $0["tier"] as? String == "tts" })
        // Filed by entry identity, with the tier and source recorded beside each clip.
        #expect(FileManager.default.fileExists(atPath: out + "/british/catalog/colours/red.wav"))
        #expect(FileManager.default.fileExists(atPath: out + "/american/catalog/colours/red.wav"))
        #expect(manifest.allSatisfy { ($0["entry"] as? String)?.hasPrefix("catalog:") == true })

        // Remove one clip and corrupt another: only those two are rendered again.
        try FileManager.default.removeItem(atPath: out + "/british/catalog/colours/red.wav")
        try Data("junk".utf8).write(to: URL(fileURLWithPath: out + "/american/catalog/colours/blue.wav"))
        let again = try runProcess(Repository.vocabExecutable, args + ["--json"], environment: env)
        #expect(again.status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        #expect(report["rendered"] as? Int == 2)
        #expect(report["kept"] as? Int == count * 2 - 2)
        // Kept clips keep their tier and source in the new manifest.
        let resumed = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))) as? [[String: Any]])
        #expect(resumed.allSatisfy { $0["tier"] as? String == "tts" && ($0["source"] as? String)?.hasPrefix("espeak-ng") == true })
        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: out).filter { $0.contains(".tmp") || $0.contains("render-jobs") }
        #expect(leftovers.isEmpty)
    }

    @Test func renderReportsAFailedClipAndStillFinishesTheBatch() throws {
        let (vocab, env) = try runner()
        let out = vocab.home.file("clips")
        // A directory where a clip should go makes that one write fail.
        try FileManager.default.createDirectory(atPath: out + "/british/catalog/colours/red.wav/blocked", withIntermediateDirectories: true)
        let result = try runProcess(
            Repository.vocabExecutable,
            ["render", "--category", "colours", "--level", "starters", "--accent", "british", "--out", out, "--manifest", "csv"],
            environment: env)
        #expect(result.status == 1)
        #expect(result.stderr.contains("failed: red (british)"))
        let csv = try String(contentsOfFile: out + "/manifest.csv", encoding: .utf8)
        #expect(csv.hasPrefix("word,entry,accent,reading,status,tier,source,duration,path,error\n"))
        #expect(csv.contains("red,catalog:colours/red,british,,failed"))
        #expect(csv.contains("blue,catalog:colours/blue,british,,rendered,tts,espeak-ng en-gb"))
    }
}

@Suite("vocab say: one file per entry")
struct SayIdentityTests {
    @Test("行 and 水, May and may are different clips; an empty, dot or over-long word is refused before any synthesis")
    func distinctClipsAndRefusals() throws {
        let home = try TemporaryDirectory("say-identity")
        defer { home.remove() }
        let env = ["VOCAB_HOME": home.path, "VOCAB_CATEGORIES": Repository.categories]
        // Chinese titles are spoken from the dictionary's pinyin (without it, say refuses them).
        let imported = try runProcess(Repository.vocabExecutable, ["import", "moe", Repository.moeSample], environment: env)
        #expect(imported.status == 0, "\(imported.stderr)")
        var paths: [String] = []
        for word in ["行", "水", "May", "may"] {
            let result = try runProcess(Repository.vocabExecutable, ["say", word, "--json"], environment: env)
            #expect(result.status == 0, "\(result.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            paths.append(try #require(report["path"] as? String))
        }
        #expect(Set(paths).count == 4, "\(paths)")
        #expect(paths[0].hasSuffix("/mandarin/moe/行/xing2.wav") && paths[1].hasSuffix("/mandarin/moe/水/shui3.wav"), "\(paths)")
        #expect(paths[2].hasSuffix("/british/catalog/family-and-friends/may.wav") && paths[3].hasSuffix("/british/catalog/everyday-words/may.wav"))
        for word in ["", "..", ".", String(repeating: "x", count: 10_000)] {
            let refused = try runProcess(Repository.vocabExecutable, ["say", word], environment: env)
            #expect(refused.status == 64, "'\(word.prefix(10))': \(refused.stderr)")
        }
        let clips = try FileManager.default.subpathsOfDirectory(atPath: home.file("clips")).filter { $0.hasSuffix(".wav") }
        #expect(clips.count == 4)
    }
}

#if os(Linux)
    @Suite("vocab say of a clip said before: the launcher answers it alone while its inputs stay as they were")
    struct SaidBeforeCommandTests {
        /// A call through the launcher, under strace: what it printed, and whether it had to
        /// become the full program (a second execve).
        struct Traced {
            let result: ProcessResult
            let becameFullProgram: Bool
            let wrote: [String]
        }

        func say(_ args: [String], _ env: [String: String], trace: String) throws -> Traced {
            let traced = try runProcess(
                "/usr/bin/strace",
                ["-f", "-qq", "-o", trace, "-e", "trace=execve,clone,clone3,write,pwrite64,rename,unlink", Repository.vocabExecutable, "say"] + args,
                environment: env)
            // "[PID ]call(arguments) = result": told apart by the call's name, not by what a path
            // in its arguments may contain (a checkout in /tmp/ci-clone).
            // strace prefixes a PID only once it follows more than one process.
            let calls = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").map { line in
                String(line.drop { $0.isNumber }.drop { $0 == " " })
            }
            func named(_ names: String...) -> [String] { calls.filter { call in names.contains { call.hasPrefix($0 + "(") } } }
            let execs = named("execve").filter { !$0.contains("ENOENT") }
            let writes = named("write", "pwrite64", "rename", "unlink").filter { !$0.hasPrefix("write(1,") && !$0.hasPrefix("write(2,") }
            return Traced(result: traced, becameFullProgram: execs.count > 1 || !named("clone", "clone3").isEmpty, wrote: writes)
        }

        @Test("the same answer as the full program's, byte for byte, with no write and no other program; a changed input sends it back to the full program")
        func theLauncherAnswersUntilAnInputChanges() throws {
            let audio = try TemporaryDirectory("said-before-audio")
            defer { audio.remove() }
            // A copy of the categories, which this test edits.
            try FileManager.default.copyItem(atPath: Repository.categories, toPath: audio.file("Categories"))
            let vocab = try VocabRunner(categories: audio.file("Categories"))
            let env = ["VOCAB_HOME": vocab.home.path, "VOCAB_CATEGORIES": vocab.categories, "VOCAB_AUDIO": audio.path]
            let trace = vocab.home.file("trace")
            let full = Repository.productsDirectory + "/vocab-full"

            let first = try say(["cat", "--json"], env, trace: trace)
            #expect(first.result.status == 0 && first.becameFullProgram, "\(first.result.stderr)")
            for args in [["cat", "--json"], ["cat"], ["cat", "--accent", "uk", "--speed", "1"]] {
                // The full program first: an accent asked for is a call of its own.
                let direct = try runProcess(full, ["say"] + args, environment: env)
                let launched = try say(args, env, trace: trace)
                #expect(!launched.becameFullProgram, "\(args): the launcher answered")
                #expect(launched.wrote.isEmpty, "\(args) wrote: \(launched.wrote)")
                #expect(launched.result.status == 0 && launched.result.stdout == direct.stdout && launched.result.stderr == direct.stderr, "\(args)")
                #expect(
                    launched.result.stdout.contains("(made before)") || launched.result.stdout.contains("\"madeBefore\" : true"), "\(launched.result.stdout)")
            }
            // A word the catalog does not have warns first, as the full program does.
            _ = try runProcess(full, ["say", "zorblat"], environment: env)
            let unknown = try say(["zorblat"], env, trace: trace)
            #expect(!unknown.becameFullProgram && unknown.result.stderr.contains("'zorblat' is not in the catalog"), "\(unknown.result.stderr)")

            // A legacy clip for cat: the full program answers, from it, and the launcher after that.
            let made = try runProcess(full, ["say", "dog", "--tier", "tts", "-o", audio.file("legacy/british/Cat.wav")], environment: env)
            #expect(made.status == 0, "\(made.stderr)")
            let legacy = try say(["cat"], env, trace: trace)
            #expect(legacy.becameFullProgram && legacy.result.stdout.contains("cat (british): legacy from"), "\(legacy.result.stdout)")
            #expect(!(try say(["cat"], env, trace: trace)).becameFullProgram)
            // The clip replaced in place (same name, the folder unchanged).
            _ = try runProcess(full, ["say", "hat", "--tier", "tts", "-o", audio.file("legacy/british/Cat.wav")], environment: env)
            #expect(try say(["cat"], env, trace: trace).becameFullProgram)
            // The stored clip removed; a category file edited; another neural voice setting; a slower pace.
            let stored = vocab.home.file("clips/british/catalog/animals/cat.wav")
            try FileManager.default.removeItem(atPath: stored)
            #expect(try say(["cat"], env, trace: trace).becameFullProgram)
            #expect(FileManager.default.fileExists(atPath: stored))
            let animals = vocab.categories + "/animals.json"
            try (try String(contentsOfFile: animals, encoding: .utf8) + "\n").write(toFile: animals, atomically: true, encoding: .utf8)
            #expect(try say(["cat"], env, trace: trace).becameFullProgram)
            #expect(!(try say(["cat"], env, trace: trace)).becameFullProgram)
            var voiced = env
            voiced["VOCAB_NEURAL_VOICE"] = audio.file("no-voice")
            #expect(try say(["cat"], voiced, trace: trace).becameFullProgram)
            #expect(try say(["cat", "--speed", "0.75"], env, trace: trace).becameFullProgram)
            #expect(!(try say(["cat", "--speed", "0.75"], env, trace: trace)).becameFullProgram)
            // What the launcher does not answer at all: a file of the user's, a chosen tier, playing.
            #expect(try say(["cat", "--tier", "tts"], env, trace: trace).becameFullProgram)
        }

        @Test("an answer given while the neural voice was installed holds only while its environment stays as it was")
        func theNeuralVoiceEnvironmentIsAnInput() throws {
            let vocab = try VocabRunner()
            let voice = try TemporaryDirectory("said-before-voice")
            defer { voice.remove() }
            // An environment that looks installed, whose Python fails: the neural tier is tried
            // and skipped, espeak-ng speaks, and the answer depends on the voice being there.
            let packages = voice.file("lib/python3.11/site-packages")
            try FileManager.default.createDirectory(atPath: packages + "/hibari_tts-0.2.1.dist-info", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: voice.file("bin"), withIntermediateDirectories: true)
            try voice.write("bin/python3", "#!/bin/sh\nexit 1\n")
            chmod(voice.file("bin/python3"), 0o755)
            let env = [
                "VOCAB_HOME": vocab.home.path, "VOCAB_CATEGORIES": vocab.categories, "VOCAB_AUDIO": vocab.home.file("no-audio"),
                "VOCAB_NEURAL_VOICE": voice.path,
            ]
            let trace = vocab.home.file("trace")
            let first = try say(["cat", "--json"], env, trace: trace)
            #expect(first.result.status == 0 && first.result.stdout.contains("\"tier\" : \"tts\""), "\(first.result.stdout) \(first.result.stderr)")
            #expect(!(try say(["cat", "--json"], env, trace: trace)).becameFullProgram)
            try FileManager.default.removeItem(atPath: packages + "/hibari_tts-0.2.1.dist-info")
            #expect(try say(["cat", "--json"], env, trace: trace).becameFullProgram, "the voice's package is gone")
        }
    }
#endif
