import CommandLineSupport
import Foundation
import GooglePlayKit
import GooglePlaySimulator
import HTTPServer
import Wire

/// `googleplay-simulator`: plays Google Play for a gateway (token endpoint, Developer and Orders
/// API, JWKS, scenario steps pushed to the gateway) until SIGTERM or SIGINT.
enum GooglePlaySimulatorCommand {
    static let help = """
        usage: googleplay-simulator --listen HOST:PORT [--package NAME] [--key-file PATH]
                                    [--push URL [--audience AUD]] [--allow-remote]

        Serves Google's token endpoint at /token, the Developer and Orders API under
        /androidpublisher/v3/applications/NAME/ (default com.example.magazine) and the push
        tokens' JWKS at /oauth2/v3/certs. It writes the service account's JSON key, whose
        token_uri is this simulator, to PATH (default googleplay-service-account.json) for
        ISSUE_GATEWAY_GOOGLE_SERVICE_ACCOUNT, and prints the settings a gateway needs.

        Scenario steps are control routes: POST /simulator/steps/STEP with a JSON body
        (buy, upgrade, resubscribe, renew, grace, hold, recover, pause, resume, cancel,
        expire, revoke, refund, chargeback, buy-product, cancel-pending), POST
        /simulator/clock, POST /simulator/failures (docs/googleplay-simulator.md). With
        --push, each step's notification is pushed to URL (the gateway's
        /v1/googleplay/notifications) with an OIDC token for AUD (default URL).
        Credentials follow the wall clock, the scenario follows the simulator's.

        The control routes take no credentials and the simulator signs push tokens a gateway
        trusts, so HOST must be a loopback address (127.0.0.1, ::1, localhost) unless
        --allow-remote is given.
        """

    static let defaultKeyPath = "googleplay-service-account.json"

    static func run(_ words: ArraySlice<String>, _ console: Console) throws(CLIError) {
        let arguments = try Arguments.parse(words, options: ["listen", "package", "key-file", "push", "audience"],
                                            flags: ["allow-remote"])
        if arguments.wantsHelp { return console.out(help) }
        try arguments.expectPositionals(0, "")
        let listen: ListenAddress
        do { listen = try ListenAddress(parsing: try arguments.required("listen")) } catch let error as ListenAddress.Invalid {
            throw .usage("--listen: \(error.message)")
        } catch { throw .usage("\(error)") }
        guard listen.isLoopback || arguments.flags.contains("allow-remote") else {
            throw .usage("--listen: \(listen) is not a loopback address; the control routes take no credentials (--allow-remote to serve it anyway)")
        }
        let keyPath = try arguments.optional("key-file") ?? defaultKeyPath
        let push = try pushTarget(arguments)
        // The gateway signs assertions and checks push tokens on the wall clock, whatever the
        // scenario's clock says.
        guard let simulator = GooglePlaySimulator(packageName: try arguments.optional("package") ?? "com.example.magazine",
                                                  now: SystemClockNow.now(), credentialClock: { SystemClockNow.now() }) else {
            throw .failure("cannot generate the simulator's RSA keys")
        }
        let server = GooglePlaySimulatorServer(simulator: simulator, host: listen.host, port: Int(listen.port), pushTarget: push)
        var failure: CLIError?
        do {
            try server.runUntilSignalled { server in
                guard let json = simulator.serviceAccountKeyFile(tokenURL: server.tokenURL).json(),
                      FileManager.default.createFile(atPath: keyPath, contents: Data(json.utf8),
                                                     attributes: [.posixPermissions: 0o600]) else {
                    failure = .failure("cannot write \(keyPath)")
                    // `runUntilSignalled` returns only on a signal: raise one to end the serve loop.
                    raise(SIGTERM)
                    return
                }
                console.out("googleplay-simulator listening on \(server.baseURL.absoluteString)")
                console.out("ISSUE_GATEWAY_GOOGLE_PACKAGES=\(simulator.packageName)")
                console.out("ISSUE_GATEWAY_GOOGLE_SERVICE_ACCOUNT=\(keyPath)")
                console.out("ISSUE_GATEWAY_GOOGLE_API_URL=\(server.baseURL.absoluteString)")
                console.out("ISSUE_GATEWAY_GOOGLE_CERTS_URL=\(server.certsURL.absoluteString)")
                console.out("ISSUE_GATEWAY_GOOGLE_PUSH_EMAIL=\(simulator.pushEmail)")
                if let push { console.out("ISSUE_GATEWAY_GOOGLE_PUSH_AUDIENCE=\(push.audience)") }
            }
        } catch {
            throw .failure("cannot serve on \(listen.host):\(listen.port): \(error)")
        }
        if let failure { throw failure }
    }

    /// `--push URL [--audience AUD]`: an http(s) URL; the audience defaults to it, as Google's does.
    static func pushTarget(_ arguments: Arguments) throws(CLIError) -> PushTarget? {
        let audience = try arguments.optional("audience")
        guard let text = try arguments.optional("push") else {
            if audience != nil { throw .usage("--audience goes with --push") }
            return nil
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              url.host != nil else {
            throw .usage("--push: \(text) is not an http(s) URL")
        }
        return PushTarget(url: url, audience: audience)
    }
}

/// The wall clock the simulator starts from.
enum SystemClockNow {
    static func now() -> Instant { Instant(millisecondsSinceEpoch: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))) }
}
