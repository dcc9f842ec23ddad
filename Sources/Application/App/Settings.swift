import AppCore
import Foundation

/// `config.json` in the vocab home folder. Every key is optional.
///
///     {"dictionaryURL": "https://api.dictionaryapi.dev", "randomURL": "https://random-word-api.herokuapp.com",
///      "databaseURL": "postgres://vocab@db.example:5432/vocab"}
public struct UserConfig: Decodable, Sendable {
    public var dictionaryURL: String?
    public var randomURL: String?
    /// The PostgreSQL database `vocab serve` and `vocab db` use (see `DatabaseChoice`).
    public var databaseURL: String?

    public init(dictionaryURL: String? = nil, randomURL: String? = nil, databaseURL: String? = nil) {
        self.dictionaryURL = dictionaryURL
        self.randomURL = randomURL
        self.databaseURL = databaseURL
    }
}

/// A service base URL and which setting chose it, for --verbose and error messages.
public struct Endpoint: Sendable {
    public var url: String
    public var origin: String

    /// Precedence: the flag, then the environment variable, then config.json, then the default.
    public static func resolve(
        flag: (name: String, value: String?), variable: String, config: (key: String, value: String?),
        fallback: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> Endpoint {
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
            throw Failure(.badURL, "\(chosen.origin) is '\(Failure.quote(chosen.url))': it must be an http:// or https:// URL.")
        }
        return chosen
    }
}
