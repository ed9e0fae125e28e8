import CommandLineSupport
import Foundation
import GatewayConfiguration
import GatewayCore

/// `issue-gateway appstore migrate`: moves subscriptions known only by stored receipts onto the
/// App Store Server API, resumably.
enum AppStoreCommand {
    static let help = """
        usage: issue-gateway appstore migrate

        Reads the original transaction ids of every stored receipt (PKCS#7, verified by Apple
        when stored) and fetches each subscription's whole history and status from the App Store
        Server API (ISSUE_GATEWAY_APPSTORE_API_* must be set), storing them like any fact.
        Subscriptions fetched whole before are skipped, so an interrupted run is run again.
        Prints one line per failure and a summary; exits 1 when some subscription failed.
        """

    static func run(_ words: ArraySlice<String>, _ context: CommandContext) throws(CLIError) {
        guard words.first == "migrate" else {
            if words.first == "--help" || words.first == "-h" { return context.console.out(help) }
            throw .usage("appstore needs the subcommand migrate")
        }
        let arguments = try Arguments.parse(words.dropFirst())
        if arguments.wantsHelp { return context.console.out(help) }
        try arguments.expectPositionals(0, "")
        let configuration = try GatewayStartup.resolveSecrets(try context.configuration(), context)
        let store = try context.openStore(configuration)
        let report: AppStoreMigrationReport
        do {
            let runtime = try GatewayRuntime.forServing(configuration: configuration, store: store, accessLog: nil)
            report = try runtime.migrateReceiptsToServerAPI { line in context.console.err("issue-gateway: \(line)") }
        } catch {
            throw .failure("appstore migrate: \(error)")
        }
        context.console.out("""
            receipts \(report.receipts) (not PKCS#7: \(report.unreadableReceipts)), subscriptions \(report.subscriptions): \
            migrated \(report.migrated), already \(report.alreadyMigrated), failed \(report.failed)
            """)
        if report.failed > 0 { throw .failure("\(report.failed) subscriptions could not be migrated; run it again") }
    }
}
