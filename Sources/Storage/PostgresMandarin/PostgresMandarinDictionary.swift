import Logging
import Mandarin
import PostgresNIO
import PostgresStore

/// The MOE dictionary in PostgreSQL, as `vocab db push` copied it from moe.sqlite, for
/// `vocab serve --database`: the same queries as `MOEDictionary`, giving the same rows in the
/// same order. Ids are moe.sqlite's, so ordering by id keeps the dictionary's order of readings
/// and senses and a seeded random draw picks the same entries. Text columns are `COLLATE "C"`:
/// PostgreSQL then compares and sorts by bytes, as SQLite's binary collation does (UTF-8 byte
/// order is code point order), and its B-trees answer the prefix ranges of reading keys.
///
/// Each call reads one snapshot (a read-only repeatable-read transaction), so an answer made
/// of several statements never mixes the dictionary before a push with the one after it.
public final class PostgresMandarinDictionary: MandarinDictionary {
    public let database: PostgresPool

    /// The payload a push notifies on the change channel: instances drop their Mandarin answers.
    public static let changePayload = "moe"

    public init(database: PostgresPool) {
        self.database = database
    }

    public static let migrator = PostgresMigrator(
        component: "moe",
        steps: [
            .init(
                1, "the MOE dictionary: entries, heteronyms, definitions as in moe.sqlite",
                sql: """
                    CREATE TABLE moe_entry(
                        id bigint PRIMARY KEY, title text COLLATE "C" NOT NULL, radical text COLLATE "C",
                        stroke_count int, non_radical_stroke_count int);
                    CREATE TABLE moe_heteronym(
                        id bigint PRIMARY KEY, entry_id bigint NOT NULL, pinyin text, bopomofo text,
                        pinyin_key text COLLATE "C", bopomofo_key text COLLATE "C");
                    CREATE TABLE moe_definition(
                        id bigint PRIMARY KEY, heteronym_id bigint NOT NULL, type text, def text,
                        example text, quote text, link text, synonyms text, antonyms text);
                    CREATE TABLE moe_dictionary(
                        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
                        entries int NOT NULL, heteronyms int NOT NULL, definitions int NOT NULL, pushed_at timestamptz NOT NULL DEFAULT now());
                    CREATE INDEX moe_entry_title ON moe_entry(title);
                    CREATE INDEX moe_entry_strokes ON moe_entry(stroke_count, title) WHERE stroke_count IS NOT NULL;
                    CREATE INDEX moe_entry_radical ON moe_entry(radical, non_radical_stroke_count, title) WHERE radical IS NOT NULL;
                    CREATE INDEX moe_heteronym_entry ON moe_heteronym(entry_id, id);
                    CREATE INDEX moe_definition_heteronym ON moe_definition(heteronym_id, id);
                    CREATE INDEX moe_heteronym_pinyin ON moe_heteronym(pinyin_key) WHERE pinyin_key IS NOT NULL;
                    CREATE INDEX moe_heteronym_bopomofo ON moe_heteronym(bopomofo_key) WHERE bopomofo_key IS NOT NULL;
                    """)
        ])

    // MARK: - Reading one snapshot

