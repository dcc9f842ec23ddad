import App
import AppCore
import Catalog
import Foundation
import Learners
import Mandarin
import TestSupport

/// A vocab home built by the composition root over the learning fixture catalog, with the MOE
/// sample dictionary imported, as the CLI and the server see it.
struct AppSandbox {
    let dir: TemporaryDirectory
    let environment: VocabEnvironment
    let catalog: CatalogService
    let learning: LearningService
    let app: VocabApp

    init(
        mandarin: Bool = true, clock: TestClock? = nil,
        catalog write: (TemporaryDirectory) throws -> Void = { try LearningFixtures.writeCatalog(in: $0) }
    ) async throws {
        dir = try TemporaryDirectory("app")
        try write(dir)
        try FileManager.default.createDirectory(atPath: dir.file("home"), withIntermediateDirectories: true)
        if mandarin { _ = try MOEImporter(databasePath: dir.file("home/moe.sqlite")).importFile(at: Repository.moeSample) }
        environment = VocabEnvironment(
            categoriesDirectory: dir.file("Categories"), audioDirectory: dir.file("Audio"),
            home: HomeLayout(root: dir.file("home")), clock: clock.map { WallClock($0.read) } ?? .system)
        // Built as the server builds it: one application value over the embedded files.
        let app = try VocabApp(environment: environment, database: .embedded, use: .server)
        catalog = try await app.catalog()
        learning = try await app.learning()
        self.app = app
    }

    /// Another application value over the same home on `database`, as another process of
    /// vocab (or a new version of it) would build it.
    func app(on database: DatabaseChoice, use: VocabApp.Use = .command) throws -> VocabApp {
        try VocabApp(environment: environment, database: database, use: use)
    }
}
