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
        // SHA-256 of API tokens (postgres-nio needs swift-crypto too).
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
        // Bearer authentication and the request context that carries the learner.
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        // The server engine for several instances of `vocab serve` (SQLite stays the embedded default).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.0"),
        // The Prometheus registry and text format for `vocab serve --metrics-port` (no global metrics system).
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // MARK: Foundations
        .systemLibrary(name: "CSQLite", path: "Sources/Foundations/CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // Headers only (no pkgConfig, which would add link flags): the shims load the libraries.
        .systemLibrary(name: "CCurl", path: "Sources/Foundations/CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CEspeakNG", path: "Sources/Foundations/CEspeakNG", providers: [.apt(["libespeak-ng-dev"])]),
        .systemLibrary(name: "CSndFile", path: "Sources/Foundations/CSndFile", providers: [.apt(["libsndfile1-dev"])]),
        // No pkgConfig, like the others: a link flag would map libebur128 at every start-up.
        .systemLibrary(name: "CEbur128", path: "Sources/Foundations/CEbur128", providers: [.apt(["libebur128-dev"])]),
        .target(name: "CurlShim", dependencies: ["CCurl"], path: "Sources/Foundations/CurlShim"),
        .target(name: "EspeakShim", dependencies: ["CEspeakNG"], path: "Sources/Foundations/EspeakShim"),
        .target(name: "SndFileShim", dependencies: ["CSndFile"], path: "Sources/Foundations/SndFileShim"),
        // libopus, loaded at run time: the Opus packets of a browser's WebM recording.
        .target(name: "OpusShim", path: "Sources/Foundations/OpusShim"),
        .target(name: "Ebur128Shim", dependencies: ["CEbur128"], path: "Sources/Foundations/Ebur128Shim"),
        // posix_spawn with closefrom and pipe2 (GNU extensions Swift's Glibc module does not show).
        .target(name: "SpawnShim", path: "Sources/Foundations/SpawnShim"),
        // Work running and waiting on a limited resource, and how long it waited (for metrics).
        .target(name: "Usage", path: "Sources/Foundations/Usage"),
        .target(name: "SQLiteDB", dependencies: ["CSQLite", "Usage"], path: "Sources/Foundations/SQLiteDB"),
        // A validating pull parser for JSON that reports positions (category files, the MOE dictionary).
        .target(name: "JSONReading", path: "Sources/Foundations/JSONReading"),
        // Text folding and edit distance for search, suggestions and clip names.
        .target(name: "TextMatching", path: "Sources/Foundations/TextMatching"),
        // Durable replacement of files and databases, leftovers of killed runs, files opened only inside their folder.
        .target(name: "FileAccess", path: "Sources/Foundations/FileAccess"),
        // Blocking work kept off Swift's cooperative threads, and deadlines for work that may hang.
        .target(name: "Offloading", path: "Sources/Foundations/Offloading"),
        // SplitMix64: reproducible draws for interval fuzz and quizzes.
        .target(name: "SeededRandom", path: "Sources/Foundations/SeededRandom"),
        .target(name: "HTTPFetch", dependencies: ["CCurl", "CurlShim"], path: "Sources/Foundations/HTTPFetch"),
        .target(name: "PCMKernels", path: "Sources/Foundations/PCMKernels"),
        // A day number as a Gregorian date, by arithmetic.
        .target(name: "CivilDate", path: "Sources/Foundations/CivilDate"),
        // Every catalog word against every other by its phones, for the pronunciation judge.
        .target(name: "PhoneKernels", path: "Sources/Foundations/PhoneKernels"),
        .target(name: "AudioFile", dependencies: ["CSndFile", "SndFileShim", "OpusShim", "PCMKernels", "FileAccess"], path: "Sources/Foundations/AudioFile"),
        // espeak-ng in process; the neural voice in child processes of its own.
        // Child processes started with posix_spawn, inheriting nothing but what they are given.
        .target(name: "Spawning", dependencies: ["SpawnShim"], path: "Sources/Foundations/Spawning"),
        .target(name: "Speech", dependencies: ["CEspeakNG", "EspeakShim", "SpawnShim", "Spawning", "FileAccess", "Usage"], path: "Sources/Foundations/Speech"),
        // EBU R128 loudness of word clips (libebur128), trimming and normalising to one target,
        // and the checks an imported recording must pass.
        .target(name: "ClipProcessing", dependencies: ["AudioFile", "Ebur128Shim", "CEbur128", "PCMKernels"], path: "Sources/Foundations/ClipProcessing"),
        // Anki's legacy package (.apkg: a zip of a schema-11 collection and media) and its CSV import format.
        .target(
            name: "AnkiExport", dependencies: ["SQLiteDB", "JSONReading", "CivilDate", .product(name: "Crypto", package: "swift-crypto")],
            path: "Sources/Foundations/AnkiExport"),

        // MARK: Storage
        .target(name: "Store", dependencies: ["SQLiteDB"], path: "Sources/Storage/Store"),
        .target(name: "Cache", dependencies: ["SQLiteDB"], path: "Sources/Storage/Cache"),
        // The document store on PostgreSQL (jsonb), its versioned schema, and the change channel.
        .target(
            name: "PostgresStore",
            dependencies: [
                "Store", "Offloading", "JSONReading", "Usage", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                // Its ConnectionPoolError: the pool's "cannot connect" is an unavailable database too.
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ], path: "Sources/Storage/PostgresStore"),

        // MARK: Domains
        // What every domain speaks of: accents, clip references, which entry of which source.
        .target(name: "Vocabulary", path: "Sources/Domains/Vocabulary"),
        .target(
            name: "Catalog", dependencies: ["Vocabulary", "Store", "Cache", "SQLiteDB", "JSONReading", "TextMatching", "FileAccess"],
            path: "Sources/Domains/Catalog"),
        // Clips from three tiers (recorded, legacy, espeak-ng).
        .target(
            name: "Audio",
            dependencies: [
                "Vocabulary", "AudioFile", "JSONReading", "ClipProcessing", "Speech", "Spawning", "HTTPFetch", "TextMatching", "FileAccess", "Offloading",
            ],
            path: "Sources/Domains/Audio"),
        // Judging a learner's attempt at a word: the catalog's transcriptions in the recogniser's
        // phones, and the word against the words it could be mistaken for.
        .target(name: "Pronunciation", dependencies: ["Speech", "PhoneKernels"], path: "Sources/Domains/Pronunciation"),
        // The MOE revised Mandarin dictionary: import, lookup, stroke, radical and reading search.
        .target(name: "Mandarin", dependencies: ["SQLiteDB", "JSONReading", "FileAccess", "Offloading"], path: "Sources/Domains/Mandarin"),
        // Learning: remote definitions with offline fallback, saved words, quizzes.
        .target(name: "Definitions", dependencies: ["HTTPFetch", "Store", "Catalog"], path: "Sources/Domains/Learning/Definitions"),
        .target(name: "Quiz", dependencies: ["Store", "Catalog"], path: "Sources/Domains/Learning/Quiz"),
        // FSRS-6 spaced repetition: memory states, intervals, learning steps, seeded fuzz.
        .target(name: "FSRS", dependencies: ["SeededRandom"], path: "Sources/Domains/Learning/FSRS"),
        // Learners, their tokens, one library across sources, cards and the review log, behind the
        // LearnerStore protocol (SQLite by default).
        .target(
            name: "Learners",
            dependencies: [
                "FSRS", "SeededRandom", "Vocabulary", "SQLiteDB", "Store", "JSONReading", "Usage", "CivilDate",
                .product(name: "Crypto", package: "swift-crypto"),
            ], path: "Sources/Domains/Learning/Learners"),

        // Classes: an adult's classes, children with picture passwords, assignments, progress.
        .target(name: "Classes", dependencies: ["Learners", "FSRS", "Store"], path: "Sources/Domains/Learning/Classes"),

        // MARK: Storage adapters of the domains (Sources/Storage/Postgres*)
        // A domain's store protocol implemented on PostgresStore's pool: they sit with the other
        // PostgreSQL code and are chosen by the application layer; the rules stay in the domain.
        // The dictionary on PostgreSQL for `vocab serve --database`, and `vocab db push`'s copy of moe.sqlite into it.
        .target(
            name: "PostgresMandarin",
            dependencies: [
                "Mandarin", "SQLiteDB", "PostgresStore", "Offloading", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ], path: "Sources/Storage/PostgresMandarin"),
        // The learner store on PostgreSQL, for several instances of `vocab serve` on one database.
        .target(
            name: "PostgresLearners",
            dependencies: [
                "Learners", "FSRS", "Vocabulary", "PostgresStore", .product(name: "PostgresNIO", package: "postgres-nio"),
            ], path: "Sources/Storage/PostgresLearners"),

        // MARK: Application
        // The rules both front ends share (paths of the home folder, limits, input checks, failure
        // kinds, JSON shapes of catalog and Mandarin answers) and catalog opening: FoundationEssentials
        // only, for the launcher.
        .target(
            name: "AppCore", dependencies: ["Catalog", "Cache", "Store", "TextMatching", "FileAccess", "SQLiteDB", "Mandarin", "SeededRandom"],
            path: "Sources/Application/AppCore"),
        // The composition root: builds the services for the CLI, the server and the tests.
        .target(
            name: "App",
            dependencies: [
                "Classes",
                "AppCore", "Catalog", "Cache", "Store", "Audio", "AudioFile", "Speech", "Spawning", "Pronunciation", "HTTPFetch", "Mandarin",
                "Definitions", "Quiz", "SQLiteDB", "FileAccess", "Offloading", "Vocabulary", "Learners", "FSRS", "TextMatching",
                "AnkiExport", "PostgresStore", "PostgresLearners", "PostgresMandarin", "JSONReading", "Usage",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                // Password hashes of learners who sign in to the web app.
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
            ], path: "Sources/Application/App"),

        // MARK: Front ends
        // What the launcher answers (`vocab words`, `categories`, `lookup`, `strokes`, `radical`,
        // reading searches, `say` of a clip said before), on FoundationEssentials only.
        .target(name: "CLICore", dependencies: ["AppCore", "Catalog", "Mandarin", "TextMatching", "Vocabulary"], path: "Sources/FrontEnds/CLICore"),
        // HTTP/1 plumbing under the API: connection limits and timeouts, the repeated-request lane,
        // response representations (ETag, gzip), the response cache, logfmt logs.
        .target(
            name: "HTTPTransport",
            dependencies: [
                "TextMatching", "CivilDate",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                "JSONReading", "Usage",
            ], path: "Sources/FrontEnds/HTTPTransport"),
        // The web app `vocab serve` answers at /: plain HTML, CSS and JavaScript modules (Web/, shipped
        // as resources beside the binary), served as representations with ETag and gzip.
        .target(
            name: "WebApp",
            dependencies: [
                "AppCore", "HTTPTransport", "Offloading",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ], path: "Sources/FrontEnds/WebApp", resources: [.copy("Web")]),
        // The JSON API of `vocab serve`: one route collection per area, errors from App's classifier.
        .target(
            name: "HTTPAPI",
            dependencies: [
                "App", "AppCore", "HTTPTransport", "WebApp", "Catalog", "Mandarin", "AudioFile", "Audio", "Offloading", "Learners", "Classes", "FSRS",
                "TextMatching",
                "PostgresStore",
                "FileAccess",
                "JSONReading", "Usage",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ], path: "Sources/FrontEnds/HTTPAPI"),
        .target(
            name: "CLI",
            dependencies: [
                "App", "AppCore", "CLICore", "Catalog", "Store", "Cache", "Mandarin", "AudioFile", "Speech", "Spawning", "Audio", "HTTPFetch",
                "Definitions", "Quiz", "Learners", "Classes", "FSRS", "SeededRandom", "HTTPAPI", "HTTPTransport", "FileAccess",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ], path: "Sources/FrontEnds/CLI"),

        // MARK: Executables
        // `vocab`: a small static launcher that answers `vocab words`, `vocab categories` and the Mandarin listings itself and otherwise
        // becomes `vocab-full`; start-up is most of a catalog command's time (see README).
        .executableTarget(
            name: "vocab", dependencies: ["CLICore", "Catalog", "FileAccess"], path: "Sources/Executables/vocab",
            linkerSettings: [
                .unsafeFlags(["-static-executable"], .when(platforms: [.linux])),
                // FoundationEssentials's own dependencies, which its autolink entries omit in static links.
                .linkedLibrary("_FoundationCollections", .when(platforms: [.linux])),
                .linkedLibrary("_FoundationCShims", .when(platforms: [.linux])),
                .linkedLibrary("swiftSynchronization", .when(platforms: [.linux])),
            ]),
        .executableTarget(name: "vocab-full", dependencies: ["CLI"], path: "Sources/Executables/vocab-full"),

        // MARK: Tests (the same layers)
        .target(name: "TestSupport", dependencies: ["SpawnShim", "Spawning"], path: "Tests/Support/TestSupport"),
        // A fresh process in which libebur128 has not been touched yet, to see the lazy load and
        // the load failure (neither can be seen inside the shared test process).
        .executableTarget(
            name: "loudness-probe", dependencies: ["ClipProcessing", "Ebur128Shim", "AudioFile"],
            path: "Tests/Support/loudness-probe"),
        .testTarget(name: "TextMatchingTests", dependencies: ["TextMatching", "SeededRandom"], path: "Tests/Foundations/TextMatchingTests"),
        .testTarget(name: "OffloadingTests", dependencies: ["Offloading"], path: "Tests/Foundations/OffloadingTests"),
        .testTarget(name: "UsageTests", dependencies: ["Usage"], path: "Tests/Foundations/UsageTests"),
        .testTarget(name: "SpawningTests", dependencies: ["Spawning"], path: "Tests/Foundations/SpawningTests"),
        .testTarget(name: "SpeechTests", dependencies: ["Speech", "Spawning"], path: "Tests/Foundations/SpeechTests"),
        .testTarget(name: "FileAccessTests", dependencies: ["FileAccess", "SQLiteDB", "TestSupport"], path: "Tests/Foundations/FileAccessTests"),
        .testTarget(name: "AudioFileTests", dependencies: ["AudioFile", "SeededRandom", "TestSupport"], path: "Tests/Foundations/AudioFileTests"),
        .testTarget(
            name: "ClipProcessingTests", dependencies: ["ClipProcessing", "AudioFile", "Ebur128Shim", "CEbur128", "SeededRandom", "TestSupport"],
            path: "Tests/Foundations/ClipProcessingTests"),
        .testTarget(name: "SQLiteDBTests", dependencies: ["SQLiteDB", "TestSupport"], path: "Tests/Foundations/SQLiteDBTests"),
        .testTarget(name: "StoreTests", dependencies: ["Store", "PostgresStore", "SQLiteDB", "TestSupport"], path: "Tests/Storage/StoreTests"),
        .testTarget(name: "CacheTests", dependencies: ["Cache", "Store", "TestSupport"], path: "Tests/Storage/CacheTests"),
        .testTarget(name: "CatalogTests", dependencies: ["Catalog", "Cache", "Store", "TestSupport"], path: "Tests/Domains/CatalogTests"),
        .testTarget(
            name: "MandarinTests", dependencies: ["Mandarin", "PostgresMandarin", "PostgresStore", "JSONReading", "SQLiteDB", "SeededRandom", "TestSupport"],
            path: "Tests/Domains/MandarinTests", resources: [.copy("Fixtures")]),
        .testTarget(
            name: "AudioTests", dependencies: ["Audio", "AudioFile", "ClipProcessing", "Speech", "HTTPFetch", "Vocabulary", "TestSupport"],
            path: "Tests/Domains/AudioTests"),
        .testTarget(
            name: "AnkiExportTests", dependencies: ["AnkiExport", "SQLiteDB", "Spawning"], path: "Tests/Foundations/AnkiExportTests", exclude: ["Scripts"]),
        .testTarget(
            name: "PronunciationTests", dependencies: ["Pronunciation", "Speech", "AudioFile", "SeededRandom", "TestSupport"],
            path: "Tests/Domains/PronunciationTests", resources: [.copy("Fixtures")]),
        .testTarget(name: "FSRSTests", dependencies: ["FSRS", "SeededRandom"], path: "Tests/Domains/FSRSTests", resources: [.copy("Fixtures")]),
        .testTarget(
            name: "LearnersTests", dependencies: ["Learners", "PostgresLearners", "PostgresStore", "FSRS", "SeededRandom", "Store", "SQLiteDB", "TestSupport"],
            path: "Tests/Domains/LearnersTests"),
        .testTarget(
            name: "LearningTests",
            dependencies: ["Definitions", "Quiz", "Classes", "SeededRandom", "HTTPFetch", "Store", "Catalog", "TestSupport"],
            path: "Tests/Domains/LearningTests"),
        .testTarget(name: "AppCoreTests", dependencies: ["AppCore", "Catalog", "FileAccess", "TestSupport"], path: "Tests/Application/AppCoreTests"),
        .testTarget(
            name: "AppTests",
            dependencies: [
                "App", "AppCore", "Classes", "Catalog", "Audio", "Speech", "Mandarin", "Learners", "FSRS", "SeededRandom", "Quiz", "FileAccess",
                "SQLiteDB", "Offloading", "TestSupport",
            ],
            path: "Tests/Application/AppTests"),
        .testTarget(
            name: "HTTPTransportTests",
            dependencies: [
                "HTTPTransport", "TextMatching", .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HTTPTypes", package: "swift-http-types"),
            ], path: "Tests/FrontEnds/HTTPTransportTests"),
        // CLITests and HTTPTests run the built `vocab` and `vocab-full` programs (swift build --build-tests builds them).
        .testTarget(name: "CLITests", dependencies: ["TestSupport", "SQLiteDB", "CLICore"], path: "Tests/FrontEnds/CLITests"),
        .testTarget(
            name: "HTTPTests",
            dependencies: [
                "HTTPAPI", "HTTPTransport", "App", "AppCore", "Catalog", "Cache", "Audio", "AudioFile", "ClipProcessing", "HTTPFetch", "Mandarin", "Speech",
                "Learners", "Classes", "FSRS", "SQLiteDB", "WebApp",
                "TestSupport",
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ], path: "Tests/FrontEnds/HTTPTests"),
    ]
)
