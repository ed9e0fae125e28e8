import CommandLineSupport
import Foundation
import GatewayConfiguration
import GatewayCore
import GatewayStore

/// `issue-gateway store exercise`: commits numbered writes and reports each one after its commit
/// returned. Operators use it to check that a disk keeps what the database says it committed;
/// the durability test kills it with SIGKILL mid-run and then counts what survived.
enum StoreCommand {
    static let help = """
        usage: issue-gateway store exercise [--count N]
               issue-gateway store copy --to postgresql://…   (see store copy --help)

        Creates accounts named exercise-<run>-<n>, n = 1, 2, …, one transaction each, printing
        "committed exercise-<run>-<n>" after each commit, until N (default: until stopped).
        Run it against a scratch database (ISSUE_GATEWAY_DATABASE): the accounts stay.
        """

    static func run(_ words: ArraySlice<String>, _ context: CommandContext) throws(CLIError) {
        if words.first == "copy" { return try StoreCopyCommand.run(words.dropFirst(), context) }
        guard words.first == "exercise" else {
            if words.first == "--help" || words.first == "-h" { return context.console.out(help) }
            throw .usage("store needs the subcommand exercise or copy")
        }
        let arguments = try Arguments.parse(words.dropFirst(), options: ["count"])
        if arguments.wantsHelp { return context.console.out(help) }
        try arguments.expectPositionals(0, "")
        var limit = Int.max
        if let text = try arguments.optional("count") {
            guard let count = Int(text), count > 0 else { throw .usage("--count must be a positive integer") }
            limit = count
        }
        let store = try context.openStore(try context.configuration())
        let run = UUID().uuidString.prefix(8).lowercased()
        let now = SystemClock().now()
        var n = 0
        while n < limit {
            n += 1
            let id = "exercise-\(run)-\(n)"
            try context.store { () throws(StoreError) in
                try store.createAccount(Account(id: id, tokenHash: "exercise:\(id)", createdAt: now))
            }
            context.console.out("committed \(id)")
        }
    }
}
