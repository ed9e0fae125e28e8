import CommandLineSupport
import GatewayConfiguration
import GatewayStore

/// `issue-gateway reports rebuild`: makes the reports' derived rows again from the facts
/// (reports.md, How fast: "rebuilt from the facts by one command if lost"), for E37 the
/// subscription intervals (`rebuildSubscriberIntervals`).
enum ReportsCommand {
    static let help = """
        usage: issue-gateway reports rebuild

        Deletes the reports' derived rows and computes them again from the stored facts
        (subscriber intervals, E37), a few hundred accounts per unit of work. Safe to run while
        the gateway serves: an account whose facts change meanwhile is computed by its own change.
        """

    static func run(_ words: ArraySlice<String>, _ context: CommandContext) throws(CLIError) {
        guard words.first == "rebuild" else {
            if words.first == "--help" || words.first == "-h" { return context.console.out(help) }
            throw .usage("reports needs the subcommand rebuild")
        }
        let arguments = try Arguments.parse(words.dropFirst(), options: [])
        if arguments.wantsHelp { return context.console.out(help) }
        try arguments.expectPositionals(0, "")
        let store = try context.openStore(try context.configuration())
        let accounts = try context.store { () throws(StoreError) in try store.rebuildSubscriberIntervals() }
        context.console.out("subscriber intervals rebuilt for \(accounts) accounts")
    }
}
