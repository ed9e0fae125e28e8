import CommandLineSupport
import Foundation
import GatewayConfiguration
import HTTPServer
import Lifecycle

/// `issue-gateway serve`: prepares the store and secrets, then serves the API until SIGTERM or
/// SIGINT, finishing what is in flight (graceful shutdown), and exits 0.
enum ServeCommand {
    static let help = """
        usage: issue-gateway serve

        Opens the store (creating it), generates the admin key and token keys on first start,
        imports the catalog folder when the store has no publications, then serves the HTTP API
        on ISSUE_GATEWAY_LISTEN until SIGTERM or SIGINT. Settings: the ISSUE_GATEWAY_* environment
        variables (docs/configuration.md). Access log: JSON lines on standard output.
        """

    static func run(_ words: ArraySlice<String>, _ context: CommandContext) throws(CLIError) {
        let arguments = try Arguments.parse(words)
        if arguments.wantsHelp { return context.console.out(help) }
        try arguments.expectPositionals(0, "")
        let configuration = try context.configuration()
        // Before the store's and the server's threads exist: arenas made earlier stay.
        MallocArenas.limit(configuration.mallocArenas)
        let startup = try GatewayStartup.prepare(configuration, context)
        let accessLog = AccessLog(destination: FileHandle.standardOutput)
        let runtime: GatewayRuntime
        do {
            runtime = try GatewayRuntime.forServing(configuration: startup.configuration, store: startup.store,
                                                    accessLog: accessLog)
        } catch {
            throw .failure("cannot start: \(error)")
        }
        // Started in this order, stopped in reverse once the server has finished in-flight requests
        // (SIGTERM/SIGINT): the runtime's services (watcher, store health, poller), then the access
        // log, flushed last.
        let services = ServiceGroup([AccessLogService(accessLog)] + runtime.backgroundServices)
        do {
            try services.run {
                try runtime.server.runUntilSignalled { port in
                    context.console.err("issue-gateway: serving on \(startup.configuration.listen.host):\(port) "
                                        + "with \(startup.configuration.threads) event loops")
                }
            }
        } catch {
            throw .failure("cannot serve on \(startup.configuration.listen): \(error)")
        }
        context.console.err("issue-gateway: stopped")
    }
}
