import App
import AppCore
import ArgumentParser
import Audio
import AudioFile
import Catalog
import CLICore
import Foundation

extension AudioFormat: ExpressibleByArgument {}
extension Tier: ExpressibleByArgument {}

struct SayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "say",
        abstract: "Write (and optionally play) a word's pronunciation.",
        discussion: """
            Three tiers are tried in order: the word's recorded clip (a file under Audio/ or a \\
            URL, cached on disk after the first download), then the legacy clip collection \\
            (Audio/legacy/<accent>/<word>.wav), then espeak-ng synthesis, which always works. \\
            A missing, unreachable or undecodable clip falls through to the next tier; the \\
            output says which tier answered and why earlier ones were skipped.

            Without -o the clip is kept in the vocab home under the entry's identity \\
            (clips/<accent>/catalog/<category>/<word>.wav), where 'vocab serve' finds it too, \\
            and reused while the word's clip references stay the same.

            Examples:
              vocab say cat --accent british
              vocab say "ice cream" --accent us -o ice-cream.ogg
              vocab say elephant --play
              vocab say cat --tier tts --json
            """)

    @Argument(help: "The word or phrase (catalog words use their recorded and legacy clips).")
    var word: String

    @Option(name: .long, help: "british or american (also uk, gb, en-gb, us, en-us).")
    var accent: Accent = .british

    @Option(name: .shortAndLong, help: "Output file (default: the clip store in the vocab home, printed).")
    var output: String?

    @Option(name: .long, help: "wav, flac or ogg (default: from the -o extension, else wav).")
    var format: AudioFormat?

    @Option(name: .long, help: "Use only this tier: recorded, legacy or tts.")
    var tier: Tier?

    @Flag(name: .long, help: "Play the clip after writing it.")
    var play = false

    @OptionGroup var options: GlobalOptions

    func validate() throws {
        // Before any synthesis: an empty, dot-only, control-laden or 10,000-character word is a
        // mistake, not something to speak.
        _ = try checked { () throws(Failure) in try InputRules.text(word, name: "word") }
    }

    func run() async throws {
        let services = options.services
        let catalog = try await options.openCatalog()
        let text = try InputRules.text(word, name: "word")
        let (request, entry, inCatalog) = await services.clipSubject(text, accent: accent, catalog: catalog)
        if !inCatalog, !options.json {
            Output.error("vocab: '\(Failure.quote(text))' is not in the catalog; trying legacy clips and speech.")
        }
        let format = self.format ?? output.flatMap(AudioFormat.from(path:)) ?? .wav
        let pronouncer = services.pronouncer().pronouncer
        var skipped: [TierSkip] = []
        let clip: StoredClip
        if let output {
            // A file of the user's choosing: rendered for this call, not kept in the store.
            let pronunciation = try await pronouncer.pronounce(request, only: tier)
            try AudioFile.write(pronunciation.clip.pcm, to: output, format: format)
            skipped = pronunciation.skipped
            clip = StoredClip(path: output, record: ClipRecord(word: request.word, entry: entry, accent: accent, tier: pronunciation.clip.tier,
                                                               source: pronunciation.clip.source,
                                                               duration: (pronunciation.clip.pcm.duration * 1000).rounded() / 1000,
                                                               inputs: ClipStore.inputs(of: request)))
        } else {
            // Rendered every time (a fraction of a second), so the tiers' reasons are current.
            let pronunciation = try await pronouncer.pronounce(request, only: tier)
            skipped = pronunciation.skipped
            clip = try services.clipStore.save(pronunciation, key: ClipKey(entry: entry, accent: accent, format: format),
                                               word: request.word, inputs: ClipStore.inputs(of: request))
        }

        var player: String?
        if play {
            player = try playClip(clip.path)
            if player == nil {
                Output.error("vocab: no audio player found (install pulseaudio-utils, alsa-utils or sox); the clip is at \(clip.path)")
            }
        }
        if options.json {
            struct Report: Encodable {
                let word: String, entry: String, accent: Accent, tier: Tier, source: String, duration: Double, path: String
                let format: AudioFormat, skipped: [TierSkip], played: Bool
            }
            try Output.json(Report(word: request.word, entry: entry.description, accent: accent, tier: clip.record.tier,
                                   source: clip.record.source, duration: clip.record.duration, path: clip.path, format: format,
                                   skipped: skipped, played: player != nil))
            return
        }
        for skip in skipped { Output.line("  skipped \(skip.tier.rawValue): \(skip.reason)") }
        Output.line(String(format: "%@ (%@): %@ from %@, %.2f s → %@", request.word, accent.rawValue,
                           clip.record.tier.rawValue, clip.record.source, clip.record.duration, clip.path))
        if let player { Output.line("played with \(player)") }
    }
}
