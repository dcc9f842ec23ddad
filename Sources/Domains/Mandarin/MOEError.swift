import JSONReading

/// What can go wrong importing or reading the MOE dictionary, phrased for the person at the
/// terminal. The command line maps each case to an exit code.
public enum MOEError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The source file is not valid JSON.
    case invalidJSON(file: String, message: String, position: SourcePosition)
    /// Valid JSON, but not shaped like dict-revised.json.
    case unexpectedShape(file: String, message: String, position: SourcePosition)
    case sourceMissing(String)
    case unreadableSource(String, reason: String)
    /// No `vocab import moe` has been run for this home folder.
    case notImported(database: String)
    /// `vocab serve --database`: no `vocab db push` has loaded a dictionary into that database.
    case notPushed(database: String)
    /// The database was written by another version of the importer, or is not one at all.
    case incompatibleDatabase(String)
    case unknownTitle(String, suggestions: [String])
    /// Writing the new database failed; the previous one is untouched.
    case writeFailed(String)
    /// The disk had no room for the new database; the previous one is untouched.
    case noSpace
    /// The file holds no entries: importing it would leave an empty dictionary.
    case noEntries(file: String)
    /// The file holds fewer than half the entries of the dictionary it would replace.
    case wouldShrink(file: String, entries: Int, previous: Int)

    public var description: String {
        switch self {
        case .invalidJSON(let file, let message, let position):
            return "\(file): invalid JSON at \(position): \(message). Nothing was imported."
        case .unexpectedShape(let file, let message, let position):
            return "\(file): not in the dict-revised.json format at \(position): \(message). Nothing was imported."
        case .sourceMissing(let path):
            return "no file at \(path). Give the path of dict-revised.json (decompress a .xz copy first with 'xz -dk')."
        case .unreadableSource(let path, let reason):
            return "cannot read \(path): \(reason)."
        case .notImported(let database):
            return "the Mandarin dictionary has not been imported yet (no \(database)). Run 'vocab import moe PATH' with the path of dict-revised.json first."
        case .notPushed(let database):
            return "the Mandarin dictionary has not been pushed to \(database) yet. Run 'vocab import moe PATH', then 'vocab db push'."
        case .incompatibleDatabase(let path):
            return "\(path) was not written by this version of vocab. Run 'vocab import moe PATH' again to rebuild it."
        case .unknownTitle(let title, let suggestions):
            return "'\(title)' is not in the dictionary." + (suggestions.isEmpty ? "" : " Did you mean: \(suggestions.joined(separator: ", "))?")
        case .writeFailed(let reason):
            return "could not write the dictionary database: \(reason). The previous import, if any, is unchanged."
        case .noSpace:
            return "the disk is full, so nothing was imported. The previous import, if any, is unchanged."
        case .noEntries(let file):
            return "\(file) holds no entries; importing it would leave an empty dictionary. Nothing was imported."
        case .wouldShrink(let file, let entries, let previous):
            return "\(file) holds \(entries) entries, fewer than half of the \(previous) in the current dictionary. Nothing was imported."
        }
    }
}
