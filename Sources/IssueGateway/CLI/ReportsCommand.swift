import CommandLineSupport
import GatewayConfiguration
import GatewayCore
import Entitle
import GatewayStore

/// `issue-gateway reports rebuild`: every account's derived report rows made again from its facts
/// (E36's circulation evidence), under the configured policy, for a store that lost them or was
/// loaded without them.
enum ReportsCommand {
    static let help = """
        usage: issue-gateway reports rebuild

        Derives every account's circulation rows (E36) again from its stored facts, 500 accounts
        per unit of work; safe while the gateway serves.
        """

    static func run(_ words: ArraySlice<String>, _ context: CommandContext) throws(CLIError) {
        if words.first == "--help" || words.first == "-h" { return context.console.out(help) }
        guard words.first == "rebuild" else { throw .usage("reports needs the subcommand rebuild") }
        let arguments = try Arguments.parse(words.dropFirst(), options: [])
        if arguments.wantsHelp { return context.console.out(help) }
        try arguments.expectPositionals(0, "")
        let configuration = try context.configuration()
        let store = try context.openStore(configuration)
        let count = try context.store { () throws(StoreError) in try rebuild(store, policy: configuration.entitlementPolicy) }
        context.console.out("rebuilt the report rows of \(count) accounts")
    }

    /// Every derived report table, rebuilt in turn; a report's own table is added here.
    static func rebuild(_ store: any GatewayStore, policy: EntitlementPolicy) throws(StoreError) -> Int {
        let circulation = CirculationUpkeep(policy: policy)
        store.factsUpkeep?.install(circulation)
        return try circulation.rebuild(store)
    }
}
