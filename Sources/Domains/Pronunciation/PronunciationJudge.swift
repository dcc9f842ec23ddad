import PhoneKernels
import Speech

/// One word as the judge knows it: its entry, its spelling and its transcriptions (British and
/// American, as the catalog writes them).
public struct SpokenWord: Sendable, Hashable {
    public var entry: String
    public var word: String
    public var transcriptions: [String]

    public init(entry: String, word: String, transcriptions: [String]) {
        self.entry = entry
        self.word = word
        self.transcriptions = transcriptions
    }
}

/// What the judge made of an attempt at a word. Never "wrong": a recogniser hears children
/// three to four times worse than adults, so a doubtful attempt is "nearly, listen and try
/// again", and only a clear success is praised.
public struct PronunciationVerdict: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// The word, clearly: it beat every word it could be mistaken for.
        case wellSaid = "well_said"
        /// Speech, but not clearly this word (or too unlike any word).
        case nearly
        /// Sound, but no speech the recogniser could write down.
        case notHeard = "not_heard"
        /// Almost no sound at all (the microphone muted, or nobody spoke).
        case silence
    }

    public var kind: Kind
    /// The phones the recogniser wrote down, knowing nothing of the word.
    public var heard: [String]
    /// How much more likely the word was than the likeliest word it could be mistaken for, as a
    /// natural logarithm (above 0: the word won).
    public var margin: Double
    /// The word it sounded more like, when it did not win.
    public var soundedLike: SpokenWord?
    /// The word's sound to work on, said only when another word won clearly.
    public var sound: String?

    public init(kind: Kind, heard: [String], margin: Double, soundedLike: SpokenWord? = nil, sound: String? = nil) {
        self.kind = kind
        self.heard = heard
        self.margin = margin
        self.soundedLike = soundedLike
        self.sound = sound
    }
}

/// Judges an attempt at a word against the words it could be mistaken for, not against a
/// threshold: an absolute limit on the phone error rate accepted half the nearest-sounding
/// words (`../shared/reference/speech-recognition.md`). The competitors are the catalog's words
/// whose phones are closest to the word's (cat: hat, cap, cut, cot…), homophones aside, and a
/// free hypothesis (the recogniser's own best guess, phone by phone) stands for any other sound.
/// The attempt is well said when the word is likelier than every rival, less a small allowance,
/// and not far below the free guess.
///
/// The rivals are the word's competitors and every word that has the word among its own: the
/// closest words are not a symmetric relation (Betty is among dirty's closest, dirty not among
/// Betty's), and with only its own competitors as rivals, an attempt at "Betty" had only to beat
/// better, baby, beetle… to be accepted for a recording of "dirty" (85 of the 104 competitor
/// trials accepted before were of this kind). Measured by
/// scripts/bench-pronunciation on the 277 people's recordings the repository ships (hama
/// 1.7.0), with rivals one way and a margin of 0, then both ways, a margin of -0.5 and a free
/// allowance of 12: the word accepted 88.8 % -> 90.6 %, its nearest competitor 4.3 % -> 3.6 %,
/// another competitor 4.7 % -> 1.0 %, a random word 0.0 % both, shifted up 300 cents 83.0 % ->
/// 83.4 %, the neural voice's clips 83.8 % -> 85.9 %; both constants were chosen on half the
/// words and held on the other half (a 2-fold study; see docs/audio.md). Most refusals of the
/// right word left are the recogniser's (catch heard as k æ t, map as m æ t).
public struct PronunciationJudge: Sendable {
    /// How many of the closest words are competitors.
    public static let competitorCount = 8
    /// The free guess may be at most this much likelier (natural log, whole attempt) than the
    /// word: a little mumbling is allowed, another word entirely is not.
    public static let freeAllowance = 12.0
    /// The word wins when it is at most this much less likely than its likeliest rival (natural
    /// log): a near tie is the child's, not the rival's.
    public static let acceptMargin = -0.5
    /// With Whisper's word scores, the word wins when the two recognisers' margins added are
    /// above this: evidence for the word from one recogniser may outweigh doubt from the other,
    /// and a tie is not a win.
    public static let fusedAcceptMargin = 0.0
    /// A competitor whose sounds were this much likelier than the word's won clearly enough to
    /// name the sound.
    public static let clearLoss = 5.0

