import Catalog

/// `vocab words` is what scripts and apps call most, and a whole process is judged by its
/// start-up: argument-parser's reflection costs more than the query. The plain forms of the
/// command are recognised here by hand; anything else (help, a bad value, an unknown flag)
/// returns nil and goes to argument-parser, so errors and help read the same as ever.
enum FastPath {
    struct Words {
        var category: String
        var level: Level?
        var limit = CatalogService.defaultPageSize
        var offset = 0
        var json = false
        var verbose = false
        var categories: String?
        var home: String?

        func run() async throws {
            try await WordsCommand.execute(category: category, level: level, limit: limit, offset: offset, json: json,
                                           verbose: verbose, environment: VocabEnvironment(categories: categories, home: home))
        }
    }

    static func words(_ arguments: [String]) -> Words? {
        guard arguments.first == "words", arguments.count >= 2 else { return nil }
        var words: Words?
        var i = 1
        while i < arguments.count {
            let arg = arguments[i]
            let value = i + 1 < arguments.count ? arguments[i + 1] : nil
            switch arg {
            case "--json": words?.json = true
            case "--verbose", "-v": words?.verbose = true
            case "--level":
                guard let value, let level = Level(rawValue: value) else { return nil }
                words?.level = level
                i += 1
            case "--limit", "--offset":
                guard let value, let n = Int(value) else { return nil }
                if arg == "--limit" {
                    guard (1...10_000).contains(n) else { return nil }
                    words?.limit = n
                } else {
                    guard n >= 0 else { return nil }
                    words?.offset = n
                }
                i += 1
            case "--categories", "--home":
                guard let value else { return nil }
                if arg == "--home" { words?.home = value } else { words?.categories = value }
                i += 1
            default:
                // The one positional argument; a second one, or any other flag, is not ours.
                guard !arg.hasPrefix("-"), words == nil else { return nil }
                words = Words(category: arg)
            }
            if words == nil && arg.hasPrefix("-") { return nil }
            i += 1
        }
        return words
    }
}
