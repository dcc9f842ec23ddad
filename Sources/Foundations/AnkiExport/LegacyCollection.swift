import SQLiteDB

/// Writes `collection.anki2`: an Anki collection at schema 11, the version every Anki since
/// 2.1 imports (rslib `storage/schema11.sql`; genanki writes the same).
enum LegacyCollection {
    static let schema = """
        CREATE TABLE col (
          id integer PRIMARY KEY, crt integer NOT NULL, mod integer NOT NULL, scm integer NOT NULL,
          ver integer NOT NULL, dty integer NOT NULL, usn integer NOT NULL, ls integer NOT NULL,
          conf text NOT NULL, models text NOT NULL, decks text NOT NULL, dconf text NOT NULL,
          tags text NOT NULL
        );
        CREATE TABLE notes (
          id integer PRIMARY KEY, guid text NOT NULL, mid integer NOT NULL, mod integer NOT NULL,
          usn integer NOT NULL, tags text NOT NULL, flds text NOT NULL,
          -- integer affinity on purpose: Anki sorts numeric sort fields numerically
          sfld integer NOT NULL, csum integer NOT NULL, flags integer NOT NULL, data text NOT NULL
        );
        CREATE TABLE cards (
          id integer PRIMARY KEY, nid integer NOT NULL, did integer NOT NULL, ord integer NOT NULL,
          mod integer NOT NULL, usn integer NOT NULL, type integer NOT NULL, queue integer NOT NULL,
          due integer NOT NULL, ivl integer NOT NULL, factor integer NOT NULL, reps integer NOT NULL,
          lapses integer NOT NULL, left integer NOT NULL, odue integer NOT NULL, odid integer NOT NULL,
          flags integer NOT NULL, data text NOT NULL
        );
        CREATE TABLE revlog (
          id integer PRIMARY KEY, cid integer NOT NULL, usn integer NOT NULL, ease integer NOT NULL,
          ivl integer NOT NULL, lastIvl integer NOT NULL, factor integer NOT NULL, time integer NOT NULL,
          type integer NOT NULL
        );
        CREATE TABLE graves (usn integer NOT NULL, oid integer NOT NULL, type integer NOT NULL);
        CREATE INDEX ix_notes_usn ON notes (usn);
        CREATE INDEX ix_cards_usn ON cards (usn);
        CREATE INDEX ix_revlog_usn ON revlog (usn);
        CREATE INDEX ix_cards_nid ON cards (nid);
        CREATE INDEX ix_cards_sched ON cards (did, queue, due);
        CREATE INDEX ix_revlog_cid ON revlog (cid);
        CREATE INDEX ix_notes_csum ON notes (csum);
        """

    /// Note and card ids are millisecond timestamps in Anki: `now` in ms plus a running index
    /// keeps them unique, identical for identical input, and no later than Anki's cut-off
    /// (ids more than a day ahead are renumbered on import).
    static func write(_ package: PreparedPackage, to path: String, now: Int64) throws {
        let db = try Database(path: path, mode: .readWriteCreate)
        // No journal file beside the target: the whole file is deleted if anything fails.
        try db.execute("PRAGMA journal_mode = MEMORY")
        try db.transaction {
            try db.execute(schema)
            try db.run(
                "INSERT INTO col VALUES (1, ?, ?, ?, 11, 0, 0, 0, ?, ?, ?, ?, '{}')",
                [
                    .integer(now - now % 86_400), .integer(now * 1000), .integer(now * 1000),
                    .text(conf(package, now: now).text), .text(models(package, now: now).text),
                    .text(decks(package, now: now).text), .text(deckConfigs(now: now).text),
                ])

            let base = now * 1000
            let type = package.source.noteType
            var cardIndex: Int64 = 0
            for (position, note) in package.notes.enumerated() {
                let noteID = base + Int64(position)
                let sortField = AnkiText.stripHTMLPreservingMediaFilenames(note.fields[type.sortFieldIndex])
                try db.run(
                    "INSERT INTO notes VALUES (?, ?, ?, ?, -1, ?, ?, ?, ?, 0, '')",
                    [
                        .integer(noteID), .text(note.guid), .integer(type.id), .integer(note.modified ?? now),
                        .text(note.tagsColumn), .text(note.fields.joined(separator: "\u{1F}")),
                        .text(sortField), .integer(AnkiText.fieldChecksum(note.fields[0])),
                    ])
                for ordinal in note.cardOrdinals {
                    // New card: type 0, queue 0, due = the note's position in the new queue.
                    try db.run(
                        "INSERT INTO cards VALUES (?, ?, ?, ?, ?, -1, 0, 0, ?, 0, 0, 0, 0, 0, 0, 0, 0, '')",
                        [
                            .integer(base + cardIndex), .integer(noteID), .integer(package.source.deckID),
                            .integer(Int64(ordinal)), .integer(now), .integer(Int64(position) + 1),
                        ])
                    cardIndex += 1
                }
            }
        }
    }

