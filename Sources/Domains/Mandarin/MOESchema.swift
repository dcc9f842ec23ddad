/// The layout of moe.sqlite: entry → heteronym → definition, as in the source.
///
/// Ids follow document order, so ordering by id restores the dictionary's own order of
/// readings and senses. List fields are JSON arrays (NULL when absent) so SQLite's json_each can
/// query them and nothing is lost by joining. Indexes are separate from the tables because the
/// importer chooses, per index, whether the bulk insert maintains it or it is built afterwards.
enum MOESchema {
    /// Stored in PRAGMA user_version; bump when the layout changes so old files are rebuilt.
    static let version = 1

    static let tables = """
        CREATE TABLE entry (
            id INTEGER PRIMARY KEY,
            title TEXT NOT NULL,
            radical TEXT,
            stroke_count INTEGER,
            non_radical_stroke_count INTEGER
        );
        CREATE TABLE heteronym (
            id INTEGER PRIMARY KEY,
            entry_id INTEGER NOT NULL REFERENCES entry(id),
            pinyin TEXT,
            bopomofo TEXT,
            -- Search keys: tone marks dropped, lower case, ü as v, one space between syllables.
            pinyin_key TEXT,
            bopomofo_key TEXT
        );
        CREATE TABLE definition (
            id INTEGER PRIMARY KEY,
            heteronym_id INTEGER NOT NULL REFERENCES heteronym(id),
            type TEXT,
            def TEXT,
            example TEXT,
            quote TEXT,
            link TEXT,
            synonyms TEXT,
            antonyms TEXT
        );
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
        """

    /// Every index, by name, as the queries use them.
    static let indexes = indexesBeforeLoad + indexesAfterLoad

    /// Indexes created on the empty tables, so the bulk insert maintains them. Their keys arrive
    /// in order (children follow their parent's id) or rarely at all (the partial stroke and
    /// radical indexes hold the 11,000 single characters of 163,000 entries), so keeping them up
    /// row by row costs less than a CREATE INDEX that scans and sorts the whole table afterwards.
    static let indexesBeforeLoad = """
        CREATE INDEX entry_strokes ON entry(stroke_count, title) WHERE stroke_count IS NOT NULL;
        CREATE INDEX entry_radical ON entry(radical, non_radical_stroke_count, title) WHERE radical IS NOT NULL;
        CREATE INDEX heteronym_entry ON heteronym(entry_id);
        CREATE INDEX definition_heteronym ON definition(heteronym_id);

        """

    /// Indexes whose keys arrive in no useful order (readings) or in dozens of interleaved runs
    /// (titles): inserting those row by row lands all over the B-tree, so they are built after the
    /// load, where SQLite sorts once.
    static let indexesAfterLoad = """
        CREATE INDEX entry_title ON entry(title);
        CREATE INDEX heteronym_pinyin ON heteronym(pinyin_key) WHERE pinyin_key IS NOT NULL;
        CREATE INDEX heteronym_bopomofo ON heteronym(bopomofo_key) WHERE bopomofo_key IS NOT NULL;
        """

    // Columns the importer binds, in order. The id is not among them: rows go in in id order and
    // SQLite numbers them itself (see BatchInserter), which spares a B-tree search per row.
    static let entryColumns = ["title", "radical", "stroke_count", "non_radical_stroke_count"]
    static let heteronymColumns = ["entry_id", "pinyin", "bopomofo", "pinyin_key", "bopomofo_key"]
    static let definitionColumns = ["heteronym_id", "type", "def", "example", "quote", "link", "synonyms", "antonyms"]
}
