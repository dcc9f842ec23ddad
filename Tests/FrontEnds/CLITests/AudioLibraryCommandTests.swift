import Foundation
import TestSupport
import Testing

/// A home, a small catalog and an Audio/ folder of its own, and the built `vocab` to run on them.
private struct AudioRunner {
    let dir: TemporaryDirectory
    var audio: String { dir.file("Audio") }
    var home: String { dir.file("home") }

    static let moeSample = Repository.root + "/Tests/Domains/MandarinTests/Fixtures/dict-revised-sample.json"

    /// animals: cat, dog, elephant; food: apple, cake; plus `extra` words in animals.
    init(extra: [String] = []) throws {
        dir = try TemporaryDirectory("cli-audio")
        try dir.write(
            "Categories/animals.json",
            CatalogFixture.category(
                "animals", order: 1,
                words: [
                    CatalogFixture.word("cat", vi: "con mèo"), CatalogFixture.word("dog", vi: "con chó"),
                    CatalogFixture.word("elephant", levels: ["movers", "flyers"], vi: "con voi"),
                ] + extra))
        try dir.write(
            "Categories/food.json",
            CatalogFixture.category(
                "food", order: 2,
                words: [
                    CatalogFixture.word("apple", category: "food", vi: "quả táo"),
                    CatalogFixture.word("ice cream", levels: ["flyers"], category: "food", vi: "kem"),
                ]))
        try FileManager.default.createDirectory(atPath: audio, withIntermediateDirectories: true)
    }

    var environment: [String: String] { ["VOCAB_HOME": home, "VOCAB_CATEGORIES": dir.file("Categories"), "VOCAB_AUDIO": audio] }

    func run(_ args: String..., input: String? = nil) throws -> ProcessResult {
        try runProcess(Repository.vocabExecutable, args, environment: environment, input: input)
    }

    func json(_ args: String...) throws -> [String: Any] {
        let result = try runProcess(Repository.vocabExecutable, args + ["--json"], environment: environment)
        #expect(result.status == 0, "\(args): \(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    /// A recording by the espeak-ng program, at another pitch than vocab's voice.
    @discardableResult
    func record(_ text: String, at path: String, pitch: Int = 80, voice: String = "en-gb") throws -> String {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let result = try runProcess("/usr/bin/espeak-ng", ["-v", voice, "-p", String(pitch), "-w", path, text])
        #expect(result.status == 0, "espeak-ng: \(result.stderr)")
        return path
    }

    func truncate(_ path: String, to fraction: Double) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try data.prefix(Int(Double(data.count) * fraction)).write(to: URL(fileURLWithPath: path))
    }

    /// The bytes of a WAV's data chunk (the samples, without the metadata around them).
    static func samples(of wav: Data) -> Data? {
        let bytes = [UInt8](wav)
        var i = 12
        while i + 8 <= bytes.count {
            let size = Int(bytes[i + 4]) | Int(bytes[i + 5]) << 8 | Int(bytes[i + 6]) << 16 | Int(bytes[i + 7]) << 24
            if bytes[i..<i + 4].elementsEqual("data".utf8) { return Data(bytes[(i + 8)..<min(bytes.count, i + 8 + size)]) }
            i += 8 + size + (size & 1)
        }
        return nil
    }

    func importMOE() throws {
        let result = try run("import", "moe", Self.moeSample)
        #expect(result.status == 0, "\(result.stderr)")
    }
}

