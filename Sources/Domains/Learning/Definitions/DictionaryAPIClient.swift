import Foundation
import HTTPFetch

/// The dictionaryapi.dev protocol: `GET {base}/api/v2/entries/{lang}/{word}`.
public struct DictionaryAPIClient: Sendable {
    public static let defaultBaseURL = "https://api.dictionaryapi.dev"

    public enum Answer: Sendable, Equatable {
        case found([DictionaryEntry])
        /// The service answered 404: it has no entry for the word.
        case notFound
    }

    public let baseURL: String
    let fetcher: RemoteFetcher

    public init(
        http: any HTTPClient, baseURL: String = defaultBaseURL,
        options: HTTPRequestOptions = Self.defaultOptions, retry: RetryPolicy = RetryPolicy()
    ) {
        self.baseURL = trimmedBase(baseURL)
        fetcher = RemoteFetcher(http: http, options: options, retry: retry)
    }

    /// Short limits: an answer from the cache or the catalog beats a long wait.
    public static let defaultOptions = HTTPRequestOptions(
        timeout: 4, connectTimeout: 2, maxBytes: 2 << 20,
        headers: ["Accept": "application/json"])

    public func url(for word: String, lang: String) -> String {
        "\(baseURL)/api/v2/entries/\(percentEncoded(lang))/\(percentEncoded(word))"
    }

    /// Throws `RemoteFailure` when there is no trustworthy answer either way.
    public func lookup(_ word: String, lang: String) async throws(RemoteFailure) -> Answer {
        let url = url(for: word, lang: lang)
        let response = try await fetcher.get(url)
        switch response.status {
        case 200:
            let entries: [DictionaryEntry]
            do {
                entries = try JSONDecoder().decode([DictionaryEntry].self, from: Data(response.body))
            } catch {
                throw .malformed(url: url, reason: "not a JSON array of dictionary entries")
            }
            guard entries.contains(where: { !$0.meanings.isEmpty }) else {
                throw .malformed(url: url, reason: "no meanings in the entries")
            }
            return .found(entries)
        case 404:
            return .notFound
        default:
            throw .status(response.status, url: url)
        }
    }
}
