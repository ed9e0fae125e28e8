import CommandLineSupport
import GatewayConfiguration
import GatewayCore
import Entitle
import GatewayStore

/// `issue-gateway reports rebuild`: the reports' derived rows made again from the facts
/// (reports.md, How fast: "rebuilt from the facts by one command if lost"): E36's circulation
/// evidence under the configured policy, and E37's subscription intervals.
enum ReportsCommand {
    static let help = """
        usage: issue-gateway reports rebuild

        Derives the reports' rows again from the stored facts: every account's circulation rows
        (E36) and every subscription's intervals (E37), a few hundred accounts per unit of work.
        Safe while the gateway serves: an account whose facts change meanwhile is derived again by
        its own change.
        """

    static func run(_ words: ArraySlice<String>, _ context: CommandContext) throws(CLIError) {
        if words.first == "--help" || words.first == "-h" { return context.console.out(help) }
        guard words.first == "rebuild" else { throw .usage("reports needs the subcommand rebuild") }
        let arguments = try Arguments.parse(words.dropFirst(), options: [])
        if arguments.wantsHelp { return context.console.out(help) }
        try arguments.expectPositionals(0, "")
        let configuration = try context.configuration()
        let store = try context.openStore(configuration)
        let started = ContinuousClock.now
        let accounts = try context.store { () throws(StoreError) in try rebuild(store, policy: configuration.entitlementPolicy) }
        context.console.out("rebuilt the reports' rows (E36 circulation, E37 subscriber intervals) of \(accounts) accounts in \(started.duration(to: .now))")
    }

    /// Every derived report table made again: E37's intervals deleted, every account marked due
    /// and drained under the configured policy (both reports' rows, decision 96), E36's
    /// fingerprint recorded, then E37's subscriptions nobody owns.
    static func rebuild(_ store: any GatewayStore, policy: EntitlementPolicy) throws(StoreError) -> Int {
        let circulation = CirculationUpkeep(policy: policy)
        store.factsUpkeep?.install(circulation)
        try store.write { tx throws(StoreError) in try tx.deleteAllSubscriberIntervals() }
        let accounts = try circulation.rebuild(store)
        try store.deriveOwnerlessSubscriberIntervals()
        return accounts
    }
}
