import CommandLineSupport
import Foundation
import GatewayConfiguration
import GatewayStore
import IssueCatalog

/// `issue-gateway catalog import|export|list|publish`.
enum CatalogCommand {
    static let help = """
        usage: issue-gateway catalog <subcommand>

          import DIR      check the folder DIR and replace the stored catalog with it (all or nothing)
          export DIR      write the stored catalog into DIR (catalog/README.md describes the format)
          list [--publication ID]
                          publications and products, or every issue of one publication, newest first
          publish --publication ID --id ID --title T --published-at RFC3339
                  [--asset PATH[:BYTES:SHA256]]... [--free] [--replace]
                          add an issue (a future --published-at schedules it); --replace corrects
                          an existing one and republishes it if it was retracted
        """

    static func run(_ words: ArraySlice<String>, _ context: CommandContext) throws(CLIError) {
        guard let sub = words.first else { throw .usage("catalog needs a subcommand (import, export, list, publish)") }
        let rest = words.dropFirst()
        switch sub {
        case "-h", "--help": context.console.out(help)
        case "import": try runImport(rest, context)
        case "export": try runExport(rest, context)
        case "list": try CatalogListing.run(rest, context)
        case "publish": try IssuePublishing.run(rest, context)
        default: throw .usage("unknown catalog subcommand \(sub)")
        }
    }

    private static func runImport(_ words: ArraySlice<String>, _ context: CommandContext) throws(CLIError) {
        let arguments = try Arguments.parse(words)
        if arguments.wantsHelp { return context.console.out("usage: issue-gateway catalog import DIR\n\n" + importHelp) }
        try arguments.expectPositionals(1, "the catalog folder DIR")
        let store = try context.openStore(try context.configuration())
        let catalog = try importFolder(arguments.positionals[0], into: store, context)
        context.console.out("imported \(arguments.positionals[0]): \(summary(catalog))")
    }

    static let importHelp = """
        Every file is checked first; one problem (named by file and field) refuses the whole import,
        and the stored catalog is then unchanged.
        """

    private static func runExport(_ words: ArraySlice<String>, _ context: CommandContext) throws(CLIError) {
        let arguments = try Arguments.parse(words)
        if arguments.wantsHelp {
            return context.console.out("usage: issue-gateway catalog export DIR\n\nWrites products.json and publications/<id>.json; "
                                       + "publication files of publications no longer stored are removed.")
        }
        try arguments.expectPositionals(1, "the destination folder DIR")
        let store = try context.openStore(try context.configuration())
        let catalog = try context.store { () throws(StoreError) in try store.loadCatalog() }
        try CatalogFiles.write(CatalogFolder.encode(catalog), to: arguments.positionals[0])
        context.console.out("exported \(summary(catalog)) to \(arguments.positionals[0])")
    }

    /// Reads, checks and imports a folder in one transaction.
    static func importFolder(_ folder: String, into store: some GatewayStore, _ context: CommandContext)
        throws(CLIError) -> Catalog {
        let files = try CatalogFiles.read(folder)
        let catalog: Catalog
        do {
            catalog = try CatalogFolder.decode(files)
        } catch {
            throw .failure(error.file == nil ? "\(folder): \(error)" : "\(folder)/\(error)")
        }
        switch try context.store({ () throws(StoreError) in try store.importCatalog(catalog) }) {
        case .imported: return catalog
        case .unknownPublication(let ref):
            throw .failure("\(folder): not found: publication \(ref.publicationId) of issue \(ref.issueId)")
        }
    }

    static func summary(_ catalog: Catalog) -> String {
        "\(catalog.publications.count) publications, \(catalog.products.count) products, \(catalog.issues.count) issues"
    }
}