@Suite("vocab audio import, status and check; Mandarin speech; freshness; no PulseAudio", .serialized)
struct AudioLibraryCommandTests {
    @Test func importThenStatusThenSayThenRender() throws {
        let vocab = try AudioRunner()
        let incoming = vocab.dir.file("incoming")
        try vocab.record("cat", at: incoming + "/Cat.wav")
        try vocab.record("ice cream", at: incoming + "/ice-cream.WAV")
        try vocab.record("elephant", at: incoming + "/elephant.wav")
        try vocab.truncate(incoming + "/elephant.wav", to: 0.45)
        try vocab.record("unicorn", at: incoming + "/unicorn.wav")

        // The plan first: nothing is written.
        let dry = try vocab.run("audio", "import", incoming, "--tier", "recorded", "--dry-run")
        #expect(dry.status == 1, "files were left out: exit 1")
        #expect(dry.stdout.contains("would import Cat.wav → cat (catalog:animals/cat)"), "\(dry.stdout)")
        #expect(dry.stdout.contains("refused   elephant.wav → elephant (catalog:animals/elephant): truncated: header says"))
        #expect(dry.stdout.contains("unmatched unicorn.wav"))
        #expect(dry.stdout.contains("Would import 2 clip(s)"))
        #expect(!FileManager.default.fileExists(atPath: vocab.audio + "/recorded"))

        let done = try vocab.run("audio", "import", incoming, "--tier", "recorded")
        #expect(done.stdout.contains("imported  Cat.wav → cat (catalog:animals/cat)"), "\(done.stdout)")
        #expect(done.stdout.contains("Imported 2 clip(s) into \(vocab.audio)/recorded/british; refused 1, unmatched 1, ambiguous 0, conflicts 0."))
        #expect(FileManager.default.fileExists(atPath: vocab.audio + "/recorded/british/catalog/animals/cat.wav"))
        #expect(FileManager.default.fileExists(atPath: vocab.audio + "/recorded/british/catalog/food/ice-cream.wav"))

        // Importing again replaces.
        let again = try runProcess(Repository.vocabExecutable, ["audio", "import", incoming, "--tier", "recorded", "--json"], environment: vocab.environment)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        #expect(summary["replaced"] as? Int == 2)
        #expect(summary["unmatched"] as? [String] == ["unicorn.wav"])

        // A legacy clip by name for dog, a broken one for apple (American).
        try vocab.record("dog", at: vocab.audio + "/legacy/british/Dog.wav", pitch: 20)
        try vocab.record("apple", at: vocab.audio + "/legacy/american/apple.wav", pitch: 20)
        try vocab.truncate(vocab.audio + "/legacy/american/apple.wav", to: 0.4)

        let status = try vocab.run("audio", "status")
        #expect(status.status == 0, "\(status.stderr)")
        let lines = status.stdout.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(lines.contains("entries british recorded legacy neural tts american recorded legacy neural tts"), "\(status.stdout)")
        // british: 2 recorded, 1 legacy, 2 speech of 5; american: all speech (espeak-ng: the neural voice is off here).
        #expect(lines.contains("all 5 2 (40%) 1 (20%) 0 (0%) 2 (40%) 0 (0%) 0 (0%) 0 (0%) 5 (100%)"), "\(status.stdout)")
        #expect(lines.contains("animals 3 1 (33%) 1 (33%) 0 (0%) 1 (33%) 0 (0%) 0 (0%) 0 (0%) 3 (100%)"))
        #expect(lines.contains("starters 3 1 (33%) 1 (33%) 0 (0%) 1 (33%) 0 (0%) 0 (0%) 0 (0%) 3 (100%)"))
        #expect(status.stdout.contains("(neural: none: the neural voice is switched off"), "\(status.stdout)")
        #expect(status.stdout.contains("Broken clips (1)"))
        #expect(status.stdout.contains("apple (american, legacy)"))
        #expect(status.stdout.contains("truncated"))

        let report = try vocab.json("audio", "status", "--category", "animals", "--level", "starters")
        let total = try #require(report["total"] as? [String: Any])
        #expect(total["entries"] as? Int == 2)
        let british = try #require((total["byAccent"] as? [String: Any])?["british"] as? [String: Any])
        #expect(british["recorded"] as? Int == 1 && british["legacy"] as? Int == 1 && british["recordedPercent"] as? Int == 50)

        let check = try vocab.run("audio", "check")
        #expect(check.status == 65)
        #expect(check.stdout.contains("apple (american, legacy)"))
        #expect(check.stderr.contains("1 broken clip(s)"))
        try FileManager.default.removeItem(atPath: vocab.audio + "/legacy/american/apple.wav")
        #expect(try vocab.run("audio", "check").status == 0)

        // The imported recording answers say and render.
        let say = try vocab.json("say", "cat")
        #expect(say["tier"] as? String == "recorded")
        #expect((say["source"] as? String)?.hasSuffix("recorded/british/catalog/animals/cat.wav") == true)
        let render = try vocab.run("render", "--accent", "british", "--out", vocab.dir.file("clips"))
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stdout.contains("Rendered 5, kept 0, failed 0 (legacy 1, recorded 2, tts 2)"), "\(render.stdout)")
    }

    /// The loudness-probe helper (built beside the tests): "LUFS dBTP seconds path" per file.
    static func loudness(_ paths: [String]) throws -> [String: (lufs: Double, seconds: Double)] {
        let probe = Repository.productsDirectory + "/loudness-probe"
        let result = try runProcess(probe, ["--measure"] + paths)
        #expect(result.status == 0, "\(result.stderr)")
        var out: [String: (Double, Double)] = [:]
        for line in result.stdout.split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 3).map(String.init)
            guard fields.count == 4, let lufs = Double(fields[0]), let seconds = Double(fields[2]) else { continue }
            out[fields[3]] = (lufs, seconds)
        }
        return out
    }

    @Test func everyClipThatLeavesVocabIsAtOneLoudnessWhateverItsTier() throws {
        let vocab = try AudioRunner()
        // A loud recording (imported), a legacy clip 40 dB quieter behind 3 s of silence, and
        // speech for the rest.
        let incoming = vocab.dir.file("incoming")
        try FileManager.default.createDirectory(atPath: incoming, withIntermediateDirectories: true)
        var loud = try runProcess("/usr/bin/espeak-ng", ["-v", "en-gb", "-p", "80", "-a", "200", "-w", incoming + "/cat.wav", "cat"])
        #expect(loud.status == 0)
        #expect(try vocab.run("audio", "import", incoming, "--tier", "recorded").status == 0)
        let quiet = vocab.dir.file("quiet-dog.wav")
        loud = try runProcess("/usr/bin/espeak-ng", ["-v", "en-gb", "-p", "20", "-a", "2", "-w", quiet, "dog"])
        #expect(loud.status == 0)
        try FileManager.default.createDirectory(atPath: vocab.audio + "/legacy/british", withIntermediateDirectories: true)
        let padded = try runProcess("/usr/bin/sox", [quiet, vocab.audio + "/legacy/british/dog.wav", "pad", "3", "0"])
        #expect(padded.status == 0, "\(padded.stderr)")
        let inputs = try Self.loudness([incoming + "/cat.wav", vocab.audio + "/legacy/british/dog.wav"])
        let before = inputs.values.map(\.lufs)
        #expect((before.max() ?? 0) - (before.min() ?? 0) > 30, "the sources really differ: \(inputs)")

        var paths: [String] = []
        for word in ["cat", "dog", "elephant"] {
            let said = try vocab.json("say", word)
            paths.append(try #require(said["path"] as? String))
            let out = vocab.dir.file("said-\(word).wav")
            #expect(try vocab.run("say", word, "-o", out).status == 0)
            paths.append(out)
        }
        let render = try vocab.json("render", "--accent", "both", "--out", vocab.dir.file("clips"))
        #expect((render["failed"] as? [Any])?.isEmpty == true, "\(render)")
        let rendered = (FileManager.default.enumerator(atPath: vocab.dir.file("clips"))?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".wav") }.map { vocab.dir.file("clips/" + $0) }
        #expect(rendered.count == 10)
        paths += rendered

        let measured = try Self.loudness(paths)
        #expect(measured.count == paths.count)
        for path in paths {
            let m = try #require(measured[path], "\(path) was measured")
            #expect(abs(m.lufs - -20) <= 1, "\(path): \(m.lufs) LUFS")
            #expect(m.seconds < 1.5, "\(path): \(m.seconds) s, leading silence trimmed")
        }
        // say and render give the same bytes for the same word.
        let sayDog = try Data(contentsOf: URL(fileURLWithPath: vocab.dir.file("said-dog.wav")))
        let renderDog = try Data(contentsOf: URL(fileURLWithPath: vocab.dir.file("clips/british/catalog/animals/dog.wav")))
        #expect(AudioRunner.samples(of: sayDog) == AudioRunner.samples(of: renderDog))
    }

    @Test func validateReportsMissingClipFiles() throws {
        let vocab = try AudioRunner(extra: [
            CatalogFixture.word("bird", extra: #", "audio": {"british": {"recorded": "recorded/bird.wav"}}"#)
        ])
        let result = try vocab.run("validate")
        #expect(result.status == 65)
        #expect(result.stdout.contains("animals.json: word 'bird': audio.british.recorded: missing file"), "\(result.stdout)")
        try vocab.record("bird", at: vocab.audio + "/recorded/bird.wav")
        let fixed = try vocab.run("validate")
        #expect(fixed.status == 0, "\(fixed.stdout)")
        #expect(!fixed.stdout.contains("audio.british.recorded"))
    }

    @Test func validateRefusesReferencesThatLeaveAudio() throws {
        let vocab = try AudioRunner(extra: [
            CatalogFixture.word("bird", extra: #", "audio": {"american": {"legacy": "../outside.wav"}}"#)
        ])
        let result = try vocab.run("validate")
        #expect(result.status == 65)
        #expect(result.stdout.contains("animals.json: word 'bird': audio.american.legacy '../outside.wav' leaves Audio/"), "\(result.stdout)")
    }

    @Test func renderNoticesChangedSourcesAndRendersOnlyWhatTheyAffect() throws {
        let vocab = try AudioRunner()
        let out = vocab.dir.file("clips")
        func render() throws -> [String: Any] { try vocab.json("render", "--accent", "british", "--out", out) }
        #expect(try render()["rendered"] as? Int == 5)
        #expect(try render()["rendered"] as? Int == 0)

        try vocab.record("dog", at: vocab.audio + "/legacy/british/dog.wav", pitch: 20) // added
        var report = try render()
        #expect(report["rendered"] as? Int == 1 && report["kept"] as? Int == 4)
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))) as? [[String: Any]])
        #expect(manifest.first { $0["word"] as? String == "dog" }?["tier"] as? String == "legacy")

        try vocab.record("dog", at: vocab.audio + "/legacy/british/dog.wav", pitch: 90) // replaced
        #expect(try render()["rendered"] as? Int == 1)
        try FileManager.default.removeItem(atPath: vocab.audio + "/legacy/british/dog.wav") // removed
        report = try render()
        #expect(report["rendered"] as? Int == 1)

        // A broken recording is counted in the summary, not only in the manifest.
        try vocab.record("cat", at: vocab.audio + "/recorded/british/catalog/animals/cat.wav")
        try vocab.truncate(vocab.audio + "/recorded/british/catalog/animals/cat.wav", to: 0.5)
        let text = try vocab.run("render", "--accent", "british", "--out", out)
        #expect(text.stdout.contains("1 fell back past a broken recorded or legacy clip"), "\(text.stdout)")
        #expect(text.stderr.contains("fell back to tts: cat (british): recorded:"))
    }

    @Test func theSameWordIsTheSameBytesWhateverBatchItWasRenderedIn() throws {
        let vocab = try AudioRunner()
        // Alone, in a process of its own.
        let alone = vocab.dir.file("alone.wav")
        #expect(try vocab.run("say", "elephant", "-o", alone).status == 0)
        // In batches of other words: one worker with everything, two workers, another level.
        var files = [alone]
        for (name, args) in [("all-1", ["--jobs", "1"]), ("all-2", ["--jobs", "2"]), ("flyers", ["--level", "flyers", "--jobs", "1"])] {
            let out = vocab.dir.file(name)
            let result = try runProcess(Repository.vocabExecutable, ["render", "--accent", "both", "--out", out] + args, environment: vocab.environment)
            #expect(result.status == 0, "\(result.stderr)")
            files.append(out + "/british/catalog/animals/elephant.wav")
        }
        let bytes = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(bytes[0].count > 10_000)
        for (file, data) in zip(files, bytes).dropFirst() { #expect(data == bytes[0], "\(file) differs from the clip rendered alone") }
    }

    @Test func mandarinTitlesAreSpokenFromThePinyinOfAReading() throws {
        let vocab = try AudioRunner()
        // Before the dictionary is imported, Chinese text is not handed to the English voice.
        let early = try vocab.run("say", "銀行")
        #expect(early.status == 66, "\(early.stdout)\(early.stderr)")
        #expect(early.stderr.contains("vocab import moe"), "\(early.stderr)")
        #expect(!FileManager.default.fileExists(atPath: vocab.home + "/clips"), "nothing was spoken")
        try vocab.importMOE()
        let first = try vocab.json("say", "行")
        #expect(first["reading"] as? String == "xíng")
        #expect(first["accent"] as? String == "mandarin")
        #expect(first["source"] as? String == "espeak-ng cmn-latn-pinyin")
        #expect(first["entry"] as? String == "moe:行")
        // No person's voice ships for Mandarin: the learner is told it is a machine's.
        #expect(first["synthetic"] as? Bool == true)
        #expect((first["path"] as? String)?.hasSuffix("clips/mandarin/moe/行/xing2.wav") == true)

        let hang = try vocab.run("say", "行", "--reading", "háng")
        #expect(hang.status == 0, "\(hang.stderr)")
        #expect(hang.stdout.contains("行 háng (mandarin): tts from espeak-ng cmn-latn-pinyin"), "\(hang.stdout)")
        #expect(hang.stdout.contains(" s, a computer voice → "), "\(hang.stdout)")
        let numbered = try vocab.json("say", "行", "--reading", "hang2", "--accent", "mandarin")
        #expect(numbered["reading"] as? String == "háng")

        let wrong = try vocab.run("say", "行", "--reading", "hang7")
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("'行' has no reading 'hang7'; its readings are xíng, háng, xìng, hàng."))
        #expect(try vocab.run("say", "cat", "--reading", "háng", "--accent", "british").status == 64)

        // A recorded clip imported for one reading answers for that reading only.
        let incoming = vocab.dir.file("zh")
        try vocab.record("hang2", at: incoming + "/行 háng.wav", pitch: 30, voice: "cmn-latn-pinyin")
        let imported = try vocab.run("audio", "import", incoming, "--tier", "recorded", "--accent", "mandarin")
        #expect(imported.status == 0, "\(imported.stdout)\(imported.stderr)")
        #expect(FileManager.default.fileExists(atPath: vocab.audio + "/recorded/mandarin/moe/行/hang2.wav"))
        let recorded = try vocab.json("say", "行", "--reading", "háng")
        #expect(recorded["tier"] as? String == "recorded")
        #expect(recorded["synthetic"] as? Bool == false)
        #expect(try vocab.run("say", "行", "--reading", "háng").stdout.contains(", a person's voice → "))
        #expect(try vocab.json("say", "行")["tier"] as? String == "tts")

        // Batches: titles from a file (with readings), and characters by strokes and radical.
        try "行\n水 shuǐ\n# a comment\n".write(toFile: vocab.dir.file("titles.txt"), atomically: true, encoding: .utf8)
        let out = vocab.dir.file("moe-clips")
        let fromFile = try vocab.json("render", "--moe", vocab.dir.file("titles.txt"), "--out", out)
        #expect(fromFile["rendered"] as? Int == 5, "行 in four readings, 水 in one")
        #expect(FileManager.default.fileExists(atPath: out + "/mandarin/moe/行/hang4.wav"))
        #expect(FileManager.default.fileExists(atPath: out + "/mandarin/moe/水/shui3.wav"))
        let byStrokes = try vocab.json("render", "--moe-strokes", "6", "--moe-radical", "行", "--first-reading", "--out", vocab.dir.file("strokes"))
        #expect(byStrokes["clips"] as? Int == 1)
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: vocab.dir.file("strokes/manifest.json")))) as? [[String: Any]])
        #expect(manifest.first?["reading"] as? String == "xíng")
        #expect(try vocab.run("render", "--moe", "-", "--category", "animals", "--out", out).status == 64)
    }

    @Test func sayCreatesNothingForPulseAudio() throws {
        let vocab = try AudioRunner()
        let fresh = try TemporaryDirectory("pulse-free")
        defer { fresh.remove() }
        for folder in ["home", "config", "runtime", "tmp"] {
            try FileManager.default.createDirectory(atPath: fresh.file(folder), withIntermediateDirectories: true)
        }
        var environment = vocab.environment
        environment["HOME"] = fresh.file("home")
        environment["XDG_CONFIG_HOME"] = fresh.file("config")
        environment["XDG_RUNTIME_DIR"] = fresh.file("runtime")
        environment["TMPDIR"] = fresh.file("tmp")
        environment["PULSE_SERVER"] = nil
        let result = try runProcess(Repository.vocabExecutable, ["say", "elephant", "--json"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let created = try FileManager.default.subpathsOfDirectory(atPath: fresh.path)
        // Before the fix: config/pulse/<machine-id>-runtime and tmp/pulse-<random> (libpulse's
        // runtime folder, made in TMPDIR) appeared here on every run.
        #expect(created.sorted() == ["config", "home", "runtime", "tmp"], "nothing but the folders the test made: \(created)")
    }
}
