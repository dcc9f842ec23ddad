import App
import AppCore
import ArgumentParser
import CLICore
import Foundation

struct ListenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Hear a recording of someone saying a word, and say whether it was the word.",
        discussion: """
            The recording (WAV, Ogg with Opus or Vorbis, FLAC, or WebM with Opus as a browser \
            records it; at most 10 seconds) is heard \
            by the listener, two offline recognisers installed by 'make' in listener/ (hama \
            writes down the sounds, Whisper tiny.en weighs the words), and judged against the \
            catalog words it could be mistaken for (cat: hat, cap, cut, cot…), never against a \
            threshold alone. The verdict is one of:

              well_said   the word, clearly: it beat every word it could be mistaken for
              nearly      speech, but not clearly the word: listen and try again (with the word \
            it sounded like, and the sound to listen for when that word won clearly)
              not_heard   sound, but no speech the listener could write down
              silence     almost no sound at all

            Nothing is recorded here: 'vocab listen' only judges. (A learner's attempt sent to \
            POST /v1/me/attempts that is well said counts as a review, rated Good.)

            --batch FILE reads lines of a word and a recording's path separated by a tab, and \
            prints one JSON line per recording, with how long the listening took: one listener \
            for the whole file, as a server keeps it warm.

            Examples:
              vocab listen cat cat.wav
              vocab listen cat cat.wav --json
              vocab listen cat --competitors
              vocab listen --batch attempts.tsv
            """)

    @Argument(help: "The catalog word that was said.")
    var word: String?

    @Argument(help: "The recording.")
    var file: String?

    @Option(name: .long, help: ArgumentHelp("The catalog entry, where a headword has several (animals/bat).", valueName: "id"))
    var entry: String?

    @Option(name: .long, help: ArgumentHelp("Lines of WORD<TAB>FILE: a JSON line for each.", valueName: "file"))
    var batch: String?

    @Flag(name: .long, help: "List the words an attempt at WORD is judged against (its closest, then those it is closest to), and hear nothing.")
    var competitors = false

    @OptionGroup var options: GlobalOptions

    func validate() throws {
        if batch != nil {
            guard word == nil, file == nil, entry == nil, !competitors else {
                throw ValidationError("--batch reads its words and files from the file; give no WORD, FILE, --entry or --competitors with it.")
            }
            return
        }
        guard let word else { throw ValidationError("say which word was said: vocab listen WORD FILE.") }
        _ = try checked { () throws(Failure) in try InputRules.text(word, name: "word") }
        if !competitors, file == nil { throw ValidationError("name the recording: vocab listen \(word) FILE.") }
        if competitors, file != nil { throw ValidationError("--competitors hears nothing; give no FILE with it.") }
    }

    func run() async throws {
        let app = try options.app()
        let listening = try await app.listening()
        if let batch { return try await runBatch(batch, listening: listening) }
        guard let word else { return }
        let entry: String
        if let chosen = self.entry { entry = chosen } else { entry = try await listening.entry(for: word) }
        if competitors {
            let (closest, rivals) = try await listening.competitors(of: entry)
            let others = rivals.dropFirst(closest.count)
            if options.json {
                /// `closest`: one of the word's own closest words (else a word that has it among its own).
                struct Competitor: Encodable { let entry: String, word: String, closest: Bool }
                try Output.json(rivals.enumerated().map { Competitor(entry: $1.entry, word: $1.word, closest: $0 < closest.count) })
            } else {
                Output.line(
                    "\(word) is judged against: " + closest.map(\.word).joined(separator: ", ")
                        + (others.isEmpty ? "" : "; and, as it is among their closest words: " + others.map(\.word).joined(separator: ", ")))
            }
            return
        }
        guard let file else { return }
        let body = try await listening.attempt(entry: entry, file: file)
        if options.json { return try Output.json(body) }
        Output.line(Self.sentence(body))
    }

    private func runBatch(_ path: String, listening: ListeningService) async throws {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw Failure(.missingFile, "cannot read \(Failure.quote(path)).")
        }
        struct Line: Encodable {
            let word: String, file: String
            let attempt: AttemptBody?
            let error: String?
            let code: String?
            let milliseconds: Double
        }
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            let fields = line.split(separator: "\t", maxSplits: 1).map(String.init)
            guard fields.count == 2 else { throw Failure(.badRequest, "line \(number + 1) of \(Failure.quote(path)) is not WORD<TAB>FILE.") }
            let start = ContinuousClock.now
            do {
                let entry = fields[0].contains("/") ? fields[0] : try await listening.entry(for: fields[0])
                let body = try await listening.attempt(entry: entry, file: fields[1])
                try Output.jsonLine(Line(word: fields[0], file: fields[1], attempt: body, error: nil, code: nil, milliseconds: Self.ms(since: start)))
            } catch let failure as Failure {
                try Output.jsonLine(
                    Line(
                        word: fields[0], file: fields[1], attempt: nil, error: failure.message, code: failure.code.rawValue, milliseconds: Self.ms(since: start)
                    ))
            }
        }
    }

    static func ms(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        return (ms * 10).rounded() / 10
    }

    /// The verdict in words, kind ones: a doubtful attempt is never called wrong.
    static func sentence(_ body: AttemptBody) -> String {
        let heard = body.heard.isEmpty ? "" : " (heard: \(body.heard))"
        switch body.verdict {
        case "well_said": return "\(body.word): well said!\(heard)"
        case "nearly":
            var text = "\(body.word): nearly. Listen to it and try again"
            if let other = body.soundedLike { text += "; it sounded more like '\(other.word)'" }
            if let sound = body.sound { text += ", so listen for /\(sound)/" }
            return text + "." + heard
        case "not_heard": return "\(body.word): no word was heard. Say it again, a little louder."
        default: return "\(body.word): nothing was heard. Is the microphone on?"
        }
    }
}
