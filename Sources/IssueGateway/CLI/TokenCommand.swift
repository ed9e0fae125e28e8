import CommandLineSupport
import DownloadTokens
import Entitle
import Foundation
import GatewayConfiguration
import GatewayCore
import IssueCatalog
import Wire

/// `issue-gateway token verify TOKEN --path P [--method M]`: the edge's own decision (tokens.md,
/// the same `EdgeCheck` as `GET /v1/edge/verify`), for support staff asking why a download failed.
enum TokenCommand {
    static let help = """
        usage: issue-gateway token verify TOKEN --path PATH [--method GET|HEAD]

        Checks a download token against the configured token keys exactly as an edge does for a
        request to PATH (path and optional query), and prints the decision (allow / 401 / 403), the
        reason and the token's claims. Exit status 0 when the edge would allow the request, 1 if not.
        """

    static func run(_ words: ArraySlice<String>, _ context: CommandContext) throws(CLIError) {
        let arguments = try Arguments.parse(words, options: ["path", "method"])
        if arguments.wantsHelp { return context.console.out(help) }
        guard arguments.positionals.first == "verify" else { throw .usage("token: expected `verify`") }
        guard arguments.positionals.count == 2 else { throw .usage("token verify: expected one TOKEN") }
        let path = try arguments.required("path")
        // Only reads: a support engineer's check must never generate keys as a side effect.
        let stored: Configuration
        do { stored = try GeneratedSecrets.stored(try context.configuration()) } catch { throw .failure("configuration: \(error)") }
        guard let keys = stored.tokenKeys else {
            throw .failure("no token keys: set ISSUE_GATEWAY_TOKEN_KEYS or point ISSUE_GATEWAY_DATABASE at a gateway's data folder")
        }
        let now = SystemClock().now()
        let decision = EdgeCheck.decide(authorization: "Bearer " + arguments.positionals[1], originalURI: path,
                                        originalMethod: try arguments.optional("method"), keys: keys, now: now)
        switch decision {
        case .allow(let verified):
            let claims = verified.claims
            context.console.out("""
                allow (204): key \(verified.kid), account \(claims.subject), issue \(claims.publication)/\(claims.issue)
                expires \(Instant(secondsSinceEpoch: claims.expiresAt).rfc3339); paths: \(claims.paths.joined(separator: " "))
                """)
        case .unauthorized(let reason), .forbidden(let reason):
            throw .failure("\(decision.httpStatus): \(reason.rawValue)")
        }
    }
}
