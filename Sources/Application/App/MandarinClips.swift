import AppCore
import Audio
import Mandarin
import Vocabulary

/// What to pronounce for a Mandarin title: one of its readings, spoken from its pinyin (the
/// voice reads tone marks correctly, where it reads most characters with the wrong tone or as
/// English), filed as `moe:<title>` with that reading. The CLI (`say`, `render --moe`) and
/// the server (`/v1/moe/{title}/audio`) both choose readings here.
public enum MandarinClips {
    /// The readings of a title that can be spoken (those with pinyin), first reading first.
    public static func readings(of entries: [DictionaryEntry]) -> [String] {
        var out: [String] = []
        for entry in entries {
            for reading in entry.readings {
                if let pinyin = reading.pinyin, !Pinyin.clean(pinyin).isEmpty, !out.contains(pinyin) { out.append(pinyin) }
            }
        }
        return out
    }

    /// The request for `title` in `reading` (marks or tone numbers, any case: "háng", "hang2"),
    /// or its first reading when none is given.
    public static func request(title: String, reading wanted: String?, dictionary: MOEDictionary) throws -> ClipRequest {
        let entries = try dictionary.lookup(title)
        let title = entries.first?.title ?? title
        return try request(title: title, readings: readings(of: entries), wanted: wanted)
    }

    public static func request(title: String, reading wanted: String?, dictionary: any MandarinDictionary) async throws -> ClipRequest {
        let entries = try await dictionary.lookup(title)
        return try request(title: entries.first?.title ?? title, readings: readings(of: entries), wanted: wanted)
    }

    public static func request(title: String, readings: [String], wanted: String?) throws -> ClipRequest {
        guard !readings.isEmpty else {
            throw Failure(.noReading, "'\(Failure.quote(title))' has no reading in pinyin to speak.")
        }
        var index = 0
        if let wanted {
            guard let found = readings.firstIndex(where: { Pinyin.same($0, wanted) }) else {
                throw Failure(
                    .unknownReading,
                    "'\(Failure.quote(title))' has no reading '\(Failure.quote(wanted))'; its readings are \(readings.joined(separator: ", ")).",
                    suggestions: readings)
            }
            index = found
        }
        let reading = readings[index]
        return ClipRequest(
            word: title, accent: .mandarin, entry: EntryReference(.moe, title), reading: reading,
            spoken: Pinyin.clean(reading), isFirstReading: index == 0)
    }
}