    /// The keys schema 11 expects (rslib `config/schema11.rs`), pointed at our deck and note type.
    private static func conf(_ package: PreparedPackage, now: Int64) -> JSONText {
        .object([
            ("activeDecks", .array([.int(package.source.deckID)])),
            ("curDeck", .int(package.source.deckID)),
            ("newSpread", .int(0)),
            ("collapseTime", .int(1200)),
            ("timeLim", .int(0)),
            ("estTimes", .bool(true)),
            ("dueCounts", .bool(true)),
            ("curModel", .int(package.source.noteType.id)),
            ("nextPos", .int(Int64(package.notes.count) + 1)),
            ("sortType", .string("noteFld")),
            ("sortBackwards", .bool(false)),
            ("addToCur", .bool(true)),
            ("dayLearnFirst", .bool(false)),
            // v1 packages with scheduling make current Anki refuse the import; say v2 plainly.
            ("schedVer", .int(2)),
            ("sched2021", .bool(true)),
        ])
    }

    private static func models(_ package: PreparedPackage, now: Int64) -> JSONText {
        let type = package.source.noteType
        let fields: [JSONText] = type.fields.enumerated().map { ord, name in
            .object([
                ("name", .string(name)), ("ord", .int(Int64(ord))), ("sticky", .bool(false)),
                ("rtl", .bool(false)), ("font", .string("Arial")), ("size", .int(20)), ("media", .array([])),
            ])
        }
        let templates: [JSONText] = type.templates.enumerated().map { ord, template in
            .object([
                ("name", .string(template.name)), ("ord", .int(Int64(ord))),
                ("qfmt", .string(template.front)), ("afmt", .string(template.back)),
                ("bqfmt", .string("")), ("bafmt", .string("")), ("did", .null),
                ("bfont", .string("")), ("bsize", .int(0)),
            ])
        }
        // Anki recomputes `req` on import; it is still filled in for older importers, which
        // used it to decide which cards to generate.
        let requirements: [JSONText] = package.frontFieldOrdinals.enumerated().map { ord, fields in
            .array([.int(Int64(ord)), .string("any"), .array(fields.map { .int(Int64($0)) })])
        }
        let model: JSONText = .object([
            ("id", .int(type.id)),
            ("name", .string(type.name)),
            ("type", .int(0)), // standard, not cloze
            // `now`: with Anki's default "update if newer", a later export updates the note type.
            ("mod", .int(now)),
            ("usn", .int(-1)),
            ("sortf", .int(Int64(type.sortFieldIndex))),
            ("did", .int(package.source.deckID)),
            ("tmpls", .array(templates)),
            ("flds", .array(fields)),
            ("css", .string(type.css)),
            ("latexPre", .string(latexPre)),
            ("latexPost", .string("\\end{document}")),
            ("latexsvg", .bool(false)),
            ("req", .array(requirements)),
            ("tags", .array([])),
            ("vers", .array([])),
        ])
        return .object([(String(type.id), model)])
    }

    private static let latexPre = """
        \\documentclass[12pt]{article}
        \\special{papersize=3in,5in}
        \\usepackage[utf8]{inputenc}
        \\usepackage{amssymb,amsmath}
        \\pagestyle{empty}
        \\setlength{\\parindent}{0in}
        \\begin{document}

        """

    private static func deck(id: Int64, name: String, description: String, now: Int64) -> JSONText {
        .object([
            ("id", .int(id)), ("mod", .int(now)), ("name", .string(name)), ("usn", .int(-1)),
            ("lrnToday", .array([.int(0), .int(0)])), ("revToday", .array([.int(0), .int(0)])),
            ("newToday", .array([.int(0), .int(0)])), ("timeToday", .array([.int(0), .int(0)])),
            ("collapsed", .bool(false)), ("browserCollapsed", .bool(false)), ("desc", .string(description)),
            ("dyn", .int(0)), ("conf", .int(1)), ("extendNew", .int(0)), ("extendRev", .int(0)),
        ])
    }

    /// Every collection has the Default deck "1"; Anki breaks on a collection without it.
    private static func decks(_ package: PreparedPackage, now: Int64) -> JSONText {
        .object([
            ("1", deck(id: 1, name: "Default", description: "", now: now)),
            (
                String(package.source.deckID),
                deck(
                    id: package.source.deckID, name: package.source.deckName,
                    description: package.source.deckDescription, now: now)
            ),
        ])
    }

    /// Anki's stock options group "1" in schema-11 form (rslib `deckconfig/schema11.rs`).
    private static func deckConfigs(now: Int64) -> JSONText {
        .object([
            (
                "1",
                .object([
                    ("id", .int(1)), ("mod", .int(now)), ("name", .string("Default")), ("usn", .int(-1)),
                    ("maxTaken", .int(60)), ("autoplay", .bool(true)), ("timer", .int(0)), ("replayq", .bool(true)),
                    ("dyn", .bool(false)),
                    (
                        "new",
                        .object([
                            ("bury", .bool(false)), ("delays", .array([.double(1), .double(10)])),
                            ("initialFactor", .int(2500)), ("ints", .array([.int(1), .int(4), .int(0)])),
                            ("order", .int(1)), ("perDay", .int(20)),
                        ])
                    ),
                    (
                        "rev",
                        .object([
                            ("bury", .bool(false)), ("ease4", .double(1.3)), ("ivlFct", .double(1)),
                            ("maxIvl", .int(36500)), ("perDay", .int(200)), ("hardFactor", .double(1.2)),
                        ])
                    ),
                    (
                        "lapse",
                        .object([
                            ("delays", .array([.double(10)])), ("leechAction", .int(1)), ("leechFails", .int(8)),
                            ("minInt", .int(1)), ("mult", .double(0)),
                        ])
                    ),
                ])
            )
        ])
    }
}
