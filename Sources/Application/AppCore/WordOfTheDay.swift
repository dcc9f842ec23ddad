import Mandarin

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A day of the calendar, as `--date` and `?date=` take it (YYYY-MM-DD) and as the word of the
/// day is seeded: by its number of days since 1970-01-01, so every machine picks the same entry
/// for the same day whatever its time zone, and the entry changes at local midnight.
public struct CalendarDay: Sendable, Equatable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// "2026-03-01": four digits, two, two, and a day that exists (29 February only in leap years).
    public init(parsing text: String) throws(Failure) {
        let bytes = Array(text.utf8)
        func digits(_ range: Range<Int>) -> Int? {
            var n = 0
            for b in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) else { return nil }
                n = n * 10 + Int(b - UInt8(ascii: "0"))
            }
            return n
        }
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = digits(0..<4), let month = digits(5..<7), let day = digits(8..<10),
            year >= 1, (1...12).contains(month), (1...Self.days(inMonth: month, of: year)).contains(day)
        else {
            throw Failure(.badDate, "the date must be a day written YYYY-MM-DD, like 2026-03-01 (got '\(Failure.quote(text))').")
        }
        self.year = year
        self.month = month
        self.day = day
    }

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Today where this process runs (its TZ).
    public static func today() -> CalendarDay {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        return CalendarDay(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's days_from_civil).
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    public var description: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : String(n) }
        let y = String(year)
        return String(repeating: "0", count: max(0, 4 - y.count)) + y + "-" + two(month) + "-" + two(day)
    }

    static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// `vocab random --source moe --today [--date D]`, `GET /v1/moe/today[?date=D]`: the day's entry,
/// the same for everyone all day: the first entry `vocab random --source moe --seed N --count 1`
/// draws, N being the day's number since 1970-01-01.
public struct MOEWordOfTheDay: Encodable, Sendable {
    public var source = "moe"
    public var date: String
    public var seed: UInt64
    public var entry: DictionaryEntry

    public init(drawingFrom dictionary: MOEDictionary, day: CalendarDay) throws {
        let seed = Self.seed(of: day)
        try self.init(day: day, seed: seed, entry: try MOERandomEntries(drawingFrom: dictionary, seed: seed, count: 1).entries.first)
    }

    /// The same on either engine (the server's dictionary may be PostgreSQL's copy).
    public init(drawingFrom dictionary: any MandarinDictionary, day: CalendarDay) async throws {
        let seed = Self.seed(of: day)
        try self.init(day: day, seed: seed, entry: try await MOERandomEntries(drawingFrom: dictionary, seed: seed, count: 1).entries.first)
    }

    static func seed(of day: CalendarDay) -> UInt64 { UInt64(bitPattern: Int64(day.daysSinceEpoch)) }

    private init(day: CalendarDay, seed: UInt64, entry: DictionaryEntry?) throws {
        guard let entry else {
            throw Failure(
                .emptyDictionary, "the imported dictionary has no entries.",
                hint: "Import dict-revised.json again: vocab import moe PATH.")
        }
        date = day.description
        self.seed = seed
        self.entry = entry
    }
}
