import App
import AppCore
import Catalog
import FSRS
import Foundation
import HTTPTransport
import Hummingbird
import JSONReading
import Learners
import NIOCore

/// /v1/me/…: the signed-in learner's own data. Every handler takes the learner from the
/// request context (the bearer token) and passes only that learner's id to the service, so a
/// client can name items but never another learner. Answers are never cached.
struct LearnerRoutes: Sendable {
    let learning: LearningService
    /// Who a child is to show: their first name, never their internal learner name.
    let classes: ClassService
    let exports: ExportService
    let attempts: FailedAttempts
    /// Attempts at saying words.
    let listening: ListeningService
    /// Request bodies are small JSON objects.
    static let maxBody = 64 << 10
    /// Item numbers and card versions as openapi.json documents them (item numbers stay exact in
    /// every JSON client's numbers).

    func collection() -> RouteCollection<VocabRequestContext> {
        let routes = RouteCollection(context: VocabRequestContext.self)
        // Only here: a public endpoint does not care what Authorization header a client sends.
        routes.add(middleware: LearnerAuthenticator(learning: learning, attempts: attempts))
        routes.get("me") { _, context in try Self.json(try await body(of: try context.learner())) }
        routes.patch("me/settings") { request, context in try await settings(request, context: context) }
        routes.get("me/library") { _, context in try await library(context) }
        routes.post("me/library") { request, context in try await save(request, context: context) }
        routes.delete("me/library/{item}") { _, context in try await remove(context) }
        routes.get("me/review/next") { request, context in try await next(request, context: context) }
        routes.post("me/reviews") { request, context in try await rate(request, context: context) }
        routes.post("me/attempts") { request, context in try await attempt(request, context: context) }
        routes.get("me/progress") { _, context in try Self.json(try await learning.progress(of: try context.learner())) }
        routes.get("me/export.apkg") { _, context in try await export(.apkg, context: context) }
        routes.get("me/export.csv") { _, context in try await export(.csv, context: context) }
        return routes
    }

    func settings(_ request: Request, context: VocabRequestContext) async throws -> Response {
        let learner = try context.learner()
        let change = try await Self.decode(SettingsChange.self, from: request, context: context)
        return try Self.json(try await body(of: try await learning.updateSettings(change, for: learner)))
    }

    func body(of learner: Learner) async throws -> LearnerBody {
        var body = learning.body(of: learner)
        body.name = try await classes.displayName(of: learner)
        return body
    }

    func library(_ context: VocabRequestContext) async throws -> Response {
        try Self.json(try await learning.libraryBody(of: try context.learner()))
    }

    /// A word (its entries, or the one `entry` names), or a list of catalog entries by id.
    struct SaveRequest: Decodable {
        var word: String?
        var entries: [String]?
        var source: String?
        var entry: String?
        var reading: String?
        var allReadings: Bool?
    }

    struct SaveResponse: Encodable {
        var added: Int
        var items: [LibraryItemBody]
    }

    func save(_ request: Request, context: VocabRequestContext) async throws -> Response {
        let learner = try context.learner()
        let body = try await Self.decode(SaveRequest.self, from: request, context: context)
        var source = LearningService.Source.auto
        if let raw = body.source {
            guard let parsed = LearningService.Source(rawValue: raw) else {
                throw Failure(
                    .badSource, "'\(Failure.quote(raw))' is not a source; use auto, catalog, moe or dictionary.",
                    suggestions: InputRules.closestOrAll(raw, LearningService.Source.allCases.map(\.rawValue)))
            }
            source = parsed
        }
        let saved: [LearningService.Saved]
        switch (body.word, body.entries) {
        case (nil, let ids?) where source == .auto || source == .catalog:
            saved = try await learning.save(entries: ids, for: learner)
        case (let word?, nil):
            // The server does not ask an online dictionary for its clients: words come from the
            // catalog and the Mandarin dictionary it has.
            saved = try await learning.save(
                word, for: learner, source: source, entry: body.entry, reading: body.reading, allReadings: body.allReadings ?? false)
        default:
            throw Failure(.badRequest, "a save names a 'word', or catalog 'entries' by id, not both and not neither.")
        }
        var items: [LibraryItemBody] = []
        for s in saved {
            if let card = try await learning.store.card(of: s.item.id, learner: learner.id) {
                items.append(await learning.body(of: s.item, card: card, level: nil))
            }
        }
        let added = saved.filter(\.inserted).count
        return try Self.json(SaveResponse(added: added, items: items), status: added > 0 ? .created : .ok)
    }

