import AppCore
import Catalog

extension VocabEnvironment {
    /// Opens the catalog for a command, telling the user on standard error when it had to be
    /// rebuilt or is stale (even without --verbose: both are rare and worth knowing).
    public func openCatalog(verbose: Bool, force: Bool = false) async throws -> CatalogService {
        let (catalog, status) = try await openCatalog(force: force)
        if let notice = status.notice {
            Output.error("vocab: \(notice)")
        } else if verbose {
            Output.error("vocab: catalog up to date.")
        }
        return catalog
    }
}
