import AppCore
import ArgumentParser

/// What a page of a listing counts and how many it may hold: the same ranges as HTTP (`Limits`).
protocol PageKind: Sendable {
    /// "words", "characters": what the help says a page holds.
    static var noun: String { get }
    static var range: ClosedRange<Int> { get }
    static var defaultLimit: Int { get }
}

enum WordPage: PageKind {
    static let noun = "words", range = Limits.page, defaultLimit = Limits.defaultPage
}

enum CharacterPage: PageKind {
    static let noun = "characters", range = Limits.characters, defaultLimit = Limits.defaultCharacters
}

/// A page of compound words (`lookup --compounds`): as many as characters.
enum CompoundPage: PageKind {
    static let noun = "words (with --compounds)", range = Limits.characters, defaultLimit = Limits.defaultCharacters
}

/// Search results: text search up to `Limits.search`, readings up to `Limits.characters`
/// (the command narrows it for text).
enum SearchResultsPage: PageKind {
    static let noun = "results", range = Limits.search.lowerBound...max(Limits.search.upperBound, Limits.characters.upperBound)
    static let defaultLimit = Limits.defaultSearch
}

/// `--limit` and `--offset`, one group for every paged listing: one help text, one check.
struct PageOptions<Kind: PageKind>: ParsableArguments, Sendable {
    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("At most this many \(Kind.noun) (\(Kind.range.lowerBound)-\(Kind.range.upperBound)).", valueName: "limit"))
    var limit: Int = Kind.defaultLimit

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Skip this many first (\(Limits.offset.lowerBound)-\(Limits.offset.upperBound)).", valueName: "offset"))
    var offset: Int = 0

    func validate() throws {
        _ = try checked { () throws(Failure) in try InputRules.bounded(limit, name: "--limit", range: Kind.range) }
        _ = try checked { () throws(Failure) in try InputRules.bounded(offset, name: "--offset", range: Limits.offset) }
    }
}
