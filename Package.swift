// swift-tools-version: 6.0
import PackageDescription

// System libraries are reached through system-library targets (module maps) so the
// build links the distribution's own libsqlite3, libcurl, libespeak-ng and libsndfile.
let package = Package(
    name: "vocab",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "vocab", targets: ["vocab"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CEspeakNG", pkgConfig: "espeak-ng", providers: [.apt(["libespeak-ng-dev"])]),
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),

        // curl_easy_setopt/getinfo are variadic, which Swift cannot call: typed wrappers live here.
        .target(name: "CurlShim", dependencies: ["CCurl"]),
        .target(name: "HTTPFetch", dependencies: ["CCurl", "CurlShim"]),
        .target(name: "SQLiteDB", dependencies: ["CSQLite"]),
        .target(name: "Store", dependencies: ["SQLiteDB"]),
        .target(name: "Cache", dependencies: ["SQLiteDB"]),
        .target(name: "Catalog", dependencies: ["Store", "Cache", "SQLiteDB"]),
        // The MOE revised Mandarin dictionary: import, lookup, stroke and radical search.
        .target(name: "MOE", dependencies: ["SQLiteDB"]),
        // Audio: libsndfile I/O, espeak-ng synthesis, and the three-tier clip lookup on top.
        .target(name: "AudioFile", dependencies: ["CSndFile"]),
        .target(name: "Speech", dependencies: ["CEspeakNG"]),
        .target(name: "AudioTiers", dependencies: ["AudioFile", "Speech", "HTTPFetch", "Catalog"]),
        // Learning features: remote definitions with offline fallback, saved words, quizzes.
        .target(name: "RemoteDictionary", dependencies: ["HTTPFetch", "Store", "Catalog"]),
        .target(name: "Library", dependencies: ["Store", "Catalog"]),
        .target(name: "Quiz", dependencies: ["Store", "Catalog", "Library"]),
        .target(name: "VocabCommands", dependencies: [
            "Catalog", "Store", "Cache", "MOE", "AudioFile", "Speech", "AudioTiers", "HTTPFetch",
            "RemoteDictionary", "Library", "Quiz",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "vocab", dependencies: ["VocabCommands"]),

        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "StoreTests", dependencies: ["Store", "SQLiteDB", "TestSupport"]),
        .testTarget(name: "CacheTests", dependencies: ["Cache", "Store", "SQLiteDB", "TestSupport"]),
        .testTarget(name: "CatalogTests", dependencies: ["Catalog", "Store", "TestSupport"]),
        .testTarget(name: "MOETests", dependencies: ["MOE", "SQLiteDB", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "AudioTests", dependencies: ["AudioTiers", "AudioFile", "Speech", "HTTPFetch", "Catalog", "TestSupport"]),
        .testTarget(name: "LearningTests", dependencies: ["RemoteDictionary", "Library", "Quiz", "HTTPFetch", "Store", "Catalog", "TestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["vocab", "TestSupport"]),
    ]
)
