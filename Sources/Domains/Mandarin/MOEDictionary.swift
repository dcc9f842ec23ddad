import JSONReading
import SQLiteDB

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Read-only queries over an imported moe.sqlite.
///
/// Like `Database`, an instance belongs to one task; each command opens its own.
public final class MOEDictionary {
    private let database: Database

    /// Opens the database an import wrote at `path`.
    public init(path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { throw MOEError.notImported(database: path) }
        do {
            database = try Database(path: path, mode: .readOnly)
            // Listings touch a few hundred scattered pages; mapping the file reads them in place
            // instead of copying each one through read().
            try database.execute("PRAGMA mmap_size = 268435456")
            let version = try database.scalar("PRAGMA user_version")?.intValue ?? 0
            guard version == Int64(MOESchema.version) else { throw MOEError.incompatibleDatabase(path) }
        } catch is SQLiteError {
            throw MOEError.incompatibleDatabase(path)
        }
    }

    // MARK: - Lookup

    /// Every entry with exactly this title (the dictionary has one per title, but nothing relies
    /// on it). Throws `unknownTitle` with the closest titles when there is none.
    public func lookup(_ title: String) throws -> [DictionaryEntry] {
        let title = title.trimmingWhiteSpace()
        let entries = try database.query(
            "SELECT id, title, radical, stroke_count, non_radical_stroke_count FROM entry WHERE title = ? ORDER BY id",
            [.text(title)]
        ) { row in
            (
                id: row.int(0), title: row.text(1) ?? "", radical: row.text(2),
                strokes: row.isNull(3) ? nil : Int(row.int(3)), rest: row.isNull(4) ? nil : Int(row.int(4))
            )
        }
        guard !entries.isEmpty else { throw MOEError.unknownTitle(title, suggestions: try suggestions(for: title)) }
        return try entries.map(entry)
    }

    private typealias EntryRow = (id: Int64, title: String, radical: String?, strokes: Int?, rest: Int?)

    private func entry(_ e: EntryRow) throws -> DictionaryEntry {
        // A few words carry an empty radical and stroke counts of 0: nothing to show, so none.
        let filed = e.radical.map { !$0.isEmpty } ?? false || (e.strokes ?? 0) > 0
        return DictionaryEntry(
            title: e.title, radical: e.radical?.isEmpty == false ? e.radical : nil,
            strokeCount: filed ? e.strokes : nil, nonRadicalStrokeCount: filed ? e.rest : nil,
            readings: try readings(ofEntry: e.id))
    }

    // MARK: - Compounds and random entries

    /// The entries whose title contains `text`, other than `text` itself: those that start
    /// with it first, then the others, shorter titles first, then by title. One page, with the
    /// total. Titles are scanned (no index holds "contains"); 163,087 short titles take a few
    /// milliseconds.
    public func compounds(of text: String, limit: Int, offset: Int = 0) throws -> CharacterList {
        let text = text.trimmingWhiteSpace()
        let condition = "instr(title, ?1) > 0 AND title != ?1"
        let total = try database.scalar("SELECT count(*) FROM entry WHERE \(condition)", [.text(text)])?.intValue ?? 0
        let ids = try database.query(
            """
            SELECT id FROM entry WHERE \(condition)
            ORDER BY substr(title, 1, length(?1)) != ?1, length(title), \(Self.realCharactersFirst), title LIMIT ?2 OFFSET ?3
            """, [.text(text), .integer(Int64(limit)), .integer(Int64(offset))]
        ) { $0.int(0) }
        return CharacterList(total: Int(total), offset: offset, limit: limit, characters: try ids.map(summary(ofEntry:)))
    }

    /// `count` different entries drawn uniformly by `generator`; the same seed gives the same
    /// entries from the same import. Draws use `next() % n` rather than `Int.random(in:using:)`,
    /// whose algorithm may change between Swift versions.
    public func randomEntries(count: Int, using generator: inout some RandomNumberGenerator) throws -> [DictionaryEntry] {
        let last = try database.scalar("SELECT max(id) FROM entry")?.intValue ?? 0
        let picked = RandomEntryDraw.ids(count: count, last: last, using: &generator)
        return try picked.flatMap { id in
            try database.query(
                "SELECT id, title, radical, stroke_count, non_radical_stroke_count FROM entry WHERE id = ?", [.integer(id)]
            ) { row in
                (
                    id: row.int(0), title: row.text(1) ?? "", radical: row.text(2),
                    strokes: row.isNull(3) ? nil : Int(row.int(3)), rest: row.isNull(4) ? nil : Int(row.int(4))
                ) as EntryRow
            }.map(entry)
        }
    }