    private let words: [SpokenWord]
    private let phones: [[[String]]]
    private let byEntry: [String: Int]
    /// Each word's competitors, closest first, and its rivals: those and the words that have it
    /// among theirs. Worked out once for the whole catalog, a few hundred milliseconds.
    private let closest: [[Int]]
    private let rivals: [[Int]]

    public init(words: [SpokenWord]) {
        self.words = words
        let phones = words.map { word in Array(Set(word.transcriptions.map(RecogniserPhones.phones))).sorted { $0.joined() < $1.joined() } }
        self.phones = phones
        byEntry = Dictionary(words.enumerated().map { ($1.entry, $0) }, uniquingKeysWith: { first, _ in first })
        let group = Self.groups(phones)
        let closest = Self.closestWords(phones: phones, groups: group, words: words.map(\.word))
        self.closest = closest
        var reverse = [[Int]](repeating: [], count: words.count)
        for (index, list) in closest.enumerated() {
            for other in list { reverse[other].append(index) }
        }
        rivals = closest.indices.map { target in
            // Two senses of one rival (bat and bat) are one rival.
            var seen: Set<Int32> = []
            return (closest[target] + reverse[target]).filter { seen.insert(group[$0]).inserted }
        }
    }

    public func word(entry: String) -> SpokenWord? { byEntry[entry].map { words[$0] } }

    /// The words closest to `entry`'s, closest first: its competitors.
    public func competitors(of entry: String) -> [SpokenWord] {
        guard let target = byEntry[entry] else { return [] }
        return closest[target].map { words[$0] }
    }

    /// Every word an attempt at `entry` is judged against: its competitors, then the words that
    /// have it among theirs.
    public func rivals(of entry: String) -> [SpokenWord] {
        guard let target = byEntry[entry] else { return [] }
        return rivals[target].map { words[$0] }
    }

    /// A number per distinct set of pronunciations: words that sound alike share one.
    static func groups(_ phones: [[[String]]]) -> [Int32] {
        var groups: [[[String]]: Int32] = [:]
        return phones.map { set in
            if let known = groups[set] { return known }
            groups[set] = Int32(groups.count)
            return Int32(groups.count - 1)
        }
    }

    /// Every word's closest words, each sense once, never a homophone (`vocab_closest_words`;
    /// `groups`: the words' numbers from `groups(_:)`).
    static func closestWords(phones: [[[String]]], groups group: [Int32], words: [String]) -> [[Int]] {
        var numbers: [String: UInt16] = [:]
        var flat: [UInt16] = []
        var starts: [Int32] = [0]
        var first: [Int32] = [0]
        for transcriptions in phones {
            for sequence in transcriptions {
                for phone in sequence {
                    if let known = numbers[phone] {
                        flat.append(known)
                    } else {
                        numbers[phone] = UInt16(numbers.count)
                        flat.append(UInt16(numbers.count - 1))
                    }
                }
                starts.append(Int32(flat.count))
            }
            first.append(Int32(starts.count - 1))
        }
        // Among as close, alphabetically, lower case first, so the choice is stable.
        let lowered = words.map { $0.lowercased() }
        let order = words.indices.sorted { x, y in lowered[x] != lowered[y] ? lowered[x] < lowered[y] : words[x] > words[y] }
        var rank = [Int32](repeating: 0, count: words.count)
        for (place, index) in order.enumerated() { rank[index] = Int32(place) }
        let k = competitorCount
        var out = [Int32](repeating: -1, count: max(1, words.count * k))
        // It fails only when memory runs out, as Swift's own allocations would.
        precondition(vocab_closest_words(flat, starts, first, rank, group, Int32(words.count), Int32(k), &out) == 0, "out of memory")
        return words.indices.map { w in out[(w * k)..<(w * k + k)].filter { $0 >= 0 }.map(Int.init) }
    }

