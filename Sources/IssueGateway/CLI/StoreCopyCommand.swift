import CommandLineSupport
import GatewayConfiguration
import GatewayStore
import PostgresStore
import SQLiteStore

/// `issue-gateway store copy --to postgresql://…` (moving up): copies the SQLite
/// database (`ISSUE_GATEWAY_DATABASE`) into an empty PostgreSQL database, every table in one
/// transaction, and commits only when each table's count and checksum read back from
/// PostgreSQL equal SQLite's.
enum StoreCopyCommand {
    static let help = """
        usage: issue-gateway store copy --to postgresql://user:password@host/db

        Copies everything the SQLite database ISSUE_GATEWAY_DATABASE holds (catalog, accounts,
        keys, App Store facts, receipts, grants, codes, history) into the PostgreSQL database
        named by --to, which must hold no data yet (its tables are created if missing). Every
        table's rows are counted and checksummed on both sides; the copy is committed only when
        they agree, and then one line per table is printed. Stop the gateway first: rows written
        during the copy would not be copied.
        """

    static func run(_ words: ArraySlice<String>, _ context: CommandContext) throws(CLIError) {
        let arguments = try Arguments.parse(words, options: ["to"])
        if arguments.wantsHelp { return context.console.out(help) }
        try arguments.expectPositionals(0, "")
        let destinationURL = try arguments.required("to")
        guard PostgresStore.handles(destinationURL) else { throw .usage("--to must be a postgresql:// URL") }
        let configuration = try context.configuration()
        guard configuration.databaseURL == nil else {
            throw .usage("the source is the SQLite database (ISSUE_GATEWAY_DATABASE); unset ISSUE_GATEWAY_DATABASE_URL")
        }
        let source: SQLiteStore
        let destination: PostgresStore
        do {
            source = try SQLiteStore(path: configuration.databasePath)
            destination = try PostgresStore(url: destinationURL, settings: configuration.postgresSettings)
        } catch {
            throw .failure("cannot open the stores: \(error)")
        }
        let copied: [CopiedTable]
        do {
            copied = try destination.importEverything(from: source)
        } catch {
            throw .failure("copy refused: \(error)")
        }
        for table in copied {
            context.console.out("\(table.name): \(table.destination) (verified)")
        }
        context.console.out("copied \(configuration.databasePath) into \(PostgresStore.redacted(destinationURL))")
    }
}
