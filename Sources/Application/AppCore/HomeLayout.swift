/// Every file and folder vocab keeps in its home folder, named once. The CLI, the server and
/// the tests all find them here.
public struct HomeLayout: Sendable, Equatable {
    public let root: String

    public init(root: String) { self.root = root }

    /// The catalog built from `Categories/`, replaced whole when the files change.
    public var catalogDatabase: String { root + "/catalog.sqlite" }
    /// Query results of the CLI, which outlive each process (the server keeps its own in memory).
    public var cacheDatabase: String { root + "/cache.sqlite" }
    /// The imported MOE Mandarin dictionary.
    public var moeDatabase: String { root + "/moe.sqlite" }
    /// The learner's own data: saved words, downloaded definitions, quiz history. Never
    /// rebuilt, so it survives catalog rebuilds and dictionary imports.
    public var userDatabase: String { root + "/user.sqlite" }
    /// Settings that outlive one command line (service URLs).
    public var configFile: String { root + "/config.json" }
    /// Rendered clips, by entry identity (`<accent>/<source>/<id>.<format>`): written by
    /// `vocab say` and served by `vocab serve` from the same place.
    public var clipsDirectory: String { root + "/clips" }
    /// What `vocab say` answered with a clip of the store, and the files that answer came from
    /// (`SaidBefore`): the launcher answers the same call from it while those files stay as they are.
    public var saidDirectory: String { root + "/said" }
    /// Recorded clips downloaded from URLs, by URL hash, and the URLs' remembered failures.
    public var remoteClipCache: String { root + "/audio-cache" }
    /// The speech engine's private espeak-ng data folder (links to the system's and one voice
    /// variant, see `EspeakSynthesizer`).
    public var speechDirectory: String { root + "/speech" }
}
