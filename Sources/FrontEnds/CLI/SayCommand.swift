import CLICore
import ArgumentParser
import AudioFile
import Audio
import Catalog
import Foundation

extension Accent: ExpressibleByArgument {
    public init?(argument: String) {
        guard let accent = Accent.parse(argument) else { return nil }
        self = accent
    }
}

extension AudioFormat: ExpressibleByArgument {}
extension Tier: ExpressibleByArgument {}

struct SayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "say",
        abstract: "Write (and optionally play) a word's pronunciation.",
        discussion: """
            Three tiers are tried in order: the word's recorded clip (a file under Audio/ or a \
            URL, cached on disk after the first download), then the legacy clip collection \
            (Audio/legacy/<accent>/<word>.wav), then espeak-ng synthesis, which always works. \
            A missing, unreachable or undecodable clip falls through to the next tier; the \
            output says which tier answered and why earlier ones were skipped.

            Examples:
              vocab say cat --accent british
              vocab say "ice cream" --accent american -o ice-cream.ogg
              vocab say elephant --play
              vocab say cat --tier tts --json
            """)

    @Argument(help: "The word or phrase (catalog words use their recorded and legacy clips).")
    var word: String

    @Option(name: .long, help: "british or american.")
    var accent: Accent = .british

    @Option(name: .shortAndLong, help: "Output file (default: a path under the vocab home, printed).")
    var output: String?

    @Option(name: .long, help: "wav, flac or ogg (default: from the -o extension, else wav).")
    var format: AudioFormat?

    @Option(name: .long, help: "Use only this tier: recorded, legacy or tts.")
    var tier: Tier?

    @Flag(name: .long, help: "Play the clip after writing it.")
    var play = false

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let env = options.environment
        let catalog = try await options.openCatalog()
        let entry = try? await catalog.lookup(word).first
        if entry == nil, !options.json {
            Output.error("vocab: '\(word)' is not in the catalog; trying legacy clips and speech.")
        }
        let request = ClipRequest(word: entry?.word ?? word, accent: accent, references: entry?.audio(for: accent))
        let pronunciation: Pronunciation
        do {
            pronunciation = try await AudioSetup(environment: env).pronouncer().pronounce(request, only: tier)
        } catch let none as NoClipAvailable {
            throw CommandFailure(none.description, exitCode: 1)
        }
        let format = self.format ?? output.flatMap(AudioFormat.from(path:)) ?? .wav
        let path = output ?? "\(env.clipsDirectory)/\(accent.rawValue)/\(ClipNaming.slug(request.word)).\(format.fileExtension)"
        try AudioFile.write(pronunciation.clip.pcm, to: path, format: format)

        var player: String?
        if play {
            player = try playClip(path)
            if player == nil {
                Output.error("vocab: no audio player found (install pulseaudio-utils, alsa-utils or sox); the clip is at \(path)")
            }
        }
        if options.json {
            struct Report: Encodable {
                let word: String, accent: Accent, tier: Tier, source: String, duration: Double, path: String
                let format: AudioFormat, skipped: [TierSkip], played: Bool
            }
            try Output.json(Report(word: request.word, accent: accent, tier: pronunciation.clip.tier, source: pronunciation.clip.source,
                                   duration: (pronunciation.clip.pcm.duration * 1000).rounded() / 1000, path: path, format: format,
                                   skipped: pronunciation.skipped, played: player != nil))
            return
        }
        for skip in pronunciation.skipped { Output.line("  skipped \(skip.tier.rawValue): \(skip.reason)") }
        Output.line(String(format: "%@ (%@): %@ from %@, %.2f s → %@", request.word, accent.rawValue,
                           pronunciation.clip.tier.rawValue, pronunciation.clip.source, pronunciation.clip.pcm.duration, path))
        if let player { Output.line("played with \(player)") }
    }
}
