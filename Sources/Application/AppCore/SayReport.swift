/// What `vocab say` reports about the clip it gave: its JSON shape (`--json`) and its line of text.
/// Written once for the full program and for the launcher, which answers a clip made before
/// itself (`SaidBefore`), so the two cannot read differently.
public struct SayReport: Codable, Sendable, Equatable {
    public struct Skipped: Codable, Sendable, Equatable {
        public var tier: String
        public var reason: String
        /// A clip was there but could not be used (omitted when the tier simply had none).
        public var broken: Bool?

        public init(tier: String, reason: String, broken: Bool) {
            self.tier = tier
            self.reason = reason
            self.broken = broken ? true : nil
        }
    }

    public var word: String
    public var entry: String
    public var accent: String
    public var reading: String?
    public var tier: String
    public var source: String
    public var duration: Double
    public var path: String
    public var format: String
    public var skipped: [Skipped]
    public var played: Bool
    /// A computer's voice (neural or tts), not a person's.
    public var synthetic: Bool
    /// Answered from the clip store, made by an earlier call from the same inputs.
    public var madeBefore: Bool
    /// Whose voice it is, told in the line ("a computer voice"); not part of the JSON.
    public var voice: String?

    enum CodingKeys: String, CodingKey {
        case word, entry, accent, reading, tier, source, duration, path, format, skipped, played, synthetic, madeBefore
    }

    public init(
        word: String, entry: String, accent: String, reading: String?, tier: String, source: String, duration: Double, path: String,
        format: String, skipped: [Skipped], played: Bool, synthetic: Bool, madeBefore: Bool, voice: String?
    ) {
        self.word = word
        self.entry = entry
        self.accent = accent
        self.reading = reading
        self.tier = tier
        self.source = source
        self.duration = duration
        self.path = path
        self.format = format
        self.skipped = skipped
        self.played = played
        self.synthetic = synthetic
        self.madeBefore = madeBefore
        self.voice = voice
    }

    /// `cat (british): tts from espeak-ng en-gb, 0.52 s, a computer voice → /home/…/cat.wav (made before)`
    public var line: String {
        let label = reading.map { "\(word) \($0)" } ?? word
        let voiced = voice.map { ", \($0)" } ?? ""
        return "\(label) (\(accent)): \(tier) from \(source), \(Self.seconds(duration)) s\(voiced) → \(path)\(madeBefore ? " (made before)" : "")"
    }

    /// Said on standard error when the word is not a catalog word (plain output only).
    public static func notInCatalog(_ text: String) -> String {
        "vocab: '\(Failure.quote(text))' is not in the catalog; trying legacy clips and speech."
    }

    /// Seconds to the hundredth, as "0.52".
    static func seconds(_ value: Double) -> String {
        let hundredths = Int((max(0, value) * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }
}
