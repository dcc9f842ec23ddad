import AudioFile
import Foundation
import SeededRandom
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

    @Test("a word is a rival of the words it has among its closest, even where they do not have it among theirs")
    func rivalsBothWays() async throws {
        // Eight words one sound from hat, all spelt before "cat": hat's eight closest leave cat
        // out, but cat's closest have hat.
        let crowded =
            [
                SpokenWord(entry: "animals/cat", word: "cat", transcriptions: ["kæt"]),
                SpokenWord(entry: "clothes/hat", word: "hat", transcriptions: ["hæt"]),
            ]
            + zip(["aa", "ab", "ac", "ad", "ae", "af", "ag", "ah"], ["bæt", "fæt", "mæt", "pæt", "ræt", "sæt", "hɪt", "hɒt"]).map {
                SpokenWord(entry: "made-up/\($0)", word: $0, transcriptions: [$1])
            }
        let judge = PronunciationJudge(words: crowded)
        #expect(!judge.competitors(of: "clothes/hat").contains { $0.word == "cat" })
        #expect(judge.competitors(of: "animals/cat").contains { $0.word == "hat" })
        #expect(judge.rivals(of: "clothes/hat").map(\.word) == judge.competitors(of: "clothes/hat").map(\.word) + ["cat"])
        // A person saying cat, as an attempt at hat: cat is its rival all the same, and won.
        let verdict = try #require(judge.judge(try await lattice("cat.wav"), as: "clothes/hat"))
        #expect(verdict.kind == .nearly)
        #expect(verdict.soundedLike?.word == "cat")
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

    @Test("Whisper, installed beside hama, scores the words asked about: a person saying cat is cat to both, and not hat")
    func whisperWeighsTheWords() async throws {
        let pcm = try AudioFile.decode(fixture("cat.wav")).pcm
        let asCat = try await sharedListener.listen(pcm.samples, sampleRate: pcm.sampleRate, words: judge.wordsToScore(for: "animals/cat"))
        #expect(Set(asCat.wordScores.keys) == Set(judge.wordsToScore(for: "animals/cat")))
        let cat = try #require(asCat.wordScores["cat"])
        let hat = try #require(asCat.wordScores["hat"])
        #expect(cat > hat + 2, "cat \(cat), hat \(hat)")
        let soundsOnly = try #require(judge.judge(try await lattice("cat.wav"), as: "animals/cat"))
        let both = try #require(judge.judge(asCat, as: "animals/cat"))
        #expect(both.kind == .wellSaid)
        // Whisper's evidence is added to the sounds': the margin grows by what it found.
        #expect(both.margin > soundsOnly.margin)
        let asHat = try await sharedListener.listen(pcm.samples, sampleRate: pcm.sampleRate, words: judge.wordsToScore(for: "clothes/hat"))
        let verdict = try #require(judge.judge(asHat, as: "clothes/hat"))
        #expect(verdict.kind == .nearly)
        #expect(verdict.soundedLike?.word == "cat")
        #expect(verdict.sound == "h")
        // Had Whisper heard hat clearly, its doubt would outweigh the sounds' lead: not well said.
        var doubted = asCat.wordScores
        doubted["cat"] = (doubted["hat"] ?? 0) - soundsOnly.margin - 1
        let doubtedCat = PhoneLattice(
            phones: asCat.phones, blank: asCat.blank, frames: asCat.frames, logProbabilities: asCat.logProbabilities, wordScores: doubted)
        #expect(judge.judge(doubtedCat, as: "animals/cat")?.kind == .nearly)
        // Asked about nothing, Whisper says nothing.
        #expect(try await lattice("cat.wav").wordScores.isEmpty)
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

/// The closest words, worked out in C for the whole catalog at once, are those a plain reading
/// of the rule gives, word by word.
@Suite("the closest words of every word")
struct ClosestWordsTests {
    /// The rule as it reads: every other word by its nearest pair of transcriptions, nearer first,
    /// then the smaller difference of lengths, then spelling (lower case first); homophones left
    /// out, each set of transcriptions once.
    func plainReading(_ phones: [[[String]]], _ words: [String], k: Int) -> [[Int]] {
        func distance(_ a: [String], _ b: [String]) -> Double {
            if a.isEmpty || b.isEmpty { return a.count == b.count ? 0 : 1 }
            var row = Array(0...b.count)
            for i in 1...a.count {
                var diagonal = row[0]
                row[0] = i
                for j in 1...b.count {
                    let above = row[j]
                    row[j] = min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1))
                    diagonal = above
                }
            }
            return Double(row[b.count]) / Double(max(a.count, b.count))
        }
        return phones.indices.map { target in
            var scored: [(Double, Int, Int)] = []
            for (index, candidate) in phones.enumerated() where index != target && !candidate.isEmpty && !phones[target].isEmpty {
                if candidate.contains(where: phones[target].contains) { continue }
                var best = (Double.infinity, Int.max)
                for a in phones[target] {
                    for b in candidate where (distance(a, b), abs(a.count - b.count)) < best { best = (distance(a, b), abs(a.count - b.count)) }
                }
                scored.append((best.0, best.1, index))
            }
            scored.sort { a, b in
                if a.0 != b.0 { return a.0 < b.0 }
                if a.1 != b.1 { return a.1 < b.1 }
                let (x, y) = (words[a.2], words[b.2])
                return x.lowercased() != y.lowercased() ? x.lowercased() < y.lowercased() : x > y
            }
            var chosen: [Int] = []
            var seen: Set<[[String]]> = []
            for entry in scored where seen.insert(phones[entry.2]).inserted {
                chosen.append(entry.2)
                if chosen.count == k { break }
            }
            return chosen
        }
    }

    @Test("on 200 random words of a few sounds, full of ties, senses and homophones, for three seeds")
    func sameAsThePlainReading() {
        let sounds = ["k", "æ", "t", "h", "b", "ʌ", "s", "ɪ"]
        for seed in [1, 2, 3] as [UInt64] {
            var random = SeededGenerator(seed: seed)
            let spellings = ["cat", "Cat", "hat", "bat", "Bat", "bit", "sit", "kit", "hut", "but", "tab", "stab", "abs", "ask", "task"]
            let phones: [[[String]]] = (0..<200).map { _ in
                let one = (0..<Int(random.next() % 4 + 1)).map { _ in sounds[Int(random.next() % UInt64(sounds.count))] }
                let two = (0..<Int(random.next() % 5 + 1)).map { _ in sounds[Int(random.next() % UInt64(sounds.count))] }
                return Array(Set(random.next() % 3 == 0 ? [one, two] : [one])).sorted { $0.joined() < $1.joined() }
            }
            let words = (0..<200).map { i in spellings[Int(random.next() % UInt64(spellings.count))] + (i % 7 == 0 ? "" : String(i % 11)) }
            let k = PronunciationJudge.competitorCount
            #expect(
                PronunciationJudge.closestWords(phones: phones, groups: PronunciationJudge.groups(phones), words: words) == plainReading(phones, words, k: k),
                "seed \(seed)")
        }
    }
}
