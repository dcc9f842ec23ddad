/// The English accents the catalog gives IPA and clips for. Shared by the catalog (IPA, clip
/// references per accent) and audio (voices, clip paths), so it lives below both.
public enum Accent: String, CaseIterable, Codable, Sendable {
    case british, american

    /// The espeak-ng voice for the accent.
    public var voice: String { self == .british ? "en-gb" : "en-us" }

    /// Every spelling the command line and the HTTP API accept, lower case, by accent. The one
    /// place aliases are defined.
    public static let aliases: [Accent: [String]] = [
        .british: ["british", "uk", "gb", "en-gb"],
        .american: ["american", "us", "en-us"],
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