    func remove(_ context: VocabRequestContext) async throws -> Response {
        let learner = try context.learner()
        guard let number = Int64(try HTTPInput.pathText(context.parameters["item"], name: "item")) else { throw Failure.badItem() }
        let id = try InputRules.item(number)
        guard try await learning.store.remove(id, of: learner.id) else { throw Failure.unknownItem(id) }
        return Response(status: .noContent, headers: [.cacheControl: "no-store"])
    }

    func next(_ request: Request, context: VocabRequestContext) async throws -> Response {
        let learner = try context.learner()
        let limit = try QueryParameters(request.uri.query).integer("limit", range: LearningService.reviewBatchLimit, default: 10)
        return try Self.json(try await learning.nextCards(for: learner, limit: limit))
    }

    struct RateRequest: Decodable, Equatable {
        var item: Int64
        /// 1–4 or again/hard/good/easy.
        var rating: RatingValue
        /// The card's version as the client read it: a rating on a card that changed since is
        /// refused with 409 and the current state.
        var version: Int?
        /// Set by clients that queue ratings offline: the same id is applied once.
        var clientId: String?
        /// When the rating was made (epoch seconds), for a rating sent later than it was made
        /// (offline); absent, it is now.
        var reviewedAt: Double?

        /// The body as clients send it (`{"item":12,"rating":3}`: known members once each, whole
        /// numbers, strings without escapes), read without JSONDecoder, which took 3% of the
        /// server's time under bench-review's load. Anything else is nil and goes to the decoder,
        /// which decides, and words the error, as for every other body.
        static func plain(_ bytes: UnsafeBufferPointer<UInt8>) -> RateRequest? {
            struct NotPlain: Error {}
            func text(_ string: JSONString) throws -> String {
                guard !string.hasEscapes, let text = String(validating: string.raw, as: UTF8.self) else { throw NotPlain() }
                return text
            }
            var reader = JSONReader(bytes)
            var item: Int64?
            var rating: RatingValue?
            var version: Int?
            var clientId: String?
            do {
                guard try reader.peek() == .object else { return nil }
                try reader.forEachMember { reader, key in
                    if key.equals("item"), item == nil {
                        item = try reader.readInteger()
                    } else if key.equals("rating"), rating == nil {
                        rating = try reader.peek() == .string ? .name(try text(reader.readString())) : .number(Int(try reader.readInteger()))
                    } else if key.equals("version"), version == nil {
                        version = Int(try reader.readInteger())
                    } else if key.equals("clientId"), clientId == nil {
                        clientId = try text(reader.readString())
                    } else {
                        throw NotPlain()
                    }
                }
                try reader.finish()
            } catch {
                return nil
            }
            guard let item, let rating else { return nil }
            return RateRequest(item: item, rating: rating, version: version, clientId: clientId, reviewedAt: nil)
        }
    }

    enum RatingValue: Decodable, Equatable {
        case number(Int)
        case name(String)

        init(from decoder: Decoder) throws {
            let c = try decoder.singleValueContainer()
            if let n = try? c.decode(Int.self) { self = .number(n) } else { self = .name(try c.decode(String.self)) }
        }

        var rating: Rating? {
            switch self {
            case .number(let n): Rating(rawValue: n)
            case .name(let s): RatingName.parse(s)
            }
        }
    }

    struct Conflict: Encodable {
        struct Detail: Encodable {
            var code: String
            var message: String
            var suggestions: [String]
        }
        var error: Detail
        var card: CardBody
    }

