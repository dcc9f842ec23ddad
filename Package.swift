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

        .target(name: "SQLiteDB", dependencies: ["CSQLite"]),
        .target(name: "Store", dependencies: ["SQLiteDB"]),
        .target(name: "Cache", dependencies: ["SQLiteDB"]),
        .target(name: "Catalog", dependencies: ["Store", "Cache", "SQLiteDB"]),
        // The MOE revised Mandarin dictionary: import, lookup, stroke and radical search.
        .target(name: "MOE", dependencies: ["SQLiteDB"]),
        .target(name: "VocabCommands", dependencies: [
            "Catalog", "Store", "Cache", "MOE",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "vocab", dependencies: ["VocabCommands"]),

        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "StoreTests", dependencies: ["Store", "SQLiteDB", "TestSupport"]),
        .testTarget(name: "CacheTests", dependencies: ["Cache", "Store", "SQLiteDB", "TestSupport"]),
        .testTarget(name: "CatalogTests", dependencies: ["Catalog", "Store", "TestSupport"]),
        .testTarget(name: "MOETests", dependencies: ["MOE", "SQLiteDB", "TestSupport"], resources: [.copy("Fixtures")]),
        .testTarget(name: "CLITests", dependencies: ["vocab", "TestSupport"]),
    ]
)
