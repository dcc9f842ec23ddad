// swift-tools-version: 6.2
import PackageDescription

// Sources/ is layered; each folder depends only on the folders above it in this list:
//   Foundations   C libraries, SQLite, JSON, durable files, text matching, HTTP client, audio I/O, speech
//   Storage       the document store and the query cache
//   Domains       the shared vocabulary, then catalog, audio, Mandarin and learning
//   Application   AppCore (what the launcher needs, FoundationEssentials only) and App (the composition root)
//   FrontEnds     CLICore and CLI (command line), HTTPTransport and HTTPAPI (vocab serve)
//   Executables   vocab (the static launcher) and vocab-full
//
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
        // Already in the graph through Hummingbird; named because the HTTP front end imports them.
        .package(url: "https://github.com/apple/swift-nio", from: "2.70.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.20.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
    ],
    targets: [
        // MARK: Foundations
        .systemLibrary(name: "CSQLite", path: "Sources/Foundations/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // Headers only (no pkgConfig, which would add link flags): the shims load the libraries.
        .systemLibrary(name: "CCurl", path: "Sources/Foundations/CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CEspeakNG", path: "Sources/Foundations/CEspeakNG", providers: [.apt(["libespeak-ng-dev"])]),
        .systemLibrary(name: "CSndFile", path: "Sources/Foundations/CSndFile", providers: [.apt(["libsndfile1-dev"])]),
        .target(name: "CurlShim", dependencies: ["CCurl"], path: "Sources/Foundations/CurlShim"),
        .target(name: "EspeakShim", dependencies: ["CEspeakNG"], path: "Sources/Foundations/EspeakShim"),
        .target(name: "SndFileShim", dependencies: ["CSndFile"], path: "Sources/Foundations/SndFileShim"),
        .target(name: "SQLiteDB", dependencies: ["CSQLite"], path: "Sources/Foundations/SQLiteDB"),
        // A validating pull parser for JSON that reports positions (category files, the MOE dictionary).
        .target(name: "JSONReading", path: "Sources/Foundations/JSONReading"),
        .target(name: "HTTPFetch", dependencies: ["CCurl", "CurlShim"], path: "Sources/Foundations/HTTPFetch"),
        .target(name: "AudioFile", dependencies: ["CSndFile", "SndFileShim"], path: "Sources/Foundations/AudioFile"),
        .target(name: "Speech", dependencies: ["CEspeakNG", "EspeakShim"], path: "Sources/Foundations/Speech"),

        // MARK: Storage
        .target(name: "Store", dependencies: ["SQLiteDB"], path: "Sources/Storage/Store"),
        .target(name: "Cache", dependencies: ["SQLiteDB"], path: "Sources/Storage/Cache"),

        // MARK: Domains
        .target(name: "Catalog", dependencies: ["Store", "Cache", "SQLiteDB", "JSONReading"], path: "Sources/Domains/Catalog"),
        // Clips from three tiers (recorded, legacy, espeak-ng).
        .target(name: "Audio", dependencies: ["AudioFile", "Speech", "HTTPFetch", "Catalog"], path: "Sources/Domains/Audio"),
        // The MOE revised Mandarin dictionary: import, lookup, stroke, radical and reading search.
        .target(name: "Mandarin", dependencies: ["SQLiteDB", "JSONReading"], path: "Sources/Domains/Mandarin"),
        // Learning: remote definitions with offline fallback, saved words, quizzes.
        .target(name: "Definitions", dependencies: ["HTTPFetch", "Store", "Catalog"], path: "Sources/Domains/Learning/Definitions"),
        .target(name: "Library", dependencies: ["Store", "Catalog"], path: "Sources/Domains/Learning/Library"),
        .target(name: "Quiz", dependencies: ["Store", "Catalog", "Library"], path: "Sources/Domains/Learning/Quiz"),

        // MARK: Front ends
        // What `vocab words` and `vocab categories` need, on FoundationEssentials only.
        .target(name: "CLICore", dependencies: ["Catalog", "Cache", "Store"], path: "Sources/FrontEnds/CLICore"),
        .target(name: "HTTPAPI", dependencies: [
            "Catalog", "Cache", "Store", "Mandarin", "AudioFile", "Audio",
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
        ], path: "Sources/FrontEnds/HTTPAPI"),
        .target(name: "CLI", dependencies: [
            "CLICore", "Catalog", "Store", "Cache", "Mandarin", "AudioFile", "Speech", "Audio", "HTTPFetch",
            "Definitions", "Library", "Quiz", "HTTPAPI",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ], path: "Sources/FrontEnds/CLI"),

        // MARK: Executables
        // `vocab`: a small static launcher that answers `vocab words` and `vocab categories` itself and otherwise
        // becomes `vocab-full`; start-up is most of a catalog command's time (see README).
        .executableTarget(name: "vocab", dependencies: ["CLICore", "Catalog"], path: "Sources/Executables/vocab",
                          linkerSettings: [
                              .unsafeFlags(["-static-executable"], .when(platforms: [.linux])),
                              // FoundationEssentials's own dependencies, which its autolink entries omit in static links.
                              .linkedLibrary("_FoundationCollections", .when(platforms: [.linux])),
                              .linkedLibrary("_FoundationCShims", .when(platforms: [.linux])),
                              .linkedLibrary("swiftSynchronization", .when(platforms: [.linux])),
                          ]),
        .executableTarget(name: "vocab-full", dependencies: ["CLI"], path: "Sources/Executables/vocab-full"),

        // MARK: Tests (the same layers)
        .target(name: "TestSupport", path: "Tests/Support/TestSupport"),
        .testTarget(name: "StoreTests", dependencies: ["Store", "SQLiteDB", "TestSupport"], path: "Tests/Storage/StoreTests"),
        .testTarget(name: "CacheTests", dependencies: ["Cache", "Store", "SQLiteDB", "TestSupport"], path: "Tests/Storage/CacheTests"),
        .testTarget(name: "CatalogTests", dependencies: ["Catalog", "Store", "TestSupport"], path: "Tests/Domains/CatalogTests"),
        .testTarget(name: "MandarinTests", dependencies: ["Mandarin", "JSONReading", "SQLiteDB", "TestSupport"],
                    path: "Tests/Domains/MandarinTests", resources: [.copy("Fixtures")]),
        .testTarget(name: "AudioTests", dependencies: ["Audio", "AudioFile", "Speech", "HTTPFetch", "Catalog", "TestSupport"],
                    path: "Tests/Domains/AudioTests"),
        .testTarget(name: "LearningTests", dependencies: ["Definitions", "Library", "Quiz", "HTTPFetch", "Store", "Catalog", "TestSupport"],
                    path: "Tests/Domains/LearningTests"),
        // CLITests and HTTPTests run the built `vocab` and `vocab-full` programs (swift build --build-tests builds them).
        .testTarget(name: "CLITests", dependencies: ["TestSupport"], path: "Tests/FrontEnds/CLITests"),
        .testTarget(name: "HTTPTests", dependencies: [
            "HTTPAPI", "Catalog", "Cache", "Audio", "AudioFile", "HTTPFetch", "Mandarin", "TestSupport",
            .product(name: "CompressNIO", package: "compress-nio"),
        ], path: "Tests/FrontEnds/HTTPTests"),
    ]
)
