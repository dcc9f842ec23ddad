// swift-tools-version: 6.0
import PackageDescription

// System libraries are reached through system-library targets (module maps) for the
// distribution's own libsqlite3, libcurl, libespeak-ng and libsndfile. SQLite is linked;
// the other three are loaded on first use by small C shims (dlopen), because linking them
// maps ~60 shared libraries into every process and triples the start-up time of the
// catalog commands, which never touch audio or the network.
let package = Package(
    name: "vocab",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "vocab", targets: ["vocab"]),
        .executable(name: "vocab-full", targets: ["vocab-full"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        // Already in the graph through Hummingbird; named because VocabServer imports them.
        .package(url: "https://github.com/apple/swift-nio", from: "2.70.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.20.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // Headers only (no pkgConfig, which would add link flags): the shims load the libraries.
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CEspeakNG", providers: [.apt(["libespeak-ng-dev"])]),
        .systemLibrary(name: "CSndFile", providers: [.apt(["libsndfile1-dev"])]),
        .target(name: "CurlShim", dependencies: ["CCurl"]),
        .target(name: "EspeakShim", dependencies: ["CEspeakNG"]),
        .target(name: "SndFileShim", dependencies: ["CSndFile"]),

        .target(name: "HTTPFetch", dependencies: ["CCurl", "CurlShim"]),
        .target(name: "SQLiteDB", dependencies: ["CSQLite"]),
        .target(name: "Store", dependencies: ["SQLiteDB"]),
        .target(name: "Cache", dependencies: ["SQLiteDB"]),
        // A validating pull parser for JSON that reports positions (category files, the MOE dictionary).
        .target(name: "JSONReading"),
        .target(name: "Catalog", dependencies: ["Store", "Cache", "SQLiteDB", "JSONReading"]),
        // The MOE revised Mandarin dictionary: import, lookup, stroke and radical search.
        .target(name: "MOE", dependencies: ["SQLiteDB", "JSONReading"]),
        // Audio: libsndfile I/O, espeak-ng synthesis, and the three-tier clip lookup on top.
        .target(name: "AudioFile", dependencies: ["CSndFile", "SndFileShim"]),
        .target(name: "Speech", dependencies: ["CEspeakNG", "EspeakShim"]),
        .target(name: "AudioTiers", dependencies: ["AudioFile", "Speech", "HTTPFetch", "Catalog"]),
        // Learning features: remote definitions with offline fallback, saved words, quizzes.
        .target(name: "RemoteDictionary", dependencies: ["HTTPFetch", "Store", "Catalog"]),
        .target(name: "Library", dependencies: ["Store", "Catalog"]),
        .target(name: "Quiz", dependencies: ["Store", "Catalog", "Library"]),
        // The HTTP service (`vocab serve`): JSON catalog API, cached audio, optional MOE lookups.
        .target(name: "VocabServer", dependencies: [
            "Catalog", "Cache", "Store", "MOE", "AudioFile", "AudioTiers",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "CompressNIO", package: "compress-nio"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            .product(name: "HTTPTypes", package: "swift-http-types"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .target(name: "VocabCommands", dependencies: [
            "CommandCore", "Catalog", "Store", "Cache", "MOE", "AudioFile", "Speech", "AudioTiers", "HTTPFetch",
            "RemoteDictionary", "Library", "Quiz", "VocabServer",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // What `vocab words`, the most frequent call, needs, on FoundationEssentials only.
        .target(name: "CommandCore", dependencies: ["Catalog", "Cache", "Store"]),
        // `vocab`: a small static launcher that answers `vocab words` and `vocab categories` itself and otherwise
        // becomes `vocab-full`; start-up is most of a catalog command's time (see README).
        .executableTarget(name: "vocab", dependencies: ["CommandCore", "Catalog"],
                          linkerSettings: [
                              .unsafeFlags(["-static-executable"], .when(platforms: [.linux])),
                              // FoundationEssentials's own dependencies, which its autolink entries omit in static links.
                              .linkedLibrary("_FoundationCollections", .when(platforms: [.linux])),
                              .linkedLibrary("_FoundationCShims", .when(platforms: [.linux])),
                              .linkedLibrary("swiftSynchronization", .when(platforms: [.linux])),
                          ]),
        .executableTarget(name: "vocab-full", dependencies: ["VocabCommands"]),

        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "StoreTests", dependencies: ["Store", "SQLiteDB", "TestSupport"]),
        .testTarget(name: "CacheTests", dependencies: ["Cache", "Store", "SQLiteDB", "TestSupport"]),
        .testTarget(name: "CatalogTests", dependencies: ["Catalog", "Store", "TestSupport"]),
        .testTarget(name: "MOETests", dependencies: ["MOE", "JSONReading", "SQLiteDB", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "AudioTests", dependencies: ["AudioTiers", "AudioFile", "Speech", "HTTPFetch", "Catalog", "TestSupport"]),
        .testTarget(name: "LearningTests", dependencies: ["RemoteDictionary", "Library", "Quiz", "HTTPFetch", "Store", "Catalog", "TestSupport"]),
        // CLITests and ServerTests run the built `vocab` and `vocab-full` programs (swift build --build-tests builds them).
        .testTarget(name: "CLITests", dependencies: ["TestSupport"]),
        .testTarget(name: "ServerTests", dependencies: [
            "VocabServer", "Catalog", "Cache", "AudioTiers", "AudioFile", "HTTPFetch", "MOE", "TestSupport",
            .product(name: "CompressNIO", package: "compress-nio"),
        ]),
    ]
)
