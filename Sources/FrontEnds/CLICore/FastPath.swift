import AppCore
import Catalog

/// The plain forms of `vocab words` and `vocab categories`, recognised by hand so the small
/// `vocab` launcher can answer them without argument-parser or the rest of the program.
/// Anything else (help, a bad value, an unknown flag) returns nil and goes to the full
/// program, so errors and help read the same as ever.
public enum FastPath {
    public enum Command: Sendable {
        case words(WordsListing)
        case categories(CategoriesListing)
    }

    public struct Invocation: Sendable {
        public var command: Command
        public var categories: String?
        public var home: String?

        public func run() async throws {
            let environment = VocabEnvironment(categories: categories, home: home)
            switch command {
            case .words(let listing): try await listing.run(in: environment)
            case .categories(let listing): try await listing.run(in: environment)
            }
        }
    }

    public static func parse(_ arguments: [String]) -> Invocation? {
        guard let name = arguments.first, name == "words" || name == "categories" else { return nil }
        var positional: [String] = []
        var level: Level?, limit = Limits.defaultPage, offset = 0
        var json = false, verbose = false
        var categories: String?, home: String?
        var i = 1
        while i < arguments.count {
            let arg = arguments[i]
            let value = i + 1 < arguments.count ? arguments[i + 1] : nil
            switch arg {
            case "--json": json = true
            case "--verbose", "-v": verbose = true
            case "--level":
                guard let value, let parsed = try? InputRules.level(value) else { return nil }
                level = parsed
                i += 1
            case "--limit", "--offset":
                guard name == "words", let value, let n = Int(value) else { return nil }
                if arg == "--limit" {
                    guard Limits.page.contains(n) else { return nil }
                    limit = n
                } else {
                    guard Limits.offset.contains(n) else { return nil }
                    offset = n
                }
                i += 1
            case "--categories", "--home":
                guard let value else { return nil }
                if arg == "--home" { home = value } else { categories = value }
                i += 1
            default:
                guard !arg.hasPrefix("-") else { return nil }
                positional.append(arg)
            }
            i += 1
        }
        switch (name, positional.count) {
        case ("words", 1):
            let listing = WordsListing(category: positional[0], level: level, limit: limit, offset: offset, json: json, verbose: verbose)
            return Invocation(command: .words(listing), categories: categories, home: home)
        case ("categories", 0):
            return Invocation(command: .categories(CategoriesListing(level: level, json: json, verbose: verbose)),
                              categories: categories, home: home)
        default:
            return nil
        }
    }
}
