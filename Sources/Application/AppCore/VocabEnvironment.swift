import Cache
import Catalog
import FileAccess
import SQLiteDB
import Store

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where vocab finds its data and keeps its databases, from flags, environment and defaults.
public struct VocabEnvironment: Sendable {
    public var categoriesDirectory: String
    /// Recorded and legacy clips (see Audio/README.md): `VOCAB_AUDIO`, else looked for on each
    /// read (a launcher listing words never looks); read it once where it is used twice.
    public var audioDirectory: String {
        get { audioChoice ?? Self.locate("Audio", from: executable) }
        set { audioChoice = newValue }
    }
    private var audioChoice: String?
    /// The catalog's picture files (see Pictures/README.md): `VOCAB_PICTURES`, else `Pictures/`
    /// beside the categories folder, where the repository and `make install` keep them.
    public var picturesDirectory: String
    public var home: HomeLayout
    /// Where the neural voice's Python environment is (`neural-voice/`, made by
    /// `scripts/install-deps`).
    public var neuralVoice: PythonFolder
    /// Where the listener's Python environment is (`listener/`, made by `scripts/install-deps`):
    /// `VOCAB_LISTENER`, a folder or `off`; unset, looked for as the neural voice is.
    public var listener: PythonFolder = .automatic
    /// Where the recordings of Say it attempts are kept (`VOCAB_KEEP_RECORDINGS`, a folder);
    /// nil, the default: none is kept.
    public var keptRecordings: String?
    /// What time it is for every rule that counts time (sessions, sign-in limits and locks,
    /// due cards): the system's, or a test's own.
    public var clock: WallClock = .system

    /// Where a Python environment of vocab's own is (the neural voice's, the listener's).
    public enum PythonFolder: Sendable, Equatable {
        /// NAME/ beside the executable's checkout, or in libexec/vocab beside an installed
        /// `vocab-full`; looked for only when it is needed.
        case automatic
        /// `VOCAB_NEURAL_VOICE=off` (English is spoken by espeak-ng), `VOCAB_LISTENER=off`.
        case off
        case directory(String)

        /// The folder to look in, or nil when it is switched off.
        func folder(named name: String, from executable: String?) -> String? {
            switch self {
            case .off: nil
            case .directory(let directory): directory
            case .automatic: VocabEnvironment.locate(name, from: executable)
            }
        }
    }

    /// The folder to look for the neural voice in, or nil when it is switched off.
    public var neuralVoiceDirectory: String? { neuralVoice.folder(named: "neural-voice", from: executable) }

    /// The folder to look for the listener in, or nil when it is switched off.
    public var listenerDirectory: String? { listener.folder(named: "listener", from: executable) }

    /// The program whose place folders are looked for from (nil: this process's own). The
    /// launcher answering for the full program looks from where the full program is.
    public var executable: String?

    public init(
        categories: String?, home: String?, environment: [String: String] = ProcessInfo.processInfo.environment, executable: String? = nil
    ) {
        self.executable = executable
        self.home = HomeLayout(root: home ?? Self.defaultHome(environment))
        self.categoriesDirectory = categories ?? environment["VOCAB_CATEGORIES"] ?? Self.locate("Categories", from: executable)
        self.audioChoice = environment["VOCAB_AUDIO"]
        self.picturesDirectory = environment["VOCAB_PICTURES"] ?? Self.beside(categoriesDirectory, "Pictures")
        self.neuralVoice = Self.neuralVoice(environment)
        self.listener = Self.folderChoice(environment["VOCAB_LISTENER"])
        if let kept = environment["VOCAB_KEEP_RECORDINGS"], !kept.isEmpty, kept.lowercased() != "off" { self.keptRecordings = kept }
    }

    /// NAME in the folder that holds `folder`.
    static func beside(_ folder: String, _ name: String) -> String {
        var trimmed = folder
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        return DurableFile.directory(of: trimmed) + "/" + name
    }

    /// Tests name every folder; the neural voice and the listener are theirs to switch on.
    public init(
        categoriesDirectory: String, audioDirectory: String, picturesDirectory: String? = nil, home: HomeLayout,
        neuralVoice: PythonFolder = .off, listener: PythonFolder = .off, clock: WallClock = .system
    ) {
        self.categoriesDirectory = categoriesDirectory
        self.audioChoice = audioDirectory
        self.picturesDirectory = picturesDirectory ?? Self.beside(categoriesDirectory, "Pictures")
        self.home = home
        self.neuralVoice = neuralVoice
        self.listener = listener
        self.clock = clock
    }

    /// `$VOCAB_NEURAL_VOICE`: a folder, or `off`; unset, the voice is looked for.
    static func neuralVoice(_ env: [String: String]) -> PythonFolder {
        folderChoice(env["VOCAB_NEURAL_VOICE"])
    }

