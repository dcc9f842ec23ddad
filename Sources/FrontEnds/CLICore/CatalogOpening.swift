import AppCore
import Catalog

/// Tells the user on standard error when the catalog had to be rebuilt or is stale (even
/// without --verbose: both are rare and worth knowing).
public enum CatalogOpening {
    public static func report(_ status: CatalogIndexer.Status, verbose: Bool) {
        if let notice = status.notice {
            Output.error("vocab: \(notice)")
        } else if verbose {
            Output.error("vocab: catalog up to date.")
        }
    }
}

extension VocabEnvironment {
    /// Opens the catalog for the launcher's own commands and reports how it was found (the
    /// full program's commands open it through `VocabApp`, which reports the same way).
    public func openCatalog(verbose: Bool, force: Bool = false) async throws -> CatalogService {
        let (catalog, status) = try await openCatalog(force: force, onOutOfSpace: { Output.error("vocab: \($0)") })
        CatalogOpening.report(status, verbose: verbose)
        return catalog
    }
}