    /// An entry's title, readings and first sense, as listings show it.
    public func summary(ofEntry id: Int64) throws -> CharacterSummary {
        let e = try database.query(
            "SELECT title, radical, stroke_count, non_radical_stroke_count FROM entry WHERE id = ?", [.integer(id)]
        ) { row in
            (title: row.text(0) ?? "", radical: row.text(1), strokes: row.isNull(2) ? nil : Int(row.int(2)), rest: row.isNull(3) ? nil : Int(row.int(3)))
        }[0]
        let readings = try database.query(
            "SELECT pinyin, bopomofo FROM heteronym WHERE entry_id = ? ORDER BY id",
            [.integer(id)]
        ) { (pinyin: $0.text(0), bopomofo: $0.text(1)) }
        let filed = e.radical.map { !$0.isEmpty } ?? false || (e.strokes ?? 0) > 0
        return CharacterSummary(
            title: e.title, radical: e.radical?.isEmpty == false ? e.radical : nil,
            strokeCount: filed ? e.strokes : nil, nonRadicalStrokeCount: filed ? e.rest : nil,
            pinyin: readings.compactMap(\.pinyin), bopomofo: readings.compactMap(\.bopomofo),
            definition: try firstDefinition(ofEntry: id))
    }

    private func readings(ofEntry id: Int64) throws -> [Reading] {
        let heteronyms = try database.query(
            "SELECT id, pinyin, bopomofo FROM heteronym WHERE entry_id = ? ORDER BY id", [.integer(id)]
        ) { row in (id: row.int(0), pinyin: row.text(1), bopomofo: row.text(2)) }
        return try heteronyms.map { h in
            let definitions = try database.query(
                "SELECT type, def, example, quote, link, synonyms, antonyms FROM definition WHERE heteronym_id = ? ORDER BY id",
                [.integer(h.id)]
            ) { row in
                Definition(
                    type: row.text(0), text: row.text(1) ?? "",
                    examples: Self.list(row.text(2)), quotes: Self.list(row.text(3)), links: Self.list(row.text(4)),
                    synonyms: Self.list(row.text(5)), antonyms: Self.list(row.text(6)))
            }
            return Reading(pinyin: h.pinyin, bopomofo: h.bopomofo, definitions: SenseNumbers.attach(definitions))
        }
    }

    /// Titles near one that is missing: those sharing its first character, closest first, then
    /// titles of similar length containing its other characters.
    public func suggestions(for title: String, limit: Int = 8) throws -> [String] {
        let query = TitleRanking.SuggestionQuery(title: title, limit: limit)
        guard !query.isEmpty else { return [] }
        let sameStart =
            try query.sameStart.map { range in
                try database.query("SELECT title FROM entry WHERE title >= ? AND title < ?", [.text(range.lower), .text(range.upper)]) { $0.text(0) ?? "" }
            } ?? []
        let first = query.first(from: sameStart)
        guard query.wantsSimilar(after: first) else { return first }
        let any = query.others.map { _ in "instr(title, ?) > 0" }.joined(separator: " OR ")
        let similar = try database.query(
            "SELECT title FROM entry WHERE length(title) BETWEEN ? AND ? AND (\(any))",
            [.integer(Int64(query.lengths.lowerBound)), .integer(Int64(query.lengths.upperBound))] + query.others.map { .text($0) }
        ) { $0.text(0) ?? "" }
        return query.combine(first, similar: similar)
    }

    // MARK: - Characters by strokes and radical

    /// Titles like `{[8f51]}` stand for glyphs Unicode lacks; readers look for real characters
    /// first, so those placeholders go last.
    private static let realCharactersFirst = "(substr(title, 1, 2) = '{[')"

    /// Characters with `strokes` strokes in all, by title; narrowed to one radical if given.
    /// One page: `limit` characters from `offset`, with the total.
    public func characters(strokes: Int, radical: String? = nil, limit: Int, offset: Int = 0) throws -> CharacterList {
        if let radical {
            let form = try radicalForm(radical)
            return try characters(
                where: "stroke_count = ? AND radical = ?", [.integer(Int64(strokes)), .text(form)],
                order: "\(Self.realCharactersFirst), title", limit: limit, offset: offset)
        }
        return try characters(
            where: "stroke_count = ?", [.integer(Int64(strokes))],
            order: "\(Self.realCharactersFirst), title", limit: limit, offset: offset)
    }

    /// Characters under a radical, by the strokes beyond the radical, then title.
    public func characters(radical: String, limit: Int, offset: Int = 0) throws -> CharacterList {
        try characters(
            where: "radical = ?", [.text(try radicalForm(radical))],
            order: "non_radical_stroke_count, \(Self.realCharactersFirst), title", limit: limit, offset: offset)
    }

