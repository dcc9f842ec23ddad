import AudioFile
import ClipProcessing
import FileAccess
import Foundation
import Vocabulary

/// An entry a clip can be imported for: a catalog word in an accent, or one reading of a
/// Mandarin title.
public struct ImportTarget: Sendable, Hashable, Codable {
    public var entry: EntryReference
    public var word: String
    public var reading: String?

    public init(entry: EntryReference, word: String, reading: String? = nil) {
        self.entry = entry
        self.word = word
        self.reading = reading
    }

    /// "cat (catalog:animals/cat)", "行 háng (moe:行)".
    public var label: String { "\(word)\(reading.map { " " + $0 } ?? "") (\(entry))" }
}

/// What files can name: catalog entries by headword and id, Mandarin titles through a lookup
/// (the dictionary is too large to list).
public struct ImportTargets {
    var byKey: [String: [ImportTarget]] = [:]
    var byID: [String: ImportTarget] = [:]
    /// Every reading of a title, first reading first; nil when the title is not in the dictionary.
    let readings: ((String) -> [String]?)?

    /// Catalog entries: (entry, headword).
    public init(entries: [(entry: EntryReference, word: String)]) {
        readings = nil
        for (entry, word) in entries {
            let target = ImportTarget(entry: entry, word: word)
            if let key = ClipNaming.matchKey(forStem: word) { byKey[key, default: []].append(target) }
            byID[entry.description] = target
            byID[entry.id] = target
        }
    }

    /// Mandarin titles, through the dictionary's readings of a title.
    public init(readings: @escaping (String) -> [String]?) {
        self.readings = readings
    }

    /// The entries a name (a file's stem, or the first column of a map) may mean.
    func targets(forName name: String) -> [ImportTarget] {
        if let readings {
            var text = name
            if text.hasPrefix("moe:") { text.removeFirst(4) }
            let (title, reading) = ClipNaming.splitTitle(text)
            guard let title, let all = readings(title), !all.isEmpty else { return [] }
            let targets = all.map { ImportTarget(entry: EntryReference(.moe, title), word: title, reading: $0) }
            guard let reading else { return targets }
            return targets.filter { Pinyin.same($0.reading ?? "", reading) }
        }
        if let exact = byID[name] { return [exact] }
        guard let key = ClipNaming.matchKey(forStem: name) else { return [] }
        return byKey[key] ?? []
    }
}

/// Which files of a folder go to which entries. Nothing is guessed: a name that fits no entry,
/// or more than one (homographs such as `bat`, a Mandarin title with several readings and
/// none named), and two files for one entry, are listed instead of imported.
public struct ClipImportPlan: Sendable, Codable {
    public struct Match: Sendable, Codable {
        public var file: String
        public var target: ImportTarget
    }
    public struct Ambiguity: Sendable, Codable {
        public var file: String
        public var candidates: [ImportTarget]
    }
    public struct Conflict: Sendable, Codable {
        public var target: ImportTarget
        public var files: [String]
    }

    public var matched: [Match] = []
    public var unmatched: [String] = []
    public var ambiguous: [Ambiguity] = []
    public var conflicts: [Conflict] = []
    /// Files that are not audio by their extension (or hidden), and so not considered.
    public var ignored: [String] = []
    /// Lines of the map that could not be used, with why.
    public var badMapLines: [String] = []
}

/// What happened to one matched file.
public struct ClipImportOutcome: Sendable, Codable {
    public enum Status: String, Sendable, Codable {
        /// Stored under `Audio/` (`replaced`: an earlier import for the entry was overwritten).
        case imported, replaced
        /// Would be stored (`--dry-run`).
        case planned
        /// Not stored: the recording has problems.
        case refused
    }
    public var file: String
    public var target: ImportTarget
    public var status: Status
    public var path: String
    public var problems: [String]
    public var durationSeconds: Double?
    public var inputLUFS: Double?
    public var gainDB: Double?
}

public enum ClipImportError: Error, CustomStringConvertible, Sendable, Equatable {
    case notAFolder(String)
    case badTier(Tier)
    case badMap(path: String, reason: String)

    public var description: String {
        switch self {
        case .notAFolder(let path): return "\(path) is not a folder of clips"
        case .badTier(let tier): return "clips are imported into the recorded or legacy tier, not \(tier.rawValue)"
        case .badMap(let path, let reason): return "cannot read the map \(path): \(reason)"
        }
    }
}

/// `vocab audio import`: matches recordings to entries, checks each one (it must decode fully,
/// hold as many frames as its header says, 0.1–10 s of speech, not silent, not clipped), trims it
/// and brings it to the loudness target, and stores it under the entry's identity in
/// `Audio/<tier>/` (see `ImportedClips`). Importing again replaces.
public struct ClipImporter: Sendable {
    public let audioRoot: String
    public let tier: Tier
    public let accent: Accent
    public let rules: ClipValidator.Rules
    public let processor: ClipProcessor

    public init(audioRoot: String, tier: Tier, accent: Accent, rules: ClipValidator.Rules = .init(), processor: ClipProcessor = ClipProcessor()) throws {
        guard !tier.isSynthesis else { throw ClipImportError.badTier(tier) }
        self.audioRoot = audioRoot
        self.tier = tier
        self.accent = accent
        self.rules = rules
        self.processor = processor
    }

