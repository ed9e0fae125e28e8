import IssueCatalog

/// What `serve` does before it serves: fill in generated secrets (printing a new admin key once),
/// open the store, and import the catalog folder when the store holds no publications (issue #2).
/// The HTTP server starts from the value this returns.
struct GatewayStartup {
    var configuration: Configuration
    var store: SQLiteStore

    static func prepare(_ configuration: Configuration, _ context: CommandContext) throws(CLIError) -> GatewayStartup {
        let resolved: Configuration
        do {
            let (filled, newAdminKey) = try GeneratedSecrets.resolve(configuration)
            resolved = filled
            if let newAdminKey {
                context.console.err("""
                    issue-gateway: generated an admin key (shown this once; kept in \
                    \(GeneratedSecrets.path(besideDatabase: configuration.databasePath))):
                      \(newAdminKey)
                    """)
            }
        } catch {
            throw .failure("configuration: \(error)")
        }
        let store = try context.openStore(resolved)
        try importCatalogIfEmpty(store, folder: resolved.catalogFolder, context)
        return GatewayStartup(configuration: resolved, store: store)
    }

    private static func importCatalogIfEmpty(_ store: SQLiteStore, folder: String?, _ context: CommandContext) throws(CLIError) {
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

enum ServeCommand {
    static let help = """
        usage: issue-gateway serve

        Opens the store (creating it), generates the admin key and token keys on first start,
        imports the catalog folder when the store has no publications, then serves the HTTP API
        on ISSUE_GATEWAY_LISTEN. Settings: the ISSUE_GATEWAY_* environment variables.
        """

    static func run(_ words: ArraySlice<String>, _ context: CommandContext) throws(CLIError) {
        let arguments = try Arguments.parse(words)
        if arguments.wantsHelp { return context.console.out(help) }
        try arguments.expectPositionals(0, "")
        let startup = try GatewayStartup.prepare(try context.configuration(), context)
        let revision = try context.store { () throws(StoreError) in try startup.store.catalogRevision() }
        // The HTTP server is the server issue's work; until it lands, serve stops here.
        context.console.err("issue-gateway: store ready at \(startup.store.path) (catalog revision \(revision)); "
                            + "the HTTP server is not part of this build yet")
    }
}
