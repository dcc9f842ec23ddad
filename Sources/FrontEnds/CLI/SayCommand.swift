import App
import AppCore
import ArgumentParser
import Audio
import AudioFile
import CLICore
import Catalog
import FileAccess
import Foundation

extension AudioFormat: ExpressibleByArgument {}
extension Tier: ExpressibleByArgument {}

struct SayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "say",
        abstract: "Write (and optionally play) a word's pronunciation.",
        discussion: """
            Four tiers are tried in order: the entry's recorded clip (one imported with 'vocab \
            audio import', or its reference in the category file: a file under Audio/ or a URL, \
            cached on disk after the first download), then the legacy clip (imported, referenced, \
            or a file in Audio/legacy/<accent>/ named after the word in any spelling: Sheep.wav, \
            ice-cream.wav), then the neural voice (English: hibari's American voice, with British \
            pronunciation for --accent british; installed by 'make'), then espeak-ng synthesis, \
            which always works. A missing, unreachable or broken clip falls through to the next \
            tier; the output says which tier answered and why earlier ones were skipped. Every \
            clip is trimmed and brought to the same loudness (-20 LUFS), whichever tier made it.

            --speed 0.75 speaks more slowly (0.5 to 1.5; a clip of its own, kept beside the \
            normal one). Recordings play at their own pace, so a slower clip comes from the voices.

            Mandarin: a title of the MOE dictionary (after 'vocab import moe') is spoken from the \
            pinyin of one reading, the first unless --reading names another (tone marks or \
            numbers). Han text that is not a catalog word is taken as a title; --accent \
            mandarin says so explicitly.

            Without -o the clip is kept in the vocab home under the entry's identity \
            (clips/<accent>/catalog/<category>/<word>.wav, clips/mandarin/moe/<title>/<reading>.wav), \
            where 'vocab serve' finds it too.

            Examples:
              vocab say cat --accent british
              vocab say "ice cream" --accent us -o ice-cream.ogg
              vocab say elephant --play
              vocab say cat --tier tts --json
              vocab say elephant --speed 0.75        # slower, for a child
              vocab say 行                      # the first reading, xíng
              vocab say 行 --reading háng       # or --reading hang2
              vocab say 銀行 --accent mandarin -o yinhang.wav
            """)

    @Argument(help: "The word or phrase (catalog words use their recorded and legacy clips), or a Mandarin title.")
    var word: String

    @Option(name: .long, help: "british, american or mandarin (also uk, gb, en-gb, us, en-us, cmn, zh).")
    var accent: Accent?

    @Option(name: .long, help: "Mandarin: which reading, in pinyin with tone marks or numbers (default: the first).")
    var reading: String?

    @Option(
        name: .shortAndLong,
        help: "Output file, - for standard output (default: the clip store in the vocab home, printed). A device or FIFO is written into, a link followed.")
    var output: String?

    @Option(name: .long, help: "wav, flac or ogg (default: from the -o extension, else wav).")
    var format: AudioFormat?

    @Option(name: .long, help: "Use only this tier: recorded, legacy, neural or tts.")
    var tier: Tier?

    @Option(name: .long, help: ArgumentHelp("Pace, 0.5-1.5 (1: the voice's own; 0.75 is slower).", valueName: "pace"))
    var speed: String?

    @Flag(name: .long, help: "Play the clip after writing it.")
    var play = false

    @OptionGroup var options: GlobalOptions

    /// `-o -`: the clip itself goes to standard output, the report to standard error.
    var toStandardOutput: Bool { output == "-" }

    func validate() throws {
        if toStandardOutput, play { throw ValidationError("--play plays a file; with -o - the clip goes to standard output.") }
        // Before any synthesis: an empty, dot-only, control-laden or 10,000-character word is a
        // mistake, not something to speak.
        _ = try checked { () throws(Failure) in try InputRules.text(word, name: "word") }
        if let reading { _ = try checked { () throws(Failure) in try InputRules.text(reading, name: "reading", pathSafe: false) } }
        if let speed { _ = try checked { () throws(Failure) in try InputRules.speed(speed) } }
        if reading != nil, let accent, accent != .mandarin {
            throw ValidationError("--reading is for Mandarin titles; it does not go with --accent \(accent.rawValue).")
        }
    }

    func run() async throws {
        // Every file the answer is computed from is stamped on the way: a clip answered from
        // the store is then given by the launcher itself while none of them changes.
        let witness = StampWitness()
        let environment = options.environment
        let catalogStamp = try? CatalogSource(directory: environment.categoriesDirectory).fingerprint()
        try await StampWitness.$current.withValue(witness) {
            try await answer(environment: environment, witness: witness, catalogStamp: catalogStamp)
        }
    }

    private func answer(environment: VocabEnvironment, witness: StampWitness, catalogStamp: String?) async throws {
        let app = try options.app()
        let text = try InputRules.text(word, name: "word")
        let pace = try speed.map { try InputRules.speed($0) } ?? 1
        var request: ClipRequest
        var inCatalog = false
        if try await isMandarin(text, app: app) {
            let dictionary = try app.moe()
            request = try MandarinClips.request(title: text, reading: reading, dictionary: dictionary)
        } else {
            let subject: ClipRequest
            (subject, inCatalog) = await app.audio.subject(text, accent: accent ?? .british, catalog: try await app.catalog())
            if !inCatalog, !options.json { Output.error(SayReport.notInCatalog(text)) }
            request = subject
        }
        request.speed = pace
        let format = self.format ?? output.flatMap(AudioFormat.from(path:)) ?? .wav
        // The fingerprint needs no synthesizer (`planner`): answering from the store loads none.
        let inputs = app.audio.planner().inputs(of: request)
        let clip: StoredClip
        let skipped: [TierSkip]
        var madeBefore = false
        // A clip made before from the same inputs (no recording added or changed since, the same
        // voice) is answered from the store without starting any engine: the neural voice's
        // process takes a second to load. A chosen tier or file is rendered for the call.
        if output == nil, tier == nil, let stored = app.audio.clipStore.stored(request.key(format: format), inputs: inputs) {
            clip = stored
            skipped = []
            madeBefore = true
        } else {
            (clip, skipped) = try await render(
                request, format: format, inputs: inputs, pronouncer: app.audio.pronouncer().pronouncer, store: app.audio.clipStore)
        }
        let report = try finish(clip, request: request, format: format, skipped: skipped, madeBefore: madeBefore)
        // A clip of the store for an English word, from files alone: the next same call is the
        // launcher's to answer while they stay as they are.
        if output == nil, tier == nil, request.accent.isEnglish, let catalogStamp, let stamps = witness.stamps,
            let program = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        {
            let call = SaidBefore.Call(text: text, accent: accent?.rawValue, pace: pace, format: format.rawValue)
            let record = SaidBefore(
                call: call, environment: environment, program: program, catalog: catalogStamp,
                files: stamps + [(clip.path, fileStamp(clip.path))], inCatalog: inCatalog, report: report)
            SaidBeforeIndex(home: environment.home).keep(record)
        }
    }

    /// Renders the clip from the tiers: into the file named (`-o`), or into the clip store.
    private func render(
        _ request: ClipRequest, format: AudioFormat, inputs: String, pronouncer: Pronouncer, store: ClipStore
    ) async throws -> (StoredClip, [TierSkip]) {
        let accent = request.accent
        let pronunciation = try await pronouncer.pronounce(request, only: tier)
        let clip: StoredClip
        if let output {
            // A file of the user's choosing: rendered for this call, not kept in the store, but
            // carrying its record like every clip vocab writes (the same bytes as `render`'s).
            let record = ClipRecord(
                word: request.word, entry: request.key(format: format).entry, accent: accent,
                tier: pronunciation.clip.tier, source: pronunciation.clip.source,
                duration: (pronunciation.clip.pcm.duration * 1000).rounded() / 1000,
                inputs: inputs, reading: request.reading)
            let destination = try OutputPath.resolve(output)
            do {
                try AudioFile.write(pronunciation.clip.pcm, to: destination.temporary, format: format, comment: record.json)
                try destination.commit(durable: false)
            } catch {
                destination.discard()
                throw error
            }
            clip = StoredClip(path: output, record: record)
        } else {
            clip = try store.save(pronunciation, key: request.key(format: format), word: request.word, inputs: inputs)
        }
        return (clip, pronunciation.skipped)
    }

    /// Plays the clip when asked and reports it; returns the report.
    private func finish(_ clip: StoredClip, request: ClipRequest, format: AudioFormat, skipped: [TierSkip], madeBefore: Bool) throws -> SayReport {
        var player: String?
        var playFailure: Failure?
        if play {
            switch try playClip(clip.path) {
            case .played(let name): player = name
            case .noPlayer:
                playFailure = Failure(.noPlayer, "no audio player found (install pulseaudio-utils, alsa-utils or sox); the clip is at \(clip.path)")
            case .failed(let reasons):
                playFailure = Failure(
                    .playbackFailed, "the clip could not be played (\(reasons.joined(separator: "; ")); is there a sound device?); it is at \(clip.path)")
            }
        }
        // The clip is written either way: report it, then the failure to play it.
        defer { if let playFailure { Output.error("vocab: \(playFailure.message)") } }
        let report = SayReport(
            word: request.word, entry: clip.record.entry, accent: request.accent.rawValue, reading: request.reading,
            tier: clip.record.tier.rawValue, source: clip.record.source, duration: clip.record.duration, path: clip.path,
            format: format.rawValue, skipped: skipped.map { SayReport.Skipped(tier: $0.tier.rawValue, reason: $0.reason, broken: !$0.isAbsence) },
            played: player != nil, synthetic: clip.record.tier.isSynthesis, madeBefore: madeBefore, voice: clip.record.tier.voice)
        if options.json {
            try Output.json(report, toStandardError: toStandardOutput)
        } else {
            for skip in skipped { Output.line("  skipped \(skip.tier.rawValue): \(skip.reason)", toStandardError: toStandardOutput) }
            Output.line(report.line, toStandardError: toStandardOutput)
            if let player { Output.line("played with \(player)") }
        }
        if playFailure != nil { throw ExitCode(Failure.Kind.unavailable.exitCode) }
        return report
    }

    /// Mandarin when asked for (--accent mandarin, --reading), or when Han text is not a
    /// catalog word and the dictionary is there to look it up.
    private func isMandarin(_ text: String, app: VocabApp) async throws -> Bool {
        if accent == .mandarin || reading != nil { return true }
        // Chinese text that is no catalog word is Mandarin even before the dictionary is
        // imported: then its missing import is the answer, not the English voice reading
        // "Chinese letter" for each character.
        guard accent == nil, text.contains(where: ClipNaming.isHan) else { return false }
        let catalog = try await app.catalog()
        return (try? await catalog.entries(for: text)) == nil
    }
}