    /// Matches the audio files directly in `directory` by name, or, with a map, the files it
    /// lists (`word-or-entry,file` per line; files relative to `directory`).
    public func plan(directory: String, targets: ImportTargets, map: String? = nil) throws -> ClipImportPlan {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ClipImportError.notAFolder(directory)
        }
        var plan = ClipImportPlan()
        var pairs: [(file: String, name: String)] = []
        if let map {
            pairs = try Self.readMap(map, plan: &plan)
        } else {
            for name in try FileManager.default.contentsOfDirectory(atPath: directory).sorted() {
                var isDir: ObjCBool = false
                FileManager.default.fileExists(atPath: directory + "/" + name, isDirectory: &isDir)
                guard !isDir.boolValue else { continue }
                guard !name.hasPrefix("."), ClipNaming.audioExtensions.contains((name as NSString).pathExtension.lowercased()) else {
                    plan.ignored.append(name)
                    continue
                }
                pairs.append((name, (name as NSString).deletingPathExtension))
            }
        }
        var byTarget: [ImportTarget: [String]] = [:]
        var order: [ImportTarget] = []
        for (file, name) in pairs {
            let found = targets.targets(forName: name)
            switch found.count {
            case 0: plan.unmatched.append(file)
            case 1:
                if byTarget[found[0]] == nil { order.append(found[0]) }
                byTarget[found[0], default: []].append(file)
            default: plan.ambiguous.append(.init(file: file, candidates: found))
            }
        }
        for target in order {
            let files = byTarget[target] ?? []
            if files.count == 1 {
                plan.matched.append(.init(file: files[0], target: target))
            } else {
                plan.conflicts.append(.init(target: target, files: files))
            }
        }
        return plan
    }

    /// Checks, processes and (unless `dryRun`) stores every matched file. `progress` sees each
    /// outcome as it is decided.
    public func run(
        _ plan: ClipImportPlan, directory: String, dryRun: Bool,
        progress: (ClipImportOutcome) -> Void = { _ in }
    ) throws -> [ClipImportOutcome] {
        var outcomes: [ClipImportOutcome] = []
        for match in plan.matched {
            let source = match.file.hasPrefix("/") ? match.file : directory + "/" + match.file
            let relative = ImportedClips.relativePath(tier: tier, entry: match.target.entry, accent: accent, reading: match.target.reading)
            let destination = audioRoot + "/" + relative
            var outcome = ClipImportOutcome(file: match.file, target: match.target, status: .refused, path: destination, problems: [])
            let check = try ClipValidator.validate(path: source, rules: rules)
            outcome.durationSeconds = check.durationSeconds
            outcome.inputLUFS = check.loudness.map(\.integratedLUFS).flatMap { $0.isFinite ? $0 : nil }
            if !check.isAcceptable {
                outcome.problems = check.problems.map(\.description)
            } else {
                do {
                    let processed = try processor.process(try AudioFile.read(source))
                    outcome.gainDB = processed.report.gainDB
                    // What is stored, trimmed to the speech: not the length of the file given.
                    outcome.durationSeconds = processed.pcm.duration
                    if dryRun {
                        outcome.status = .planned
                    } else {
                        let existed = ContainedFile.isRegular(destination)
                        try AudioFile.write(processed.pcm, to: destination, format: .wav)
                        outcome.status = existed ? .replaced : .imported
                    }
                } catch let error as ClipProcessingError {
                    outcome.problems = [error.description]
                }
            }
            progress(outcome)
            outcomes.append(outcome)
        }
        return outcomes
    }

    /// `word-or-entry,file` lines; a first line `word,file` (or `entry,file`) is a header.
    /// Quoted fields may hold commas.
    static func readMap(_ path: String, plan: inout ClipImportPlan) throws -> [(file: String, name: String)] {
        let text: String
        do {
            text = String(decoding: try ContainedFile.read(path, limit: 4 << 20), as: UTF8.self)
        } catch let error as FileError {
            throw ClipImportError.badMap(path: path, reason: error.description)
        }
        var pairs: [(file: String, name: String)] = []
        for (number, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let fields = csvFields(String(line)).map { $0.trimmingCharacters(in: .whitespaces) }
            if fields.allSatisfy(\.isEmpty) || fields.first?.hasPrefix("#") == true { continue }
            if number == 0, fields.count >= 2, ["word", "entry", "title"].contains(fields[0].lowercased()), fields[1].lowercased() == "file" { continue }
            guard fields.count == 2, !fields[0].isEmpty, !fields[1].isEmpty else {
                plan.badMapLines.append("line \(number + 1): expected 'word-or-entry,file', got '\(line)'")
                continue
            }
            pairs.append((fields[1], fields[0]))
        }
        return pairs
    }

    static func csvFields(_ line: String) -> [String] {
        var fields: [String] = []
        var field = ""
        var quoted = false
        var chars = Array(line)[...]
        while let ch = chars.popFirst() {
            if quoted {
                if ch == "\"" {
                    if chars.first == "\"" {
                        field.append("\"")
                        chars.removeFirst()
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(ch)
                }
            } else if ch == "\"" && field.isEmpty {
                quoted = true
            } else if ch == "," {
                fields.append(field)
                field = ""
            } else {
                field.append(ch)
            }
        }
        fields.append(field)
        return fields
    }
}
