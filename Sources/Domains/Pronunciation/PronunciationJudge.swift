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
/// The attempt is well said when the word is likelier than every competitor and not far below
/// the free guess.
///
/// Measured by scripts/bench-pronunciation on the 277 people's recordings the repository ships
/// (hama 1.7.0): the word accepted 88.8 %, its nearest competitor 4.3 %, another competitor
/// 4.7 %, a random other word 0.0 %, the recordings shifted up 300 cents 83.0 %. Most refusals
/// of the right word are the recogniser's (catch heard as k æ t, map as m æ t). With a free
/// allowance of 15 the word was accepted 89.5 % but a random word 1.1 %.
public struct PronunciationJudge: Sendable {
    /// How many of the closest words are competitors.
    public static let competitorCount = 8
    /// The free guess may be at most this much likelier (natural log, whole attempt) than the
    /// word: a little mumbling is allowed, another word entirely is not.
    public static let freeAllowance = 10.0
    /// A competitor this much likelier than the word won clearly enough to name the sound.
    public static let clearLoss = 5.0

    private let words: [SpokenWord]
    private let phones: [[[String]]]
    private let byEntry: [String: Int]

    public init(words: [SpokenWord]) {
        self.words = words
        phones = words.map { word in Array(Set(word.transcriptions.map(RecogniserPhones.phones))).sorted { $0.joined() < $1.joined() } }
        byEntry = Dictionary(words.enumerated().map { ($1.entry, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public func word(entry: String) -> SpokenWord? { byEntry[entry].map { words[$0] } }

    /// The words an attempt at `entry` is judged against, closest first.
    public func competitors(of entry: String) -> [SpokenWord] {
        guard let target = byEntry[entry] else { return [] }
        return competitorIndices(of: target).map { words[$0] }
    }

    func competitorIndices(of target: Int) -> [Int] {
        let own = Set(phones[target])
        var scored: [(distance: Double, lengths: Int, index: Int)] = []
        for (index, candidate) in phones.enumerated() where index != target {
            // Another sense of the word, or a homophone: saying it is saying the word.
            if candidate.contains(where: own.contains) { continue }
            var best = (distance: Double.infinity, lengths: Int.max)
            for a in phones[target] {
                for b in candidate {
                    let pair = (Self.distance(a, b), abs(a.count - b.count))
                    if pair < best { best = pair }
                }
            }
            scored.append((best.distance, best.lengths, index))
        }
        // Closest first; among as close, a sound changed (cat: hat) before one added or left out
        // (cat: at, catch), then alphabetically, lower case first, so the choice is stable.
        scored.sort { a, b in
            if a.distance != b.distance { return a.distance < b.distance }
            if a.lengths != b.lengths { return a.lengths < b.lengths }
            let (x, y) = (words[a.index].word, words[b.index].word)
            return x.lowercased() != y.lowercased() ? x.lowercased() < y.lowercased() : x > y
        }
        // Two senses of one competitor (bat and bat) are one competitor.
        var chosen: [Int] = []
        var seen: Set<[[String]]> = []
        for entry in scored where seen.insert(phones[entry.index]).inserted {
            chosen.append(entry.index)
            if chosen.count == Self.competitorCount { break }
        }
        return chosen
    }

    /// The verdict on `lattice` as an attempt at `entry` (nil: no such word).
    public func judge(_ lattice: PhoneLattice, as entry: String) -> PronunciationVerdict? {
        guard let target = byEntry[entry] else { return nil }
        let free = lattice.bestPath
        guard !free.phones.isEmpty else { return PronunciationVerdict(kind: .notHeard, heard: [], margin: 0) }
        let index = Dictionary(lattice.phones.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        func score(_ word: Int) -> (Double, [String]) {
            phones[word].map { (CTCScore.logLikelihood(lattice, $0, index: index), $0) }.max { $0.0 < $1.0 } ?? (-.infinity, [])
        }
        let (own, ownPhones) = score(target)
        let rivals = competitorIndices(of: target).map { ($0, score($0)) }
        let best = rivals.max { $0.1.0 < $1.1.0 }
        let margin = own - (best?.1.0 ?? -.infinity)
        if margin > 0 && own > free.logProbability - Self.freeAllowance {
            return PronunciationVerdict(kind: .wellSaid, heard: free.phones, margin: Self.finite(margin))
        }
        var verdict = PronunciationVerdict(kind: .nearly, heard: free.phones, margin: Self.finite(margin))
        if let best, margin < 0 {
            verdict.soundedLike = words[best.0]
            if margin < -Self.clearLoss { verdict.sound = Self.firstDifference(ownPhones, best.1.1) }
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

    /// Edit distance between two phone sequences, over the longer one's length.
    static func distance(_ a: [String], _ b: [String]) -> Double {
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
}
