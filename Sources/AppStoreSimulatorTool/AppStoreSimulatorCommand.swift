import AppStoreKit
import AppStoreSimulator
import CommandLineSupport
import Foundation
import HTTPServer
import IssueCatalog
import OutboundHTTP

/// `appstore-simulator`: plays the App Store for a gateway, or asks a
/// running simulator to post a notification to a gateway. Format and routes:
/// docs/appstore-simulator.md.
enum AppStoreSimulatorCommand {
    static let help = """
        usage: appstore-simulator --listen HOST:PORT --script FILE [--root-cert PATH]
               appstore-simulator --simulator URL --notify GATEWAY_URL --receipt RECEIPT
                                    [--version 1|2] [--type TYPE] [--subtype SUBTYPE]
                                    [--transaction-id ID] [--uuid UUID] [--password SECRET]

        The first form serves verifyReceipt for the receipts of the JSON script FILE at
        http://HOST:PORT/verifyReceipt (production) and /sandbox/verifyReceipt (sandbox): 21007 and
        21008 for the wrong environment, 21003 for an unknown receipt, 21004 for a wrong shared
        secret, 21005 (is-retryable) for a receipt's `unavailableTimes`. It generates a test CA,
        writes its root as PEM to PATH (default appstore-simulator-root.pem) for
        ISSUE_GATEWAY_APPLE_ROOT_CERTS, and signs V2 payloads with it. Scripted changes (renewals,
        refunds, outages) are POSTed to /simulator/… while it runs. It stops on SIGTERM or SIGINT.

        The second form asks the simulator at URL to build a V1 or V2 (default) notification of
        TYPE (default DID_RENEW) about RECEIPT, sign it, and POST it to GATEWAY_URL (the gateway's
        /v1/appstore/notifications); it prints what the gateway answered and exits 0 on a 2xx.
        """

    static let defaultRootCertificatePath = "appstore-simulator-root.pem"
    /// The test CA is valid from a day before it was made (clock skew) for ten years.
    static let certificateBackdating: Int64 = 86_400

    static func run(_ words: ArraySlice<String>, _ console: Console) throws(CLIError) {
        let arguments = try Arguments.parse(words, options: ["listen", "script", "root-cert", "simulator", "notify", "receipt",
                                                             "version", "type", "subtype", "transaction-id", "uuid", "password"])
        if arguments.wantsHelp { return console.out(help) }
        try arguments.expectPositionals(0, "")
        if try arguments.optional("notify") != nil {
            try notify(arguments, console)
        } else {
            try serve(arguments, console)
        }
    }

    private static func serve(_ arguments: Arguments, _ console: Console) throws(CLIError) {
        let listen: ListenAddress
        do { listen = try ListenAddress(parsing: try arguments.required("listen")) } catch let error as ListenAddress.Invalid {
            throw .usage("--listen: \(error.message)")
        } catch { throw .usage("\(error)") }
        let scriptPath = try arguments.required("script")
        let rootPath = try arguments.optional("root-cert") ?? defaultRootCertificatePath
        guard let data = FileManager.default.contents(atPath: scriptPath) else { throw .failure("cannot read \(scriptPath)") }
        let script: SimulatorScript
        do { script = try SimulatorScript.parse(data) } catch { throw .failure("\(scriptPath): \(error)") }
        let authority: TestCertificateAuthority
        do {
            authority = try TestCertificateAuthority(options: .init(issuedAt: SystemTime.now().adding(seconds: -certificateBackdating)))
        } catch { throw .failure("cannot make the test CA: \(error)") }
        do { try Data(authority.root.pem.utf8).write(to: URL(fileURLWithPath: rootPath)) } catch {
            throw .failure("cannot write \(rootPath): \(error.localizedDescription)")
        }
        let server = AppStoreSimulatorServer(simulator: AppStoreSimulator(script: script, authority: authority),
                                             host: listen.host, port: Int(listen.port))
        do {
            try server.runUntilSignalled { server in
                console.err("""
                    appstore-simulator: \(script.receipts.count) scripted receipts for \(script.bundleId), serving on \(server.baseURL)
                    ISSUE_GATEWAY_APPSTORE_PRODUCTION_URL=\(server.productionURL)
                    ISSUE_GATEWAY_APPSTORE_SANDBOX_URL=\(server.sandboxURL)
                    ISSUE_GATEWAY_APPLE_ROOT_CERTS=\(URL(fileURLWithPath: rootPath).path)
                    ISSUE_GATEWAY_BUNDLE_ID=\(script.bundleId)
                    ISSUE_GATEWAY_APP_APPLE_ID=\(script.appAppleId)
                    ISSUE_GATEWAY_APPSTORE_API_PRODUCTION_URL=\(server.serverAPIProductionURL)
                    ISSUE_GATEWAY_APPSTORE_API_SANDBOX_URL=\(server.serverAPISandboxURL)
                    """)
            }
        } catch {
            throw .failure("cannot serve on \(listen): \(error)")
        }
        console.err("appstore-simulator: stopped")
    }

    private static func notify(_ arguments: Arguments, _ console: Console) throws(CLIError) {
        guard let simulator = URL(string: try arguments.required("simulator")), simulator.host != nil else {
            throw .usage("--simulator must be the simulator's http:// URL")
        }
        guard let gateway = URL(string: try arguments.required("notify")), gateway.host != nil else {
            throw .usage("--notify must be the gateway's notifications URL")
        }
        let versionText = try arguments.optional("version") ?? "2"
        guard let version = Int(versionText), version == 1 || version == 2 else { throw .usage("--version must be 1 or 2") }
        let request = SimulatorControl.Notify(gateway: gateway, receipt: try arguments.required("receipt"), version: version,
                                              type: try arguments.optional("type") ?? "DID_RENEW",
                                              subtype: try arguments.optional("subtype"),
                                              transactionId: try arguments.optional("transaction-id"),
                                              notificationUUID: try arguments.optional("uuid"),
                                              password: try arguments.optional("password"))
        let answer: NotificationPoster.Answer
        do { answer = try NotificationPoster.post(request.body, to: simulator.appendingPathComponent("simulator/notifications")) } catch {
            throw .failure("the simulator at \(simulator) could not be reached: \(error)")
        }
        let text = String(decoding: answer.body, as: UTF8.self)
        guard answer.status == 200,
              let result = (try? JSONSerialization.jsonObject(with: answer.body)) as? [String: Any],
              let gatewayStatus = result["gatewayStatus"] as? Int else {
            throw .failure("the simulator answered \(answer.status): \(text)")
        }
        console.out("gateway answered \(gatewayStatus): \(result["gatewayBody"] as? String ?? "")")
        if let uuid = result["notificationUUID"] as? String { console.out("notificationUUID \(uuid)") }
        guard (200..<300).contains(gatewayStatus) else { throw .failure("the gateway refused the notification") }
    }
}
