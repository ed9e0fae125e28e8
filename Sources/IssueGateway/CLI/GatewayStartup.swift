import CommandLineSupport
import GatewayConfiguration
import GatewayStore
import IssueCatalog

/// What `serve` does before it serves: fill in generated secrets (printing a new admin key once),
/// open the store, and import the catalog folder when the store holds no publications.
/// The HTTP server starts from the value this returns.
struct GatewayStartup {
    var configuration: Configuration
    var store: any GatewayStore

    static func prepare(_ configuration: Configuration, _ context: CommandContext) throws(CLIError) -> GatewayStartup {
        let resolved = try resolveSecrets(configuration, context)
        let store = try context.openStore(resolved)
        try importCatalogIfEmpty(store, folder: resolved.catalogFolder, context)
        return GatewayStartup(configuration: resolved, store: store)
    }

    /// The configuration with generated secrets filled in; a newly generated admin key is printed
    /// this once.
    static func resolveSecrets(_ configuration: Configuration, _ context: CommandContext) throws(CLIError) -> Configuration {
        do {
            let (filled, newAdminKey) = try GeneratedSecrets.resolve(configuration)
            if let newAdminKey {
                context.console.err("""
                    issue-gateway: generated an admin key (shown this once; kept in \
                    \(GeneratedSecrets.path(besideDatabase: configuration.databasePath))):
                      \(newAdminKey)
                    """)
            }
            return filled
        } catch {
            throw .failure("configuration: \(error)")
        }
    }

    private static func importCatalogIfEmpty(_ store: any GatewayStore, folder: String?, _ context: CommandContext) throws(CLIError) {
        let current = try context.store { () throws(StoreError) in try store.loadCatalog() }
        guard current.publications.isEmpty else { return }
        guard let folder else {
            context.console.err("issue-gateway: the store has no publications and ISSUE_GATEWAY_CATALOG is none")
            return
        }
        let catalog = try CatalogCommand.importFolder(folder, into: store, context)
        context.console.err("issue-gateway: the store had no publications; imported \(folder): \(CatalogCommand.summary(catalog))")
    }
}