    /// The radical a character is filed under, if it is a character of the dictionary.
    public func radical(of character: String) throws -> String? {
        try database.scalar(
            "SELECT radical FROM entry WHERE title = ? AND radical IS NOT NULL ORDER BY id LIMIT 1",
            [.text(character)])?.textValue
    }

    /// The first candidate form of a radical that has characters, else the form as typed.
    private func radicalForm(_ radical: String) throws -> String {
        let forms = RadicalForm.candidates(radical)
        for form in forms where try database.scalar("SELECT 1 FROM entry WHERE radical = ? LIMIT 1", [.text(form)]) != nil {
            return form
        }
        return forms.first ?? radical
    }

    private func characters(where condition: String, _ values: [SQLValue], order: String, limit: Int, offset: Int) throws -> CharacterList {
        let total = try database.scalar("SELECT count(*) FROM entry WHERE \(condition)", values)?.intValue ?? 0
        // One statement for the page, readings and first sense included: a listing is a few
        // hundred rows, and a query per row for each cost more than the rows themselves.
        // Readings come joined by U+001F (which no reading contains), in heteronym order.
        let characters = try database.query(
            """
            SELECT id, title, radical, stroke_count, non_radical_stroke_count,
                   (SELECT group_concat(pinyin, char(31)) FROM (SELECT pinyin FROM heteronym WHERE entry_id = e.id ORDER BY id)),
                   (SELECT group_concat(bopomofo, char(31)) FROM (SELECT bopomofo FROM heteronym WHERE entry_id = e.id ORDER BY id)),
                   (SELECT d.def FROM heteronym h JOIN definition d ON d.heteronym_id = h.id WHERE h.entry_id = e.id ORDER BY h.id, d.id LIMIT 1)
            FROM entry e WHERE \(condition) ORDER BY \(order) LIMIT ? OFFSET ?
            """, values + [.integer(Int64(limit)), .integer(Int64(offset))]
        ) { row in
            CharacterSummary(
                title: row.text(1) ?? "", radical: row.text(2),
                strokeCount: row.isNull(3) ? nil : Int(row.int(3)), nonRadicalStrokeCount: row.isNull(4) ? nil : Int(row.int(4)),
                pinyin: Self.joined(row.text(5)), bopomofo: Self.joined(row.text(6)), definition: row.text(7))
        }
        return CharacterList(total: Int(total), offset: offset, limit: limit, characters: characters)
    }

    private func firstDefinition(ofEntry id: Int64) throws -> String? {
        try database.scalar(
            """
            SELECT d.def FROM heteronym h JOIN definition d ON d.heteronym_id = h.id
            WHERE h.entry_id = ? ORDER BY h.id, d.id LIMIT 1
            """, [.integer(id)])?.textValue
    }

    // MARK: - Readings

    /// Readings whose pinyin is the query or starts with its syllables; one page of them, with
    /// the total. Tones are ignored unless `tones` is `.exact`: then every syllable of the query
    /// that carries a tone (a mark or a number) must have it.
    public func search(pinyin: String, tones: ToneMatching = .ignore, limit: Int, offset: Int = 0) throws -> ReadingMatchList {
        try search(
            column: "pinyin_key", reading: "pinyin", key: ReadingKey.pinyin(pinyin),
            tones: tones == .exact ? ToneQuery(pinyin: pinyin) : nil, limit: limit, offset: offset)
    }

    /// Readings whose bopomofo is the query or starts with its syllables. With `.exact` tones,
    /// a syllable without a tone mark is first tone, as zhuyin writes it.
    public func search(bopomofo: String, tones: ToneMatching = .ignore, limit: Int, offset: Int = 0) throws -> ReadingMatchList {
        try search(
            column: "bopomofo_key", reading: "bopomofo", key: ReadingKey.bopomofo(bopomofo),
            tones: tones == .exact ? ToneQuery(bopomofo: bopomofo) : nil, limit: limit, offset: offset)
    }

