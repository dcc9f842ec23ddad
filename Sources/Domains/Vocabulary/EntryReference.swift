/// Which entry of which source something is about: a clip, a saved item, a search result.
/// Stable across runs and rebuilds, so files and records can be keyed by it.
public struct EntryReference: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Source: String, Sendable, Codable, CaseIterable {
        /// A word of the YLE catalog; the id is "<category>/<slug>" (`animals/cat`), so homographs in
        /// two categories are two entries.
        case catalog
        /// A word from the online dictionary; the id is the lower-cased headword.
        case dictionary
        /// An entry of the MOE Mandarin dictionary; the id is its title.
        case moe
        /// Free text with no entry behind it (`vocab say hello`); the id is the text itself.
        case text
    }

    public var source: Source
    public var id: String

    public init(_ source: Source, _ id: String) {
        self.source = source
        self.id = id
    }

    /// "catalog:animals/cat".
    public var description: String { "\(source.rawValue):\(id)" }

    /// Parses "source:id".
    public init?(_ text: String) {
        guard let colon = text.firstIndex(of: ":"), let source = Source(rawValue: String(text[..<colon])) else { return nil }
        let id = String(text[text.index(after: colon)...])
        guard !id.isEmpty else { return nil }
        self.init(source, id)
    }
}
