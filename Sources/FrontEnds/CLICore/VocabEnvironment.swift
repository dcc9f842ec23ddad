import Cache
import Catalog
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Store

/// Where vocab finds its data and keeps its databases, from flags, environment and defaults.
public struct VocabEnvironment: Sendable {
    public var categoriesDirectory: String
    public var home: String
    /// Recorded and legacy clips (see Audio/README.md).
    public var audioDirectory: String

    /// Remote recorded clips, keyed by URL.
    public var clipCacheDirectory: String { home + "/audio-cache" }
    /// Where `vocab say` writes when no -o is given.
    public var clipsDirectory: String { home + "/clips" }

    public var catalogDatabase: String { home + "/catalog.sqlite" }
    public var cacheDatabase: String { home + "/cache.sqlite" }

    public init(categories: String?, home: String?, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.home = home ?? Self.defaultHome(environment)
        self.categoriesDirectory = categories ?? environment["VOCAB_CATEGORIES"] ?? Self.locate("Categories")
        self.audioDirectory = environment["VOCAB_AUDIO"] ?? Self.locate("Audio")
    }

    static func defaultHome(_ env: [String: String]) -> String {
        if let home = env["VOCAB_HOME"], !home.isEmpty { return home }
        if let xdg = env["XDG_DATA_HOME"], !xdg.isEmpty { return xdg + "/vocab" }
        return (env["HOME"] ?? "/tmp") + "/.local/share/vocab"
    }

    /// ./NAME, else NAME/ beside the executable's checkout (the binary built in .build/ of
    /// this repository), else the copy `make install` puts in share/vocab.
    static func locate(_ name: String) -> String {
        let fm = FileManager.default
        let cwd = fm.currentDirectoryPath + "/" + name
        if fm.fileExists(atPath: cwd) { return cwd }
        let exe = (try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var dir = FilePath.directory(of: exe)
        while dir.count > 1 {
            for candidate in [dir + "/" + name, dir + "/share/vocab/" + name] where fm.fileExists(atPath: candidate) {
                return candidate
            }
            dir = FilePath.directory(of: dir)
        }
        return cwd
    }

    /// Opens the catalog, rebuilding it first when the category files changed.
    public func openCatalog(force: Bool = false, withCache: Bool = true) async throws -> (CatalogService, CatalogIndexer.Status) {
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let indexer = CatalogIndexer(source: CatalogSource(directory: categoriesDirectory), databasePath: catalogDatabase)
        let (store, status) = try await indexer.open(force: force)
        let cache = withCache ? QueryCache(storage: try SQLiteCacheStorage(path: cacheDatabase)) : nil
        return (CatalogService(store: store, cache: cache), status)
    }

    /// Opens the catalog for a command, telling the user on standard error when it had to be rebuilt.
    public func openCatalog(verbose: Bool, force: Bool = false) async throws -> CatalogService {
        let (catalog, status) = try await openCatalog(force: force)
        if case .rebuilt(let reason, let categories, let words) = status {
            // Rebuilds are rare and take a moment: say so even without --verbose, off stdout.
            Output.error("vocab: indexed \(words) words in \(categories) categories (\(reason)).")
        } else if verbose {
            Output.error("vocab: catalog up to date.")
        }
        return catalog
    }

    public func openCache() throws -> QueryCache {
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        return QueryCache(storage: try SQLiteCacheStorage(path: cacheDatabase))
    }
}
