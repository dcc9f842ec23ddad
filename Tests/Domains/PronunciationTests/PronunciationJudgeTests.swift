import AudioFile
import Foundation
import Speech
import TestSupport
import Testing

@testable import Pronunciation

/// The listener the project installs (`scripts/install-deps`, run by `make test`).
let installedListener: ListenerModel = {
    switch ListenerModel.locate(Repository.root + "/listener") {
    case .success(let model): return model
    case .failure(let error): fatalError("the listener should be installed by make test: \(error)")
    }
}()

/// One listener process for the suite: the model loads once.
let sharedListener = PhoneListener(model: installedListener)

func fixture(_ name: String) -> String { Bundle.module.path(forResource: "Fixtures/" + name, ofType: nil)! }

/// A few catalog words as the catalog writes them: cat and the words it could be mistaken for.
let words = [
    SpokenWord(entry: "animals/cat", word: "cat", transcriptions: ["kæt"]),
    SpokenWord(entry: "clothes/hat", word: "hat", transcriptions: ["hæt"]),
    SpokenWord(entry: "animals/bat", word: "bat", transcriptions: ["bæt"]),
    SpokenWord(entry: "sports/bat", word: "bat", transcriptions: ["bæt"]),
    SpokenWord(entry: "clothes/cap", word: "cap", transcriptions: ["kæp"]),
    SpokenWord(entry: "actions/cut", word: "cut", transcriptions: ["kʌt"]),
    SpokenWord(entry: "clothes/coat", word: "coat", transcriptions: ["kəʊt", "koʊt"]),
    SpokenWord(entry: "animals/dog", word: "dog", transcriptions: ["dɒɡ", "dɔːɡ"]),
    SpokenWord(entry: "animals/elephant", word: "elephant", transcriptions: ["ˈelɪfənt"]),
    SpokenWord(entry: "food/apple", word: "apple", transcriptions: ["ˈæpl"]),
]

@Suite("an attempt is judged against the words it could be mistaken for", .serialized)
struct PronunciationJudgeTests {
    let judge = PronunciationJudge(words: words)

    func lattice(_ file: String) async throws -> PhoneLattice {
        let pcm = try AudioFile.decode(fixture(file)).pcm
        return try await sharedListener.listen(pcm.samples, sampleRate: pcm.sampleRate)
    }

    @Test("the competitors are the closest words, a sound changed before one added, each sense once, never a homophone")
    func competitors() {
        let cat = judge.competitors(of: "animals/cat").map(\.word)
        // One sound changed, alphabetically; then the vowel added (apple) and the far words.
        #expect(Array(cat.prefix(5)) == ["bat", "cap", "coat", "cut", "hat"], "\(cat)")
        #expect(cat.filter { $0 == "bat" }.count == 1)
        #expect(!judge.competitors(of: "animals/bat").contains { $0.word == "bat" })
        #expect(judge.competitors(of: "nowhere/nothing").isEmpty)
    }

    @Test("a person saying cat, heard as cat: well said; the listener wrote down its sounds")
    func catIsCat() async throws {
        let verdict = try #require(judge.judge(try await lattice("cat.wav"), as: "animals/cat"))
        #expect(verdict.kind == .wellSaid)
        #expect(verdict.heard == ["k", "æ", "t"])
        #expect(verdict.margin > 0)
        #expect(verdict.soundedLike == nil && verdict.sound == nil)
    }

    @Test("the same recording as an attempt at hat: nearly, it sounded like cat, listen for /h/")
    func catIsNotHat() async throws {
        let verdict = try #require(judge.judge(try await lattice("cat.wav"), as: "clothes/hat"))
        #expect(verdict.kind == .nearly)
        #expect(verdict.soundedLike?.word == "cat")
        #expect(verdict.margin < -PronunciationJudge.clearLoss)
        #expect(verdict.sound == "h")
    }

    @Test("a person saying hat is hat, and not cat; an Ogg recording is heard as its WAV copy is")
    func hatAndOgg() async throws {
        #expect(judge.judge(try await lattice("hat.wav"), as: "clothes/hat")?.kind == .wellSaid)
        #expect(judge.judge(try await lattice("hat.wav"), as: "animals/cat")?.kind == .nearly)
        #expect(judge.judge(try await lattice("cat.ogg"), as: "animals/cat")?.kind == .wellSaid)
    }

    @Test("a recording of a word far from every competitor is not well said as any of them")
    func farWords() async throws {
        let heard = try await lattice("cat.wav")
        for entry in ["animals/elephant", "food/apple", "animals/dog"] {
            #expect(judge.judge(heard, as: entry)?.kind == .nearly, "\(entry)")
        }
    }

    @Test("silence gives the listener nothing to write down: not heard")
    func silenceIsNotHeard() async throws {
        let quiet = try await sharedListener.listen([Float](repeating: 0, count: 16000), sampleRate: 16000)
        #expect(judge.judge(quiet, as: "animals/cat")?.kind == .notHeard)
    }

    @Test("a listener process that died is replaced: the attempt after it is heard by a new one")
    func aDeadListenerIsReplaced() async throws {
        let listener = PhoneListener(model: installedListener, retryAfter: 0)
        defer { listener.stop() }
        #expect(await listener.warmUp() == nil)
        let first = try #require(listener.processIDs.first)
        kill(first, SIGKILL)
        let pcm = try AudioFile.decode(fixture("cat.wav")).pcm
        // The attempt that finds it dead fails with the reason; the next starts another process.
        await #expect(throws: SpeechError.self) { try await listener.listen(pcm.samples, sampleRate: pcm.sampleRate) }
        let lattice = try await listener.listen(pcm.samples, sampleRate: pcm.sampleRate)
        #expect(lattice.bestPath.phones == ["k", "æ", "t"])
        #expect(listener.processIDs.first != first)
    }

    @Test("a listener that stops answering is given up on at its deadline and replaced")
    func aHungListenerIsReplaced() async throws {
        let listener = PhoneListener(model: installedListener, requestTimeout: 2, retryAfter: 0)
        defer { listener.stop() }
        #expect(await listener.warmUp() == nil)
        let first = try #require(listener.processIDs.first)
        kill(first, SIGSTOP)
        let pcm = try AudioFile.decode(fixture("cat.wav")).pcm
        await #expect(throws: SpeechError.self) { try await listener.listen(pcm.samples, sampleRate: pcm.sampleRate) }
        #expect(try await listener.listen(pcm.samples, sampleRate: pcm.sampleRate).bestPath.phones == ["k", "æ", "t"])
    }
}
