import CLICore
import ArgumentParser
import Catalog
import Foundation
import HTTPFetch
import Library
import Definitions
import Store

extension VocabEnvironment {
    /// The learner's own data (saved words, quiz history, downloaded definitions). Kept apart
    /// from catalog.sqlite, which is rebuilt from Categories/ and replaced whole.
    public var userDatabase: String { home + "/user.sqlite" }

    /// Settings that outlive one command line; see `UserConfig`.
    public var configFile: String { home + "/config.json" }

    func openUserStore() throws -> SQLiteDocumentStore {
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        return try SQLiteDocumentStore(path: userDatabase)
    }

    /// A missing file is an empty configuration; a broken one is an error, not silently ignored.
    func userConfig() throws -> UserConfig {
        guard let data = FileManager.default.contents(atPath: configFile) else { return UserConfig() }
        do {
            return try JSONDecoder().decode(UserConfig.self, from: data)
        } catch {
            throw CommandFailure("\(configFile) is not valid: expected an object like {\"dictionaryURL\": \"https://…\", \"randomURL\": \"https://…\"}.",
                                 exitCode: 65)
        }
    }
}

/// `config.json` in the vocab home folder. Every key is optional.
///
///     {"dictionaryURL": "https://api.dictionaryapi.dev", "randomURL": "https://random-word-api.herokuapp.com"}
struct UserConfig: Decodable, Sendable {
    var dictionaryURL: String?
    var randomURL: String?
}

/// A service base URL and which setting chose it, for --verbose and error messages.
struct Endpoint: Sendable {
    var url: String
    var origin: String

    /// Precedence: the flag, then the environment variable, then config.json, then the default.
    static func resolve(flag: (name: String, value: String?), variable: String, config: (key: String, value: String?),
                        fallback: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Endpoint {
        let chosen: Endpoint
        if let value = flag.value {
            chosen = Endpoint(url: value, origin: flag.name)
        } else if let value = environment[variable], !value.isEmpty {
            chosen = Endpoint(url: value, origin: "$" + variable)
        } else if let value = config.value, !value.isEmpty {
            chosen = Endpoint(url: value, origin: "config.json \(config.key)")
        } else {
            chosen = Endpoint(url: fallback, origin: "default")
        }
        guard chosen.url.hasPrefix("http://") || chosen.url.hasPrefix("https://") else {
            throw CommandFailure("\(chosen.origin) is '\(chosen.url)': it must be an http:// or https:// URL.", exitCode: 64)
        }
        return chosen
    }
}

/// Options of commands that ask the online dictionary.
struct DictionaryOptions: ParsableArguments, Sendable {
    @Option(name: .customLong("dictionary-url"), help: ArgumentHelp(
        "Base URL of a dictionaryapi.dev-compatible service.",
        discussion: "Default: $VOCAB_DICTIONARY_URL, else \"dictionaryURL\" in config.json in the vocab home, else \(DictionaryAPIClient.defaultBaseURL).",
        valueName: "url"))
    var dictionaryURL: String?

    @Option(name: .long, help: ArgumentHelp("Seconds to wait for the online service before using saved data (0.1-60).", valueName: "seconds"))
    var timeout: Double = 4

    func validate() throws {
        guard (0.1...60).contains(timeout) else { throw ValidationError("--timeout must be between 0.1 and 60 seconds.") }
    }

    var requestOptions: HTTPRequestOptions {
        var options = DictionaryAPIClient.defaultOptions
        options.timeout = timeout
        options.connectTimeout = min(options.connectTimeout, timeout)
        return options
    }

    func endpoint(_ env: VocabEnvironment) throws -> Endpoint {
        try Endpoint.resolve(flag: ("--dictionary-url", dictionaryURL), variable: "VOCAB_DICTIONARY_URL",
                             config: ("dictionaryURL", try env.userConfig().dictionaryURL), fallback: DictionaryAPIClient.defaultBaseURL)
    }

    /// The dictionary with its saved answers in the user's store.
    func definitionService(_ env: VocabEnvironment, store: any DocumentStore, verbose: Bool) throws -> DefinitionService {
        let endpoint = try endpoint(env)
        if verbose { Output.error("vocab: dictionary \(endpoint.url) (from \(endpoint.origin)).") }
        let client = DictionaryAPIClient(http: CurlHTTPClient(), baseURL: endpoint.url, options: requestOptions)
        return DefinitionService(client: client, store: store)
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
