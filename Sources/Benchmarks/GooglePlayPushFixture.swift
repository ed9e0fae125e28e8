// `issue-gateway-bench googleplay-simulator PORT COUNT AUDIENCE DIR`: Google Play's side of
// benchmarks/googleplay/run.sh. The `googleplay-simulator` executable keeps its purchases and its
// push-signing key to itself (it has no scenario route), so the benchmark serves the same
// simulator library on a real socket here, having bought COUNT monthly subscriptions in it, each
// bound to an account by `obfuscatedExternalAccountId` (E4), and writes what Pub/Sub would push:
// one line per purchase, "token<TAB>OIDC bearer<TAB>push envelope" (googleplay.md "Push auth",
// "Real-time developer notifications"), each with its own message id and its own signed token.
// It also writes the service account's key file, then `ready`, and serves until SIGTERM.
import Foundation
import GooglePlaySimulator
import Wire

/// The Play product bought (the sample catalog's `monthly.play.monthly`).
let googlePlayBenchmarkProduct = "monthly.monthly"

/// The `appAccountToken` of benchmark account `index` (benchmarks/googleplay/push.py makes the same).
func googlePlayBenchmarkAccountToken(_ index: Int) -> String {
    String(format: "00000000-0000-4000-8000-%012d", index)
}

func runGooglePlayPushFixture() {
    let args = Array(CommandLine.arguments.dropFirst(2))
    guard args.count == 4, let port = Int(args[0]), let count = Int(args[1]), count > 0 else {
        fail("usage: issue-gateway-bench googleplay-simulator PORT COUNT AUDIENCE DIR")
    }
    let audience = args[2], directory = URL(fileURLWithPath: args[3])
    let now = Instant(millisecondsSinceEpoch: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
    guard let simulator = GooglePlaySimulator(now: now) else { fail("cannot generate the simulator's RSA keys") }
    let server = GooglePlaySimulatorServer(simulator: simulator, host: "127.0.0.1", port: port)
    do {
        try server.runUntilSignalled { server in
            guard let key = simulator.serviceAccountKeyFile(tokenURL: server.tokenURL).json() else { fail("no key file") }
            var pushes = ""
            for index in 0..<count {
                let token = "bench-\(index)"
                let bought: SimulatedNotification
                do {
                    bought = try simulator.buy(token: token, productId: googlePlayBenchmarkProduct,
                                               account: googlePlayBenchmarkAccountToken(index))
                } catch { fail("buy \(token): \(error)") }
                let envelope = String(decoding: bought.pushBody(), as: UTF8.self)
                pushes += "\(token)\t\(simulator.pushToken(audience: audience))\t\(envelope)\n"
            }
            do {
                try Data(key.utf8).write(to: directory.appendingPathComponent("service-account.json"))
                try Data(pushes.utf8).write(to: directory.appendingPathComponent("pushes.txt"))
                try Data().write(to: directory.appendingPathComponent("ready"))
            } catch { fail("cannot write to \(directory.path): \(error)") }
            print("googleplay-simulator (benchmark) on \(server.baseURL.absoluteString): \(count) purchases, pushes in \(directory.path)")
        }
    } catch { fail("cannot serve on 127.0.0.1:\(port): \(error)") }
}

private func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("issue-gateway-bench googleplay-simulator: \(message)\n".utf8))
    exit(1)
}
