/// The accents vocab has IPA and clips for: the two English accents of the catalog and Mandarin
/// for the MOE dictionary. Shared by the catalog (IPA, clip references per accent) and audio
/// (voices, clip paths), so it lives below both.
public enum Accent: String, CaseIterable, Codable, Sendable {
    case british, american, mandarin

    /// The accents of the English catalog (its IPA and clip references).
    public static let english: [Accent] = [.british, .american]

    public var isEnglish: Bool { self != .mandarin }

    /// The espeak-ng voice for the accent. Mandarin is spoken from pinyin: espeak-ng reads the
    /// tone marks correctly there, while it reads most Han characters with the wrong tone or
    /// as English.
    public var voice: String {
        switch self {
        case .british: "en-gb"
        case .american: "en-us"
        case .mandarin: "cmn-latn-pinyin"
        }
    }

    /// Every spelling the command line and the HTTP API accept, lower case, by accent. The one
    /// place aliases are defined.
    public static let aliases: [Accent: [String]] = [
        .british: ["british", "uk", "gb", "en-gb"],
        .american: ["american", "us", "en-us"],
        .mandarin: ["mandarin", "cmn", "zh", "zh-tw"],
    ]

    /// The accent a user typed, in any case and by any alias.
    public static func parse(_ text: String) -> Accent? {
        let key = text.lowercased()
        return allCases.first { aliases[$0]?.contains(key) ?? false }
    }
}

/// Where recorded and legacy clips of one accent are (paths under `Audio/` or URLs), as a
/// category file gives them.
public struct AudioReferences: Codable, Sendable, Hashable {
    public var recorded: String?
    public var legacy: String?

    public init(recorded: String? = nil, legacy: String? = nil) {
        self.recorded = recorded
        self.legacy = legacy
    }
}
