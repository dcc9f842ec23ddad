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
    let services: VocabServices
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
        services = VocabServices(
            environment: VocabEnvironment(
                categoriesDirectory: dir.file("Categories"), audioDirectory: dir.file("Audio"),
                home: HomeLayout(root: dir.file("home")), clock: clock.map { WallClock($0.read) } ?? .system))
        // Built as the server builds it: one application value over the embedded files.
        let app = try await VocabApp.build(services: services, database: .embedded, use: .server)
        catalog = app.catalog
        learning = app.learning
        self.app = app
    }
}