    /// The words whose scores the judge weighs an attempt at `entry` with, to ask the listener
    /// for: the word, then its rivals' spellings, each once.
    public func wordsToScore(for entry: String) -> [String] {
        guard let target = byEntry[entry] else { return [] }
        var seen: Set<String> = []
        return ([target] + rivals[target]).map { words[$0].word }.filter { seen.insert($0).inserted }
    }

    /// The verdict on `lattice` as an attempt at `entry` (nil: no such word). With Whisper's word
    /// scores in the lattice, the margin is the two recognisers' evidence added: how much likelier
    /// the word's sounds were than the likeliest rival's, and how much likelier Whisper found the
    /// word than the likeliest rival word.
    public func judge(_ lattice: PhoneLattice, as entry: String) -> PronunciationVerdict? {
        guard let target = byEntry[entry] else { return nil }
        let free = lattice.bestPath
        guard !free.phones.isEmpty else { return PronunciationVerdict(kind: .notHeard, heard: [], margin: 0) }
        let index = Dictionary(lattice.phones.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        func score(_ word: Int) -> (Double, [String]) {
            phones[word].map { (CTCScore.logLikelihood(lattice, $0, index: index), $0) }.max { $0.0 < $1.0 } ?? (-.infinity, [])
        }
        let (own, ownPhones) = score(target)
        let scored = rivals[target].map { ($0, score($0)) }
        let best = scored.max { $0.1.0 < $1.1.0 }
        var margin = own - (best?.1.0 ?? -.infinity)
        var threshold = Self.acceptMargin
        // The rival it sounded most like (its index, phones, and the word's margin over it by its
        // sounds and in all): by its sounds, or by both recognisers where Whisper scored.
        var closest = best.map { (index: $0.0, phones: $0.1.1, bySounds: own - $0.1.0, overall: own - $0.1.0) }
        let spelling = words[target].word.lowercased()
        if let ownWord = lattice.wordScores[words[target].word] {
            // A rival spelt as the word (read and read) is the word to Whisper.
            let others = scored.filter { words[$0.0].word.lowercased() != spelling }
            let wordScore = { (rival: Int) in lattice.wordScores[self.words[rival].word] ?? -.infinity }
            if let likeliest = others.map({ wordScore($0.0) }).max() {
                margin += ownWord - likeliest
                threshold = Self.fusedAcceptMargin
                closest = others.map { (index: $0.0, phones: $0.1.1, bySounds: own - $0.1.0, overall: own - $0.1.0 + ownWord - wordScore($0.0)) }
                    .min { $0.overall < $1.overall }
            }
        }
        if margin > threshold && own > free.logProbability - Self.freeAllowance {
            return PronunciationVerdict(kind: .wellSaid, heard: free.phones, margin: Self.finite(margin))
        }
        var verdict = PronunciationVerdict(kind: .nearly, heard: free.phones, margin: Self.finite(margin))
        if let closest, margin < 0 {
            verdict.soundedLike = words[closest.index]
            if closest.bySounds < -Self.clearLoss { verdict.sound = Self.firstDifference(ownPhones, closest.phones) }
        }
        return verdict
    }

    static func finite(_ x: Double) -> Double { x.isFinite ? x : (x > 0 ? 1000 : -1000) }

    /// The word's phone where the other word first differs from it (the last one, if the other
    /// word stops short): the sound to listen for.
    static func firstDifference(_ word: [String], _ other: [String]) -> String? {
        for (i, phone) in word.enumerated() where i >= other.count || other[i] != phone {
            // A phone inserted at the start ("an" for "fan"): still this phone.
            return phone
        }
        return nil
    }
}
