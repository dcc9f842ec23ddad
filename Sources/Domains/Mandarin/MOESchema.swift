/// The layout of moe.sqlite: entry → heteronym → definition, as in the source.
///
/// Ids follow document order, so ordering by id restores the dictionary's own order of
/// readings and senses. List fields are JSON arrays (NULL when absent) so SQLite's json_each can
/// query them and nothing is lost by joining. Indexes are separate from the tables because the
/// importer builds them after the bulk insert, which is several times faster than maintaining
/// them row by row.
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

    static let indexes = """
        CREATE INDEX entry_title ON entry(title);
        CREATE INDEX entry_strokes ON entry(stroke_count, title) WHERE stroke_count IS NOT NULL;
        CREATE INDEX entry_radical ON entry(radical, non_radical_stroke_count, title) WHERE radical IS NOT NULL;
        CREATE INDEX heteronym_entry ON heteronym(entry_id);
        CREATE INDEX heteronym_pinyin ON heteronym(pinyin_key) WHERE pinyin_key IS NOT NULL;
        CREATE INDEX heteronym_bopomofo ON heteronym(bopomofo_key) WHERE bopomofo_key IS NOT NULL;
        CREATE INDEX definition_heteronym ON definition(heteronym_id);
        """

    // Column order of the inserts; the id comes first (BatchedInsert marks padding with it).
    static let entryColumns = ["id", "title", "radical", "stroke_count", "non_radical_stroke_count"]
    static let heteronymColumns = ["id", "entry_id", "pinyin", "bopomofo", "pinyin_key", "bopomofo_key"]
    static let definitionColumns = ["id", "heteronym_id", "type", "def", "example", "quote", "link", "synonyms", "antonyms"]
}
