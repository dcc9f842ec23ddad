import Catalog

/// The plain forms of `vocab words`, recognised by hand so the small `vocab` launcher can
/// answer them without argument-parser or the rest of the program. Anything else (help, a
/// bad value, an unknown flag) returns nil and goes to the full program, so errors and help
/// read the same as ever.
public enum FastPath {
    public struct Words: Sendable {
        public var listing: WordsListing
        public var categories: String?
        public var home: String?

        public func run() async throws {
            try await listing.run(in: VocabEnvironment(categories: categories, home: home))
        }
    }

    public static func words(_ arguments: [String]) -> Words? {
        guard arguments.first == "words", arguments.count >= 2 else { return nil }
        var words: Words?
        var i = 1
        while i < arguments.count {
            let arg = arguments[i]
            let value = i + 1 < arguments.count ? arguments[i + 1] : nil
            switch arg {
            case "--json": words?.listing.json = true
            case "--verbose", "-v": words?.listing.verbose = true
            case "--level":
                guard let value, let level = Level(rawValue: value) else { return nil }
                words?.listing.level = level
                i += 1
            case "--limit", "--offset":
                guard let value, let n = Int(value) else { return nil }
                if arg == "--limit" {
                    guard (1...10_000).contains(n) else { return nil }
                    words?.listing.limit = n
                } else {
                    guard n >= 0 else { return nil }
                    words?.listing.offset = n
                }
                i += 1
            case "--categories", "--home":
                guard let value else { return nil }
                if arg == "--home" { words?.home = value } else { words?.categories = value }
                i += 1
            default:
                // The one positional argument; a second one, or any other flag, is not ours.
                guard !arg.hasPrefix("-"), words == nil else { return nil }
                words = Words(listing: WordsListing(category: arg))
            }
            if words == nil && arg.hasPrefix("-") { return nil }
            i += 1
        }
        return words
    }
}
