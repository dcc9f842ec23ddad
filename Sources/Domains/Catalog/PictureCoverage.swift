extension EmojiTable {
    /// Every sequence, made into a set the first time a picture is checked.
    static let all: Set<Substring> = Set(sequences.split(separator: "\n"))

    /// Whether `text` is exactly one fully-qualified emoji sequence of `version`.
    static func contains(_ text: String) -> Bool { all.contains(Substring(text)) }
}

/// How many entries have a picture, per category (the file an entry is in) and per level (every
/// level an entry is used at): what `vocab stats --pictures` reports.
public struct PictureCoverage: Encodable, Sendable {
    public struct Row: Encodable, Sendable {
        public let name: String
        public let entries: Int
        public let withPicture: Int
        /// To a tenth of a percent.
        public let percent: Double

        init(name: String, entries: Int, withPicture: Int) {
            self.name = name
            self.entries = entries
            self.withPicture = withPicture
            percent = entries == 0 ? 0 : (Double(withPicture) * 1000 / Double(entries)).rounded() / 10
        }
    }

    public var byCategory: [Row]
    public var byLevel: [Row]
    public var all: Row

    public init(entries: [CatalogEntry], categories: [Category]) {
        func row(_ name: String, _ include: (CatalogEntry) -> Bool) -> Row {
            let chosen = entries.filter(include)
            return Row(name: name, entries: chosen.count, withPicture: chosen.filter { $0.word.picture != nil || $0.word.image != nil }.count)
        }
        byCategory = categories.map { category in row(category.id) { $0.id.hasPrefix(category.id + "/") } }
        byLevel = Level.allCases.map { level in row(level.rawValue) { $0.word.levels.contains(level) } }
        all = row("all") { _ in true }
    }
}
