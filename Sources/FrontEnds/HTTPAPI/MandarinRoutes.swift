import App
import AppCore
import HTTPTransport
import Hummingbird
import Mandarin

/// The MOE revised Mandarin dictionary, when it has been imported (`vocab import moe`), or on
/// PostgreSQL pushed (`vocab db push`); answers are cached like the catalog's.
struct MandarinRoutes: Sendable {
    let dictionary: any MandarinDictionary
    let cache: ResponseCache

    func collection() -> RouteCollection<VocabRequestContext> {
        let routes = RouteCollection(context: VocabRequestContext.self)
        routes.get("moe/{title}") { request, context in try await entry(request, context: context) }
        routes.get("moe/strokes/{n}") { request, context in try await strokes(request, context: context) }
        routes.get("moe/radical/{radical}") { request, context in try await radical(request, context: context) }
        routes.get("moe/search") { request, _ in try await search(request) }
        routes.get("moe/random") { request, _ in try await random(request) }
        routes.get("moe/today") { request, _ in try await today(request) }
        routes.get("moe/{title}/compounds") { request, context in try await compounds(request, context: context) }
        return routes
    }

    func entry(_ request: Request, context: some RequestContext) async throws -> Representation {
        let title = try HTTPInput.pathText(context.parameters["title"], name: "title")
        let dictionary = self.dictionary
        return cache.remember(
            try await cache.value(for: "moe|\(title)") {
                let entries = try await dictionary.lookup(title)
                return try .json(MOEEntries(title: entries.first?.title ?? title, entries: entries))
            }, for: request)
    }

    func strokes(_ request: Request, context: some RequestContext) async throws -> Representation {
        let text = try HTTPInput.pathText(context.parameters["n"], name: "stroke count")
        let n = try InputRules.integer(text, name: "the stroke count", range: Limits.strokes)
        let query = QueryParameters(request.uri.query)
        let limit = try query.integer("limit", range: Limits.characters, default: Limits.defaultCharacters)
        let offset = try query.integer("offset", range: Limits.offset, default: 0)
        let radical = try query["radical"].map { try RadicalInput.check($0) }
        let dictionary = self.dictionary
        return cache.remember(
            try await cache.value(for: "strokes|\(n)|\(radical ?? "")|\(limit)|\(offset)") {
                let list = try await dictionary.characters(strokes: n, radical: radical, limit: limit, offset: offset)
                return try .json(CharacterPage(strokes: n, radical: radical, list: list))
            }, for: request)
    }

    /// Characters under a radical; none is a 404 (unknown_radical), as on the command line.
    func radical(_ request: Request, context: some RequestContext) async throws -> Representation {
        let radical = try RadicalInput.check(try HTTPInput.pathText(context.parameters["radical"], name: "radical"))
        let query = QueryParameters(request.uri.query)
        let limit = try query.integer("limit", range: Limits.characters, default: Limits.defaultCharacters)
        let offset = try query.integer("offset", range: Limits.offset, default: 0)
        let dictionary = self.dictionary
        return cache.remember(
            try await cache.value(for: "radical|\(radical)|\(limit)|\(offset)") {
                let list = try await RadicalListing.page(in: dictionary, radical: radical, limit: limit, offset: offset)
                return try .json(CharacterPage(strokes: nil, radical: radical, list: list))
            }, for: request)
    }

    /// `?pinyin=` or `?bopomofo=`, paged, tones ignored unless `tones=exact`.
    func search(_ request: Request) async throws -> Representation {
        let query = QueryParameters(request.uri.query)
        let tones: ToneMatching
        switch try query["tones"] {
        case nil, "ignore": tones = .ignore
        case "exact": tones = .exact
        case let other?:
            throw Failure(.badTones, "tones must be exact or ignore (got '\(Failure.quote(other))').")
        }
        let reading = try ReadingQuery(pinyin: try query["pinyin"], bopomofo: try query["bopomofo"], tones: tones)
        let limit = try query.integer("limit", range: Limits.characters, default: Limits.defaultSearch)
        let offset = try query.integer("offset", range: Limits.offset, default: 0)
        let dictionary = self.dictionary
        let key = "moe-search|\(reading.pinyin ?? "")|\(reading.bopomofo ?? "")|\(tones.rawValue)|\(limit)|\(offset)"
        return cache.remember(
            try await cache.value(for: key) {
                let list = try await reading.run(in: dictionary, limit: limit, offset: offset)
                return try .json(ReadingSearchPage(query: reading, list: list))
            }, for: request)
    }

    /// `?count=&seed=`: entries drawn with the seed (cached: the same seed, the same answer), or
    /// with a fresh seed that the answer reports.
    func random(_ request: Request) async throws -> Representation {
        let query = QueryParameters(request.uri.query)
        let count = try query.integer("count", range: Limits.random, default: Limits.defaultRandom)
        let given = try query["seed"].map { text in
            guard let seed = UInt64(text) else {
                throw Failure(.badNumber, "seed must be a whole number from 0 to \(UInt64.max) (got '\(Failure.quote(text))').")
            }
            return seed
        }
        let dictionary = self.dictionary
        let seed = given ?? UInt64.random(in: 0...UInt64.max)
        let draw: @Sendable () async throws -> Representation = {
            let drawn = try await MOERandomEntries(drawingFrom: dictionary, seed: seed, count: count)
            return try .json(drawn)
        }
        guard given != nil else { return cache.remember(try await draw(), for: request) }
        return cache.remember(try await cache.value(for: "moe-random|\(seed)|\(count)", compute: draw), for: request)
    }

    /// `?date=YYYY-MM-DD`, else the server's local date: the word of the day, as
    /// `vocab random --source moe --today --json` prints it.
    func today(_ request: Request) async throws -> Representation {
        let query = QueryParameters(request.uri.query)
        let day = try query["date"].map { text throws(Failure) in try CalendarDay(parsing: text) } ?? CalendarDay.today()
        let dictionary = self.dictionary
        return cache.remember(
            try await cache.value(for: "moe-today|\(day)") {
                let picked = try await MOEWordOfTheDay(drawingFrom: dictionary, day: day)
                return try .json(picked)
            }, for: request)
    }

    /// The entries that contain a title, those that start with it first, paged.
    func compounds(_ request: Request, context: some RequestContext) async throws -> Representation {
        let title = try HTTPInput.pathText(context.parameters["title"], name: "title")
        let query = QueryParameters(request.uri.query)
        let limit = try query.integer("limit", range: Limits.characters, default: Limits.defaultCharacters)
        let offset = try query.integer("offset", range: Limits.offset, default: 0)
        let dictionary = self.dictionary
        return cache.remember(
            try await cache.value(for: "moe-compounds|\(title)|\(limit)|\(offset)") {
                let list = try await dictionary.compounds(of: title, limit: limit, offset: offset)
                return try .json(CompoundPage(title: title, list: list))
            }, for: request)
    }
}