    func rate(_ request: Request, context: VocabRequestContext) async throws -> Response {
        let learner = try context.learner()
        let body = try await Self.decode(RateRequest.self, from: request, context: context, plain: RateRequest.plain)
        guard let rating = body.rating.rating else {
            throw Failure(.badRating, "rating must be 1-4 or again, hard, good, easy.")
        }
        do {
            let result = try await learning.rate(
                item: body.item, rating: rating, for: learner, expectedVersion: body.version, clientID: body.clientId,
                madeAt: body.reviewedAt)
            guard let json = result.json else { return try Self.json(result) } // the encoder's own error
            return Self.json(body: ByteBuffer(string: json))
        } catch LearnerError.stale(let current) {
            let failure = Failure.staleCard(current.version)
            let conflict = Conflict(error: .init(code: failure.code.rawValue, message: failure.message, suggestions: []), card: CardBody(current))
            return try Self.json(conflict, status: .conflict)
        }
    }

    /// A recording of the learner saying the entry `?entry=` (the body, with its Content-Type).
    /// Its size is checked from Content-Length before it is read, and again as it is read.
    func attempt(_ request: Request, context: VocabRequestContext) async throws -> Response {
        let learner = try context.learner()
        let entries = request.uri.queryParameters.getAll("entry")
        guard entries.count <= 1 else { throw Failure(.repeatedParameter, "give entry once.") }
        guard let entry = entries.first.map({ String($0) }), !entry.isEmpty else {
            throw Failure(.missingParameter, "say which word was said: ?entry=animals/cat.")
        }
        let type = request.headers[.contentType]
        if let length = request.headers[.contentLength].flatMap({ Int($0) }) {
            try ListeningService.checkUpload(size: length, contentType: type)
        }
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: Limits.attemptBytes.upperBound)
        } catch {
            throw ListeningService.tooLarge
        }
        let body = try await listening.attempt(entry: entry, audio: Array(buffer.readableBytesView), contentType: type, learner: learner)
        return try Self.json(body)
    }

    func export(_ format: ExportService.Format, context: VocabRequestContext) async throws -> Response {
        let learner = try context.learner()
        let items = try await learning.exportItems(of: learner)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vocab-export-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = "\(folder)/vocab.\(format.rawValue)"
        _ = try await exports.export(items, deck: "vocab::\(learner.name)", format: format, to: file)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
        var headers: HTTPFields = [
            .contentType: format == .apkg ? "application/octet-stream" : "text/csv; charset=utf-8",
            .cacheControl: "no-store",
            .contentDisposition: "attachment; filename=\"vocab-\(learner.id).\(format.rawValue)\"",
        ]
        headers[.contentLength] = String(bytes.count)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    // MARK: JSON in and out

    static func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        json(body: ByteBuffer(bytes: try JSONCoding.encode(value)), status: status)
    }

    static func json(body: ByteBuffer, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: MediaType.json, .cacheControl: "no-store"], body: ResponseBody(byteBuffer: body))
    }

    /// - Parameter plain: a reader for the body's common shape, tried first; nil leaves it to JSONDecoder.
    static func decode<T: Decodable>(
        _ type: T.Type, from request: Request, context: VocabRequestContext,
        plain: ((UnsafeBufferPointer<UInt8>) -> T?)? = nil
    ) async throws -> T {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: maxBody)
        } catch {
            throw APIError(Failure(.bodyTooLarge, "the request body is larger than \(maxBody) bytes."))
        }
        if let plain, let value = buffer.withUnsafeReadableBytes({ plain($0.assumingMemoryBound(to: UInt8.self)) }) { return value }
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw Failure(.badJSON, "the body is not the JSON this endpoint takes: \(Self.describe(error)).")
        } catch {
            throw Failure(.badJSON, "the body is not valid JSON.")
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String { keys.isEmpty ? "the body" : "'" + keys.map(\.stringValue).joined(separator: ".") + "'" }
        switch error {
        case .keyNotFound(let key, let c): return "\(path(c.codingPath + [key])) is missing"
        case .typeMismatch(_, let c), .valueNotFound(_, let c): return "\(path(c.codingPath)) has the wrong type"
        case .dataCorrupted(let c): return c.codingPath.isEmpty ? "it is not valid JSON" : "\(path(c.codingPath)) is not valid"
        @unknown default: return "it does not fit"
        }
    }
}
