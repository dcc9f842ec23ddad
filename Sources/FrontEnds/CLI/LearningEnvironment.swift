import App
import AppCore
import ArgumentParser
import CLICore
import Catalog
import Definitions
import Foundation
import HTTPFetch
import Store

/// Options of commands that ask the online dictionary.
struct DictionaryOptions: ParsableArguments, Sendable {
    @Option(
        name: .customLong("dictionary-url"),
        help: ArgumentHelp(
            "Base URL of a dictionaryapi.dev-compatible service.",
            discussion: "Default: $VOCAB_DICTIONARY_URL, else \"dictionaryURL\" in config.json in the vocab home, else \(DictionaryAPIClient.defaultBaseURL).",
            valueName: "url"))
    var dictionaryURL: String?

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Seconds to wait for the online service before using saved data (0.1-60).", valueName: "seconds"))
    var timeout: Double = 4

    func validate() throws {
        try validateTimeout(timeout)
    }

    var requestOptions: HTTPRequestOptions {
        var options = DictionaryAPIClient.defaultOptions
        options.timeout = timeout
        options.connectTimeout = min(options.connectTimeout, timeout)
        return options
    }

    func endpoint(_ app: VocabApp) throws -> Endpoint {
        try Endpoint.resolve(
            flag: ("--dictionary-url", dictionaryURL), variable: "VOCAB_DICTIONARY_URL",
            config: ("dictionaryURL", try app.config().dictionaryURL), fallback: DictionaryAPIClient.defaultBaseURL)
    }

    /// The dictionary with its saved answers in the learner's documents.
    func definitionService(_ app: VocabApp, verbose: Bool) throws -> DefinitionService {
        let endpoint = try endpoint(app)
        if verbose { Output.error("vocab: dictionary \(endpoint.url) (from \(endpoint.origin)).") }
        return try app.definitions(endpoint: endpoint, options: requestOptions)
    }
}

extension Output {
    /// JSON with ISO 8601 dates, which the learning data has and the catalog does not.
    static func datedJSON<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        FileHandle.standardOutput.write(try encoder.encode(value))
        FileHandle.standardOutput.write(Data("\n".utf8))
    }

    /// A local, minute-precision time for people.
    static func dateText(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }

    /// "just now", "5 min ago", "3 h ago", "2 days ago".
    static func ago(_ date: Date, now: Date = Date()) -> String {
        let s = Int(now.timeIntervalSince(date))
        switch s {
        case ..<60: return "just now"
        case ..<3600: return "\(s / 60) min ago"
        case ..<86_400: return "\(s / 3600) h ago"
        default: return "\(s / 86_400) day\(s / 86_400 == 1 ? "" : "s") ago"
        }
    }
}
