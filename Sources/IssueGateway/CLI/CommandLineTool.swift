import CommandLineSupport
import Foundation
import GatewayConfiguration
import GatewayStore

/// The `issue-gateway` command line: dispatches to the commands, turns errors into messages on
/// stderr and exit statuses (0 success, 1 failure, 2 usage). `main.swift` only calls `run`.
enum CommandLineTool {
    static let usage = """
        usage: issue-gateway [--config FILE] <command> [options]

        commands:
          serve                       open the store, import the catalog if it is empty, serve
          catalog import DIR          replace the stored catalog with the folder DIR
          catalog export DIR          write the stored catalog into the folder DIR
          catalog list                list publications and products, or one publication's issues
          catalog publish             add (or with --replace correct) one issue
          store exercise              commit numbered writes until stopped (durability check)
          store copy --to URL         copy the SQLite database into an empty PostgreSQL one
          token verify TOKEN --path P check a download token as an edge would
          account explain ACCOUNT PUB/ISSUE
                                      why an account may or may not download an issue (E20)
          account history ACCOUNT     every fact as it arrived on the account, as the API answers
          appstore migrate            move receipt-only subscriptions onto the App Store Server API
          reports rebuild             derive the reports' rows (E36 circulation, E37 subscriber intervals) again from the facts

        --config FILE reads settings (NAME=value lines, the environment's names) from FILE;
        the environment wins over it. `issue-gateway <command> --help` tells more.
        """

    static func run(_ arguments: [String], environment: [String: String], console: Console) -> Int32 {
        do {
            var words = arguments
            let configPath = try extractConfigOption(&words)
            let context = CommandContext(environment: environment, configPath: configPath, console: console)
            try dispatch(words[...], context)
            return ExitStatus.success
        } catch {
            console.err("issue-gateway: \(error.message)")
            if case .usage = error { console.err("run `issue-gateway --help` for usage") }
            return error.exitStatus
        }
    }

    private static func dispatch(_ words: ArraySlice<String>, _ context: CommandContext) throws(CLIError) {
        guard let command = words.first else { throw .usage("missing command") }
        let rest = words.dropFirst()
        switch command {
        case "-h", "--help", "help": context.console.out(usage)
        case "serve": try ServeCommand.run(rest, context)
        case "catalog": try CatalogCommand.run(rest, context)
        case "store": try StoreCommand.run(rest, context)
        case "token": try TokenCommand.run(rest, context)
        case "account": try AccountCommand.run(rest, context)
        case "appstore": try AppStoreCommand.run(rest, context)
        case "reports": try ReportsCommand.run(rest, context)
        default: throw .usage("unknown command \(command)")
        }
    }

    /// `--config FILE` may appear anywhere; it is taken out before the command parses the rest.
    private static func extractConfigOption(_ words: inout [String]) throws(CLIError) -> String? {
        var path: String?
        var index = 0
        while index < words.count {
            let word = words[index]
            if word == "--" { break }
            var value: String?
            if word == "--config" {
                guard index + 1 < words.count else { throw .usage("--config needs a file") }
                value = words[index + 1]
                words.removeSubrange(index...index + 1)
            } else if word.hasPrefix("--config=") {
                value = String(word.dropFirst("--config=".count))
                words.remove(at: index)
            } else {
                index += 1
                continue
            }
            guard path == nil else { throw .usage("--config is given more than once") }
            path = value
        }
        return path
    }
}

/// What every command gets: the environment, the optional config file and the console.
struct CommandContext {
    var environment: [String: String]
    var configPath: String?
    var console: Console

    /// The configuration, with a clear failure when a setting is wrong.
    func configuration() throws(CLIError) -> Configuration {
        var file: (path: String, text: String)?
        if let configPath {
            guard let text = try? String(contentsOfFile: configPath, encoding: .utf8) else {
                throw .failure("cannot read config file \(configPath)")
            }
            file = (configPath, text)
        }
        do {
            return try Configuration.load(environment: environment, configFile: file)
        } catch {
            throw .failure("configuration: \(error)")
        }
    }

    /// The configured store: SQLite, or PostgreSQL when `ISSUE_GATEWAY_DATABASE_URL` is set.
    func openStore(_ configuration: Configuration) throws(CLIError) -> any GatewayStore {
        do {
            return try configuration.openStore()
        } catch {
            throw .failure("cannot open the store (\(configuration.storeDescription)): \(error)")
        }
    }

    /// Runs a store call, turning its error into a failure message.
    func store<R>(_ body: () throws(StoreError) -> R) throws(CLIError) -> R {
        do { return try body() } catch { throw .failure("\(error)") }
    }
}
