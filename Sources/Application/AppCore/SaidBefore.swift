import Catalog
import FileAccess

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `vocab say WORD` answered with a clip of the store, kept with everything that answer was
/// computed from: the files whose stamps the full program took on the way (the category files,
/// the clips each tier would read, the folders it looked in, the neural voice's environment,
/// the clip itself, the full program), and where it looked for them. While all of these stay as
/// they were, the same call has the same answer, so the launcher gives it with a few `stat`
/// calls instead of starting the full program, which takes longer than the rest of the call.
///
/// The rules of what a clip depends on stay in the audio tiers (`Pronouncer.inputs`, which
/// stamps the files it reads with `fileStamp` while a `StampWitness` listens); this record only
/// says whether any of those files changed.
public struct SaidBefore: Codable, Sendable, Equatable {
    /// A call as the input rules read it.
    public struct Call: Codable, Sendable, Hashable {
        public var text: String
        /// The accent asked for, nil when none was (the full program then decides).
        public var accent: String?
        /// The pace in hundredths (100: the voice's own).
        public var pace: Int
        public var format: String

        public init(text: String, accent: String?, pace: Double, format: String) {
            self.text = text
            self.accent = accent
            self.pace = Int((pace * 100).rounded())
            self.format = format
        }

        /// A short name for the record's file.
        var fileName: String {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for b in "\(text)\u{1F}\(accent ?? "")\u{1F}\(pace)\u{1F}\(format)".utf8 { hash = (hash ^ UInt64(b)) &* 0x100_0000_01b3 }
            return String(hash, radix: 16) + ".json"
        }
    }

    public struct Stamp: Codable, Sendable, Equatable {
        public var path: String
        public var stamp: String
    }

    /// Bumped when what a record means changes: older records are then ignored.
    static let version = 1

    public var version: Int
    public var call: Call
    /// The full program that answered and the folders it looked in.
    public var environment: [String]
    /// The category files' own fingerprint (`CatalogSource.fingerprint`): which entry a word is.
    public var catalog: String
    public var files: [Stamp]
    /// Whether the word was a catalog word (else a warning is said first).
    public var inCatalog: Bool
    /// The report, as a call answered from the store gives it (`answer`).
    var report: SayReport
    /// Whose voice it is (the report's JSON leaves it out; its line tells it).
    var voice: String?

    /// What the launcher reports.
    public var answer: SayReport {
        var answer = report
        answer.voice = voice
        return answer
    }

    public init(
        call: Call, environment: VocabEnvironment, program: String, catalog: String, files: [(path: String, stamp: String)], inCatalog: Bool,
        report: SayReport
    ) {
        version = Self.version
        self.call = call
        self.environment = Self.signature(environment, program: program)
        self.catalog = catalog
        // The full program itself: another build may file or fingerprint clips differently.
        self.files = files.map { Stamp(path: $0.path, stamp: $0.stamp) } + [Stamp(path: program, stamp: fileStamp(program))]
        self.inCatalog = inCatalog
        var report = report
        report.madeBefore = true
        report.skipped = []
        report.played = false
        voice = report.voice
        report.voice = nil
        self.report = report
    }

    static func signature(_ environment: VocabEnvironment, program: String) -> [String] {
        [
            program, environment.home.root, environment.categoriesDirectory, environment.audioDirectory,
            environment.neuralVoiceDirectory ?? "off",
        ]
    }

    /// Whether the record answers `call` in `environment` now: the same call, the same folders,
    /// the same full program, and no file changed since.
    public func holds(for call: Call, in environment: VocabEnvironment, program: String) -> Bool {
        guard version == Self.version, self.call == call, self.environment == Self.signature(environment, program: program) else { return false }
        guard let now = try? CatalogSource(directory: environment.categoriesDirectory).fingerprint(), now == catalog else { return false }
        return StampWitness.unchanged(files.map { ($0.path, $0.stamp) })
    }
}

/// The records of `SaidBefore`, one small file per call in the home's `said/`.
public struct SaidBeforeIndex: Sendable {
    public let home: HomeLayout

    public init(home: HomeLayout) { self.home = home }

    /// Far more than a record (about a kilobyte): a larger file is not one.
    static let maxBytes = 256 << 10

    public func path(for call: SaidBefore.Call) -> String { home.saidDirectory + "/" + call.fileName }

    /// The record for `call` if it still holds; nil when there is none, it is unreadable, or
    /// anything it depends on changed.
    public func answer(for call: SaidBefore.Call, in environment: VocabEnvironment, program: String) -> SaidBefore? {
        guard let bytes = try? ContainedFile.read(path(for: call), limit: Self.maxBytes),
            let record = try? JSONDecoder().decode(SaidBefore.self, from: Data(bytes)),
            record.holds(for: call, in: environment, program: program)
        else { return nil }
        return record
    }

    /// Keeps the record, replacing the call's earlier one whole (a reader finds the old or the
    /// new). A record is only a shortcut: failing to keep one (a full disk) changes nothing else.
    public func keep(_ record: SaidBefore) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(record) else { return }
        try? DurableFile.createDirectory(home.saidDirectory)
        try? DurableFile.write(Array(data), to: path(for: record.call), durable: false)
    }
}
