import Catalog
import Foundation
import HTTPFetch

/// The random-word-api protocol: `GET {base}/word?number=N&lang=L` answers a JSON array of strings.
public struct RandomWordClient: Sendable {
    public static let defaultBaseURL = "https://random-word-api.herokuapp.com"

    public let baseURL: String
    let fetcher: RemoteFetcher

    public init(
        http: any HTTPClient, baseURL: String = defaultBaseURL,
        options: HTTPRequestOptions = DictionaryAPIClient.defaultOptions, retry: RetryPolicy = RetryPolicy()
    ) {
        self.baseURL = trimmedBase(baseURL)
        fetcher = RemoteFetcher(http: http, options: options, retry: retry)
    }

    public func url(count: Int, lang: String) -> String {
        "\(baseURL)/word?number=\(count)&lang=\(percentEncoded(lang))"
    }

    public func words(count: Int, lang: String) async throws(RemoteFailure) -> [String] {
        let url = url(count: count, lang: lang)
        let response = try await fetcher.get(url)
        guard response.status == 200 else { throw .status(response.status, url: url) }
        guard let words = try? JSONDecoder().decode([String].self, from: Data(response.body)) else {
            throw .malformed(url: url, reason: "not a JSON array of strings")
        }
        let cleaned = words.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        guard !cleaned.isEmpty else { throw .malformed(url: url, reason: "no words") }
        return Array(cleaned.prefix(count))
    }
}

public struct RandomWords: Sendable {
    public enum Source: String, Sendable { case remote, catalog }

    public var source: Source
    public var words: [String]
    /// Catalog entries, by headword, when the words came from the catalog.
    public var catalogEntries: [String: Word]
    /// Why the catalog answered instead of the service (nil when it was chosen, as with a seed).
    public var fallbackReason: RemoteFailure?
    /// The order the catalog words were drawn in; the same seed gives the same pages.
    public var seed: UInt64?
}

/// Random words from the service, or from the catalog when the service fails or a seed asks
/// for a repeatable draw (the service cannot repeat one).
public struct RandomWordService: Sendable {
    let client: RandomWordClient
    let catalog: CatalogService

    public init(client: RandomWordClient, catalog: CatalogService) {
        self.client = client
        self.catalog = catalog
    }

    /// `page` (from 1) pages through the catalog draw for a seed; the service draws afresh each time.
    public func words(count: Int, lang: String = "en", page: Int = 1, seed: UInt64? = nil) async throws -> RandomWords {
        if seed == nil {
            do throws(RemoteFailure) {
                let words = try await client.words(count: count, lang: lang)
                return RandomWords(source: .remote, words: words, catalogEntries: [:], fallbackReason: nil, seed: nil)
            } catch {
                // A short seed, so it can be typed back as --seed to see the same words again.
                var fallback = try await catalogWords(count: count, page: page, seed: UInt64.random(in: 1...999_999))
                fallback.fallbackReason = error
                return fallback
            }
        }
        return try await catalogWords(count: count, page: page, seed: seed!)
    }

    /// A seeded shuffle of the catalog's headwords: each word's rank is a hash of (seed, word),
    /// so a page is the same whichever pages were asked for before, and pages never overlap.
    public func catalogWords(count: Int, page: Int, seed: UInt64) async throws -> RandomWords {
        var byHeadword: [String: Word] = [:]
        for word in try await catalog.allWords() where byHeadword[word.word] == nil { byHeadword[word.word] = word }
        let ranked = byHeadword.keys.sorted { (Self.rank($0, seed), $0) < (Self.rank($1, seed), $1) }
        let start = min(ranked.count, max(0, page - 1) * count)
        let chosen = Array(ranked[start..<min(ranked.count, start + count)])
        return RandomWords(
            source: .catalog, words: chosen, catalogEntries: byHeadword.filter { chosen.contains($0.key) },
            fallbackReason: nil, seed: seed)
    }

    /// FNV-1a over the seed and the word, then a SplitMix64 finaliser to spread nearby seeds apart.
    static func rank(_ word: String, _ seed: UInt64) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in withUnsafeBytes(of: seed.littleEndian, Array.init) + Array(word.utf8) {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
        hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
        return hash ^ (hash >> 31)
    }
}