    private func read<T: Sendable>(_ body: @escaping @Sendable (PostgresPool.Transaction) async throws -> T) async throws -> T {
        let url = database.displayURL
        return try await database.transaction { tx in
            try await tx.run("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            guard try await !tx.rows("SELECT 1 FROM moe_dictionary").isEmpty else { throw MOEError.notPushed(database: url) }
            return try await body(tx)
        }
    }

    public func isAvailable() async -> Bool {
        (try? await database.rows("SELECT 1 FROM moe_dictionary").isEmpty == false) ?? false
    }

    /// What the last push loaded, or nil when none has.
    public func counts() async throws -> (entries: Int, heteronyms: Int, definitions: Int)? {
        try await database.rows("SELECT entries, heteronyms, definitions FROM moe_dictionary").first?.decode((Int, Int, Int).self)
    }

    private typealias EntryRow = (id: Int64, title: String, radical: String?, strokes: Int?, rest: Int?)
    private static let entryColumns = "id, title, radical, stroke_count, non_radical_stroke_count"

    private static func entryRows(_ rows: [PostgresRow]) throws -> [EntryRow] {
        try rows.map { row in
            let (id, title, radical, strokes, rest) = try row.decode((Int64, String, String?, Int?, Int?).self)
            return (id, title, radical, strokes, rest)
        }
    }

    // MARK: - Lookup

    public func lookup(_ title: String) async throws -> [DictionaryEntry] {
        let title = title.trimmingWhiteSpace()
        return try await read { tx in
            let rows = try Self.entryRows(try await tx.rows("SELECT \(unescaped: Self.entryColumns) FROM moe_entry WHERE title = \(title) ORDER BY id"))
            guard !rows.isEmpty else { throw MOEError.unknownTitle(title, suggestions: try await Self.suggestions(for: title, limit: 8, tx)) }
            return try await Self.entries(rows, tx)
        }
    }

    /// Whole entries, readings and senses in id order, in three statements whatever their number.
    private static func entries(_ rows: [EntryRow], _ tx: PostgresPool.Transaction) async throws -> [DictionaryEntry] {
        let ids = rows.map(\.id)
        var heteronyms: [Int64: [(id: Int64, pinyin: String?, bopomofo: String?)]] = [:]
        var heteronymIDs: [Int64] = []
        for row in try await tx.rows("SELECT id, entry_id, pinyin, bopomofo FROM moe_heteronym WHERE entry_id = ANY(\(ids)) ORDER BY id") {
            let (id, entry, pinyin, bopomofo) = try row.decode((Int64, Int64, String?, String?).self)
            heteronyms[entry, default: []].append((id, pinyin, bopomofo))
            heteronymIDs.append(id)
        }
        var definitions: [Int64: [Definition]] = [:]
        for row in try await tx.rows(
            """
            SELECT heteronym_id, type, def, example, quote, link, synonyms, antonyms FROM moe_definition
            WHERE heteronym_id = ANY(\(heteronymIDs)) ORDER BY id
            """)
        {
            let (heteronym, type, def, example, quote, link, synonyms, antonyms) =
                try row.decode((Int64, String?, String?, String?, String?, String?, String?, String?).self)
            definitions[heteronym, default: []].append(
                Definition(
                    type: type, text: def, examples: example, quotes: quote, links: link,
                    synonyms: synonyms, antonyms: antonyms))
        }
        return rows.map { e in
            let readings = (heteronyms[e.id] ?? []).map { h in
                Reading(pinyin: h.pinyin, bopomofo: h.bopomofo, storedDefinitions: definitions[h.id] ?? [])
            }
            return DictionaryEntry(storedTitle: e.title, radical: e.radical, strokes: e.strokes, rest: e.rest, readings: readings)
        }
    }

    public func suggestions(for title: String, limit: Int) async throws -> [String] {
        try await read { tx in try await Self.suggestions(for: title, limit: limit, tx) }
    }

    /// As `MOEDictionary.suggestions`: titles sharing the first character, closest first, then
    /// titles of similar length containing its other characters.
    private static func suggestions(for title: String, limit: Int, _ tx: PostgresPool.Transaction) async throws -> [String] {
        let query = TitleRanking.SuggestionQuery(title: title, limit: limit)
        guard !query.isEmpty else { return [] }
        var sameStart: [String] = []
        if let range = query.sameStart {
            sameStart = try await tx.rows("SELECT title FROM moe_entry WHERE title >= \(range.lower) AND title < \(range.upper)")
                .map { try $0.decode(String.self) }
        }
        let first = query.first(from: sameStart)
        guard query.wantsSimilar(after: first) else { return first }
        let similar = try await tx.rows(
            """
            SELECT title FROM moe_entry WHERE length(title) BETWEEN \(query.lengths.lowerBound) AND \(query.lengths.upperBound)
            AND EXISTS (SELECT 1 FROM unnest(\(query.others)::text[]) c WHERE strpos(title, c) > 0)
            """
        ).map { try $0.decode(String.self) }
        return query.combine(first, similar: similar)
    }

    // MARK: - Compounds and random entries

    /// Placeholders for glyphs Unicode lacks (`{[8f51]}`) go last, as on SQLite.
    private static let realCharactersFirst = "left(title, 2) = '{['"

    public func compounds(of text: String, limit: Int, offset: Int) async throws -> CharacterList {
        let text = text.trimmingWhiteSpace()
        return try await read { tx in
            let total =
                try await tx.rows("SELECT count(*) FROM moe_entry WHERE strpos(title, \(text)) > 0 AND title <> \(text)")
                .first?.decode(Int.self) ?? 0
            let rows = try Self.entryRows(
                try await tx.rows(
                    """
                    SELECT \(unescaped: Self.entryColumns) FROM moe_entry WHERE strpos(title, \(text)) > 0 AND title <> \(text)
                    ORDER BY left(title, length(\(text))) <> \(text), length(title), \(unescaped: Self.realCharactersFirst), title, id
                    LIMIT \(limit) OFFSET \(offset)
                    """))
            return CharacterList(total: total, offset: offset, limit: limit, characters: try await Self.summaries(rows, filed: true, tx))
        }
    }

    public func randomEntries<G: RandomNumberGenerator & Sendable>(count: Int, using generator: inout G) async throws -> [DictionaryEntry] {
        let start = generator
        let (entries, end) = try await read { tx in
            var g = start
            let last = try await tx.rows("SELECT coalesce(max(id), 0) FROM moe_entry").first?.decode(Int64.self) ?? 0
            let picked = RandomEntryDraw.ids(count: count, last: last, using: &g)
            let rows = try Self.entryRows(try await tx.rows("SELECT \(unescaped: Self.entryColumns) FROM moe_entry WHERE id = ANY(\(picked))"))
            let byID = Dictionary(try await Self.entries(rows, tx).enumerated().map { (rows[$0.offset].id, $0.element) }, uniquingKeysWith: { a, _ in a })
            return (picked.compactMap { byID[$0] }, g)
        }
        generator = end
        return entries
    }

    /// Listing rows with their readings and first sense. `filed`: the lookup's rule for an
    /// empty radical (compounds apply it, stroke and radical listings show the row as stored).
    private static func summaries(_ rows: [EntryRow], filed: Bool, _ tx: PostgresPool.Transaction) async throws -> [CharacterSummary] {
        let ids = rows.map(\.id)
        var readings: [Int64: (pinyin: [String], bopomofo: [String])] = [:]
        for row in try await tx.rows("SELECT entry_id, pinyin, bopomofo FROM moe_heteronym WHERE entry_id = ANY(\(ids)) ORDER BY id") {
            let (entry, pinyin, bopomofo) = try row.decode((Int64, String?, String?).self)
            if let pinyin { readings[entry, default: ([], [])].pinyin.append(pinyin) }
            if let bopomofo { readings[entry, default: ([], [])].bopomofo.append(bopomofo) }
        }
        var firstDefinition: [Int64: String] = [:]
        for row in try await tx.rows(
            """
            SELECT DISTINCT ON (h.entry_id) h.entry_id, d.def FROM moe_heteronym h JOIN moe_definition d ON d.heteronym_id = h.id
            WHERE h.entry_id = ANY(\(ids)) ORDER BY h.entry_id, h.id, d.id
            """)
        {
            let (entry, def) = try row.decode((Int64, String?).self)
            if let def { firstDefinition[entry] = def }
        }
        return rows.map { r in
            CharacterSummary(
                title: r.title, radical: r.radical, strokes: r.strokes, rest: r.rest, filed: filed,
                pinyin: readings[r.id]?.pinyin ?? [], bopomofo: readings[r.id]?.bopomofo ?? [],
                definition: firstDefinition[r.id])
        }
    }

    // MARK: - Characters by strokes and radical

    public func characters(strokes: Int, radical: String?, limit: Int, offset: Int) async throws -> CharacterList {
        try await read { tx in
            if let radical {
                let form = try await Self.radicalForm(radical, tx)
                return try await Self.characters(
                    where: "stroke_count = \(strokes) AND radical = \(form)",
                    order: "\(unescaped: Self.realCharactersFirst), title, id", limit: limit, offset: offset, tx)
            }
            return try await Self.characters(
                where: "stroke_count = \(strokes)",
                order: "\(unescaped: Self.realCharactersFirst), title, id", limit: limit, offset: offset, tx)
        }
    }

    public func characters(radical: String, limit: Int, offset: Int) async throws -> CharacterList {
        try await read { tx in
            let form = try await Self.radicalForm(radical, tx)
            // NULLS FIRST: SQLite sorts NULL before every number, PostgreSQL after.
            return try await Self.characters(
                where: "radical = \(form)",
                order: "non_radical_stroke_count NULLS FIRST, \(unescaped: Self.realCharactersFirst), title, id",
                limit: limit, offset: offset, tx)
        }
    }

    public func radical(of character: String) async throws -> String? {
        try await read { tx in
            try await tx.rows("SELECT radical FROM moe_entry WHERE title = \(character) AND radical IS NOT NULL ORDER BY id LIMIT 1")
                .first?.decode(String.self)
        }
    }

    private static func radicalForm(_ radical: String, _ tx: PostgresPool.Transaction) async throws -> String {
        let forms = RadicalForm.candidates(radical)
        for form in forms where try await !tx.rows("SELECT 1 FROM moe_entry WHERE radical = \(form) LIMIT 1").isEmpty {
            return form
        }
        return forms.first ?? radical
    }

    private static func characters(
        where condition: PostgresQuery, order: PostgresQuery, limit: Int, offset: Int,
        _ tx: PostgresPool.Transaction
    ) async throws -> CharacterList {
        var count = condition
        count.sql = "SELECT count(*) FROM moe_entry WHERE " + condition.sql
        let total = try await tx.rows(count).first?.decode(Int.self) ?? 0
        var page = condition
        page.binds.append(limit)
        page.binds.append(offset)
        page.sql =
            "SELECT \(entryColumns) FROM moe_entry WHERE \(condition.sql) ORDER BY \(order.sql) LIMIT $\(page.binds.count - 1) OFFSET $\(page.binds.count)"
        let rows = try entryRows(try await tx.rows(page))
        return CharacterList(total: total, offset: offset, limit: limit, characters: try await summaries(rows, filed: false, tx))
    }

    // MARK: - Readings

    public func search(pinyin: String, tones: ToneMatching, limit: Int, offset: Int) async throws -> ReadingMatchList {
        try await search(
            column: "pinyin_key", reading: "pinyin", key: ReadingKey.pinyin(pinyin),
            tones: tones == .exact ? ToneQuery(pinyin: pinyin) : nil, limit: limit, offset: offset)
    }

    public func search(bopomofo: String, tones: ToneMatching, limit: Int, offset: Int) async throws -> ReadingMatchList {
        try await search(
            column: "bopomofo_key", reading: "bopomofo", key: ReadingKey.bopomofo(bopomofo),
            tones: tones == .exact ? ToneQuery(bopomofo: bopomofo) : nil, limit: limit, offset: offset)
    }

    /// As `MOEDictionary.search`: [key, key + "!") holds the key and every key continuing it by
    /// whole syllables; whole readings first, then by syllable count, key, strokes, title.
    private func search(column: String, reading: String, key: String, tones: ToneQuery?, limit: Int, offset: Int) async throws -> ReadingMatchList {
        try await read { tx in
            guard !key.isEmpty else { return ReadingMatchList(storedTotal: 0, offset: offset, limit: limit, readings: []) }
            let upper = key + "!"
            let range = "FROM moe_heteronym h JOIN moe_entry e ON e.id = h.entry_id WHERE h.\(column) >= $1 AND h.\(column) < $2"
            let order = """
                ORDER BY h.\(column) = $1 DESC, length(h.\(column)) - length(replace(h.\(column), ' ', '')), h.\(column),
                         e.stroke_count IS NULL, e.stroke_count, e.title, h.id
                """
            let select = """
                SELECT e.title, h.pinyin, h.bopomofo, h.\(column) = $1 AS exact,
                       (SELECT def FROM moe_definition WHERE heteronym_id = h.id ORDER BY id LIMIT 1)
                """
            func match(_ row: PostgresRow) throws -> ReadingMatch {
                let (title, pinyin, bopomofo, exact, definition) = try row.decode((String, String?, String?, Bool, String?).self)
                return ReadingMatch(storedTitle: title, pinyin: pinyin, bopomofo: bopomofo, exact: exact, definition: definition)
            }
            var bounds = PostgresBindings()
            bounds.append(key)
            bounds.append(upper)
            guard let tones else {
                let total = try await tx.rows(PostgresQuery(unsafeSQL: "SELECT count(*) \(range)", binds: bounds)).first?.decode(Int.self) ?? 0
                var page = bounds
                page.append(limit)
                page.append(offset)
                let readings = try await tx.rows(PostgresQuery(unsafeSQL: "\(select) \(range) \(order) LIMIT $3 OFFSET $4", binds: page)).map(match)
                return ReadingMatchList(storedTotal: total, offset: offset, limit: limit, readings: readings)
            }
            // Tones are not in the key: the range is narrowed here, in order, then one page is read.
            let candidates = try await tx.rows(PostgresQuery(unsafeSQL: "SELECT h.id, h.\(reading) \(range) \(order)", binds: bounds))
                .map { try $0.decode((Int64, String?).self) }
            let matching = candidates.filter { tones.matches($0.1) }
            let page = Array(matching.dropFirst(offset).prefix(limit).map(\.0))
            var binds = PostgresBindings()
            binds.append(key)
            binds.append(page)
            let found = try await tx.rows(
                PostgresQuery(
                    unsafeSQL: "\(select), h.id FROM moe_heteronym h JOIN moe_entry e ON e.id = h.entry_id WHERE h.id = ANY($2)",
                    binds: binds))
            var byID: [Int64: ReadingMatch] = [:]
            for row in found {
                let (title, pinyin, bopomofo, exact, definition, id) = try row.decode((String, String?, String?, Bool, String?, Int64).self)
                byID[id] = ReadingMatch(storedTitle: title, pinyin: pinyin, bopomofo: bopomofo, exact: exact, definition: definition)
            }
            return ReadingMatchList(storedTotal: matching.count, offset: offset, limit: limit, readings: page.compactMap { byID[$0] })
        }
    }

    // MARK: - Search across sources

    public func searchCandidates(title: String, pinyinKey: String, bopomofoKey: String) async throws -> [SearchCandidate] {
        try await read { tx in
            var out: [SearchCandidate] = []
            if !title.isEmpty {
                for row in try await tx.rows("SELECT id, title, stroke_count FROM moe_entry WHERE strpos(title, \(title)) > 0") {
                    let (id, found, strokes) = try row.decode((Int64, String, Int?).self)
                    out.append(SearchCandidate(entryID: id, title: found, strokeCount: strokes, field: .title, matched: found, reading: nil, heteronymID: nil))
                }
            }
            // As `search(column:…)`: [key, key + "!") is the key and its continuations.
            for (column, key, field) in [("pinyin", pinyinKey, SearchCandidate.Field.pinyin), ("bopomofo", bopomofoKey, .bopomofo)] where !key.isEmpty {
                var bounds = PostgresBindings()
                bounds.append(key)
                bounds.append(key + "!")
                let sql = """
                    SELECT e.id, e.title, e.stroke_count, h.\(column)_key, h.\(column), h.id FROM moe_heteronym h JOIN moe_entry e ON e.id = h.entry_id
                    WHERE h.\(column)_key >= $1 AND h.\(column)_key < $2
                    """
                for row in try await tx.rows(PostgresQuery(unsafeSQL: sql, binds: bounds)) {
                    let (id, found, strokes, matched, reading, heteronym) = try row.decode((Int64, String, Int?, String?, String?, Int64).self)
                    out.append(
                        SearchCandidate(
                            entryID: id, title: found, strokeCount: strokes, field: field, matched: matched ?? "",
                            reading: reading, heteronymID: heteronym))
                }
            }
            return out
        }
    }

    public func searchGlosses(entries: [Int64], readings: [Int64]) async throws -> SearchGlosses {
        try await read { tx in
            var glosses = SearchGlosses()
            guard !entries.isEmpty || !readings.isEmpty else { return glosses }
            var pinyin: [Int64: String] = [:]
            for row in try await tx.rows(
                """
                SELECT DISTINCT ON (entry_id) entry_id, pinyin FROM moe_heteronym
                WHERE entry_id = ANY(\(entries)) AND pinyin IS NOT NULL ORDER BY entry_id, id
                """)
            {
                let (entry, first) = try row.decode((Int64, String).self)
                pinyin[entry] = first
            }
            var definition: [Int64: String?] = [:]
            for row in try await tx.rows(
                """
                SELECT DISTINCT ON (h.entry_id) h.entry_id, d.def FROM moe_heteronym h JOIN moe_definition d ON d.heteronym_id = h.id
                WHERE h.entry_id = ANY(\(entries)) ORDER BY h.entry_id, h.id, d.id
                """)
            {
                let (entry, def) = try row.decode((Int64, String?).self)
                definition[entry] = def
            }
            for id in entries { glosses.entries[id] = SearchGlosses.Entry(pinyin: pinyin[id], definition: definition[id] ?? nil) }
            for row in try await tx.rows(
                """
                SELECT DISTINCT ON (heteronym_id) heteronym_id, def FROM moe_definition
                WHERE heteronym_id = ANY(\(readings)) ORDER BY heteronym_id, id
                """)
            {
                let (reading, def) = try row.decode((Int64, String?).self)
                if let def { glosses.readings[reading] = def }
            }
            return glosses
        }
    }
}