    private func search(column: String, reading: String, key: String, tones: ToneQuery?, limit: Int, offset: Int) throws -> ReadingMatchList {
        guard !key.isEmpty else { return ReadingMatchList(total: 0, offset: offset, limit: limit, readings: []) }
        // Keys separate syllables with a space (0x20); "!" (0x21) sorts after the space and
        // before every letter, so [key, key + "!") holds the key itself and every key that
        // continues it with more syllables, and the index answers it as one range. Whole
        // readings come first (simpler characters first), then longer words by syllable count
        // and alphabetically, as in a pinyin index.
        let range = "FROM heteronym h JOIN entry e ON e.id = h.entry_id WHERE h.\(column) >= ?1 AND h.\(column) < ?2"
        let order = """
            ORDER BY h.\(column) = ?1 DESC, length(h.\(column)) - length(replace(h.\(column), ' ', '')), h.\(column),
                     e.stroke_count IS NULL, e.stroke_count, e.title, h.id
            """
        let select = """
            SELECT e.title, h.pinyin, h.bopomofo, h.\(column) = ?1 AS exact,
                   (SELECT def FROM definition WHERE heteronym_id = h.id ORDER BY id LIMIT 1)
            """
        func match(_ row: Row) -> ReadingMatch {
            ReadingMatch(
                title: row.text(0) ?? "", pinyin: row.text(1), bopomofo: row.text(2),
                exact: row.int(3) != 0, definition: row.text(4))
        }
        let bounds: [SQLValue] = [.text(key), .text(key + "!")]
        guard let tones else {
            let total = try database.scalar("SELECT count(*) \(range)", bounds)?.intValue ?? 0
            let readings = try database.query(
                "\(select) \(range) \(order) LIMIT ?3 OFFSET ?4",
                bounds + [.integer(Int64(limit)), .integer(Int64(offset))], map: match)
            return ReadingMatchList(total: Int(total), offset: offset, limit: limit, readings: readings)
        }
        // Tones are not in the key: the range is narrowed here, in order, then one page is read.
        let candidates = try database.query("SELECT h.id, h.\(reading) \(range) \(order)", bounds) { row in
            (id: row.int(0), reading: row.text(1))
        }
        let matching = candidates.filter { tones.matches($0.reading) }
        let page = matching.dropFirst(offset).prefix(limit).map(\.id)
        var readings: [ReadingMatch] = []
        for id in page {
            readings += try database.query(
                "\(select) FROM heteronym h JOIN entry e ON e.id = h.entry_id WHERE h.id = ?3",
                bounds + [.integer(id)], map: match)
        }
        return ReadingMatchList(total: matching.count, offset: offset, limit: limit, readings: readings)
    }

    // MARK: - Search across sources

    /// The entries a cross-source search may show for `text`: every title containing it, and
    /// every reading whose key is `pinyinKey` or `bopomofoKey` or continues it with more
    /// syllables (one row per reading). Unordered and unranked: the caller ranks them. Titles
    /// are scanned (a few milliseconds); readings come from their key index as one range.
    public func searchCandidates(title text: String, pinyinKey: String, bopomofoKey: String) throws -> [SearchCandidate] {
        var out: [SearchCandidate] = []
        if !text.isEmpty {
            out += try database.query("SELECT id, title, stroke_count FROM entry WHERE instr(title, ?) > 0", [.text(text)]) { row in
                let title = row.text(1) ?? ""
                return SearchCandidate(
                    entryID: row.int(0), title: title, strokeCount: row.isNull(2) ? nil : Int(row.int(2)), field: .title,
                    matched: title, reading: nil, heteronymID: nil)
            }
        }
        for (column, key, field) in [("pinyin", pinyinKey, SearchCandidate.Field.pinyin), ("bopomofo", bopomofoKey, .bopomofo)] where !key.isEmpty {
            // As in `search(column:…)`: [key, key + "!") is the key and its continuations.
            out += try database.query(
                """
                SELECT e.id, e.title, e.stroke_count, h.\(column)_key, h.\(column), h.id FROM heteronym h JOIN entry e ON e.id = h.entry_id
                WHERE h.\(column)_key >= ?1 AND h.\(column)_key < ?2
                """, [.text(key), .text(key + "!")]
            ) { row in
                SearchCandidate(
                    entryID: row.int(0), title: row.text(1) ?? "", strokeCount: row.isNull(2) ? nil : Int(row.int(2)),
                    field: field, matched: row.text(3) ?? "", reading: row.text(4), heteronymID: row.int(5))
            }
        }
        return out
    }

    /// The first sense of one reading.
    public func firstDefinition(ofHeteronym id: Int64) throws -> String? {
        try database.scalar("SELECT def FROM definition WHERE heteronym_id = ? ORDER BY id LIMIT 1", [.integer(id)])?.textValue
    }

    // MARK: - Helpers

    /// A group_concat(…, char(31)) of readings back as a list (NULL: none).
    private static func joined(_ text: String?) -> [String] {
        guard let text else { return [] }
        return text.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init)
    }

    /// Decodes a stored JSON list with the same reader the importer used.
    public static func list(_ json: String?) -> [String] {
        guard var json, !json.isEmpty else { return [] }
        return json.withUTF8 { bytes in
            var reader = JSONReader(bytes)
            var out: [String] = []
            try? reader.forEachElement { reader in out.append(try reader.readString().string) }
            return out
        }
    }
}
