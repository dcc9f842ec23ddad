import Foundation
import Hummingbird
import Mandarin

/// The MOE revised Mandarin dictionary, when it has been imported (`vocab import moe`).
/// `MOEDictionary` belongs to one task, so each request opens its own read-only connection;
/// answers are cached like the catalog's.
struct MOEEndpoints: Sendable {
    let databasePath: String
    let cache: ResponseCache

    static let maxStrokes = 64
    static let maxLimit = 1000
    static let defaultLimit = 200

    var isImported: Bool { FileManager.default.fileExists(atPath: databasePath) }

    func entry(_ request: Request, context: some RequestContext) async throws -> Representation {
        let title = try InputRules.pathText(context.parameters["title"], name: "title")
        return cache.remember(try await cache.value(for: "moe|\(title)") {
            let entries = try MOEDictionary(path: databasePath).lookup(title)
            return try .json(MOEEntries(title: entries.first?.title ?? title, entries: entries))
        }, for: request)
    }

    func strokes(_ request: Request, context: some RequestContext) async throws -> Representation {
        let text = try InputRules.pathText(context.parameters["n"], name: "stroke count")
        guard let n = Int(text) else {
            throw APIError.badRequest("bad_number", "the stroke count must be a whole number (got '\(InputRules.clip(text))').")
        }
        guard (1...Self.maxStrokes).contains(n) else {
            throw APIError.badRequest("out_of_range", "the stroke count must be between 1 and \(Self.maxStrokes) (got \(n)).")
        }
        let query = QueryParameters(request.uri.query)
        let limit = try InputRules.integer(query["limit"], name: "limit", range: 1...Self.maxLimit, default: Self.defaultLimit)
        var radical: String?
        if let raw = try query["radical"] {
            let r = try InputRules.text(raw, name: "radical")
            guard r.unicodeScalars.count == 1, r.unicodeScalars.allSatisfy({ $0.value > 0x7F }) else {
                throw APIError.badRequest("bad_radical", "give one radical character, like 水 or 氵.")
            }
            radical = r
        }
        return cache.remember(try await cache.value(for: "strokes|\(n)|\(radical ?? "")|\(limit)") {
            let list = try MOEDictionary(path: databasePath).characters(strokes: n, radical: radical, limit: limit)
            return try .json(StrokeList(strokes: n, radical: radical, total: list.total, limit: list.limit, characters: list.characters))
        }, for: request)
    }
}