    static func folderChoice(_ chosen: String?) -> PythonFolder {
        guard let chosen, !chosen.isEmpty else { return .automatic }
        return chosen.lowercased() == "off" ? .off : .directory(chosen)
    }

    static func defaultHome(_ env: [String: String]) -> String {
        if let home = env["VOCAB_HOME"], !home.isEmpty { return home }
        if let xdg = env["XDG_DATA_HOME"], !xdg.isEmpty { return xdg + "/vocab" }
        return (env["HOME"] ?? "/tmp") + "/.local/share/vocab"
    }

    /// ./NAME, else NAME/ beside the executable's checkout (the binary built in .build/ of
    /// this repository), else the copy `make install` puts in share/vocab.
    static func locate(_ name: String, from executable: String?) -> String {
        let fm = FileManager.default
        let cwd = fm.currentDirectoryPath + "/" + name
        if fm.fileExists(atPath: cwd) { return cwd }
        let exe = executable ?? (try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var dir = DurableFile.directory(of: exe)
        while dir.count > 1 {
            for candidate in [dir + "/" + name, dir + "/share/vocab/" + name] where fm.fileExists(atPath: candidate) {
                return candidate
            }
            dir = DurableFile.directory(of: dir)
        }
        return cwd
    }

    /// Where query results are cached: a file for the CLI, whose process ends after each
    /// command; memory for a server, which lives long.
    public enum CacheChoice: Sendable { case file, memory, none }

    /// Opens the catalog, rebuilding it first when the category files changed.
    /// - Parameter onOutOfSpace: called once if the file cache finds the disk full (it then
    ///   answers without storing), with what to tell a person.
    public func openCatalog(
        force: Bool = false, cache: CacheChoice = .file,
        onOutOfSpace: @escaping @Sendable (String) -> Void = { _ in }
    ) async throws -> (CatalogService, CatalogIndexer.Status) {
        try DurableFile.createDirectory(home.root)
        let indexer = CatalogIndexer(source: CatalogSource(directory: categoriesDirectory), databasePath: home.catalogDatabase)
        let (store, status) = try await indexer.open(force: force)
        let queryCache: QueryCache? =
            switch cache {
            case .file: try openCache(onOutOfSpace: onOutOfSpace)
            case .memory: QueryCache(storage: MemoryCacheStorage())
            case .none: nil
            }
        return (CatalogService(store: store, cache: queryCache), status)
    }

    public func openCache(onOutOfSpace: @escaping @Sendable (String) -> Void = { _ in }) throws -> QueryCache {
        try DurableFile.createDirectory(home.root)
        let notice = diskFullNotice
        do {
            return QueryCache(storage: try SQLiteCacheStorage(path: home.cacheDatabase, onOutOfSpace: { onOutOfSpace(notice) }))
        } catch let error as SQLiteError where error.isDiskFull {
            // Opening needs space when the file's log index is missing (a home last used by an
            // older vocab): the answers are then kept for this process only.
            onOutOfSpace(notice)
            return QueryCache(storage: MemoryCacheStorage())
        }
    }

    /// What a command that only reads says when it finds the disk full.
    public var diskFullNotice: String {
        "the disk is full (\(home.root)): answers are not cached and nothing can be saved until there is space again; commands that only read still work."
    }
}

extension CatalogIndexer.Status {
    /// What to tell a person about how the catalog was opened, if anything: rebuilds are rare
    /// and take a moment, and stale data must never pass silently.
    public var notice: String? {
        switch self {
        case .upToDate:
            return nil
        case .rebuilt(let reason, let categories, let words):
            return "indexed \(words) words in \(categories) categories (\(reason))."
        case .stale(let issues):
            // An issue may end its sentence itself: one full stop, never two.
            let first = issues.first.map { issue in " First: \(issue)" + ("\(issue)".hasSuffix(".") ? "" : ".") } ?? ""
            return
                "the category files have \(issues.count) problem(s), so the last good catalog is used until they are fixed.\(first) Run 'vocab validate' for the full list."
        case .noRoomToRebuild:
            return
                "the category files changed, but the disk is full, so the catalog cannot be rebuilt: the last good catalog is used until there is space again."
        }
    }
}

/// Seconds since 1970, from the system or from a test that moves time itself: limits, windows
/// and locks read it, so no test of them depends on how fast the machine is.
public struct WallClock: Sendable {
    private let read: @Sendable () -> Double

    public init(_ read: @escaping @Sendable () -> Double) { self.read = read }

    public static let system = WallClock { Date().timeIntervalSince1970 }

    public func now() -> Double { read() }
}
