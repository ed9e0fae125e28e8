// `issue-gateway-bench tokens`: download tokens signed and verified (tokens.md steps 1–5) per
// second, single-threaded, with a one-key set and a typical three-asset issue.
import Foundation
import DownloadTokens
import Entitle
import GatewayCrypto
import IssueCatalog
import Wire

func runTokenBenchmark() {
    let iterations = 200_000
    let keys = try! TokenKeySet.generate(using: SystemRandom())
    let signer = try! TokenSigner(keys: keys, issuer: "issue-gateway", lifetimeSeconds: 300)
    let verifier = TokenVerifier(keys: keys)
    let now = Instant(secondsSinceEpoch: 1_800_000_000)
    let paths = ["/content/monthly/2012-02/issue.pdf", "/content/monthly/2012-02/cover.jpg",
                 "/content/monthly/2012-02/toc.json"]

    var tokens: [String] = []
    tokens.reserveCapacity(iterations)
    let signSeconds = measureSeconds {
        for i in 0..<iterations {
            tokens.append(try! signer.sign(subject: "acct-\(i)", publication: "monthly", issue: "2012-02",
                                           paths: paths, now: now, random: SystemRandom()).token)
        }
    }
    var allowed = 0
    let verifySeconds = measureSeconds {
        for token in tokens {
            if (try? verifier.authorize(token, requestTarget: paths[0], method: "GET", now: now)) != nil { allowed += 1 }
        }
    }
    precondition(allowed == iterations, "a freshly signed token failed to verify")
    print("tokens: \(tokens[0].utf8.count)-byte tokens, \(iterations) each")
    print(String(format: "  sign:   %.0f tokens/s (%.2f µs each)", Double(iterations) / signSeconds, signSeconds / Double(iterations) * 1e6))
    print(String(format: "  verify: %.0f tokens/s (%.2f µs each)", Double(iterations) / verifySeconds, verifySeconds / Double(iterations) * 1e6))
}

/// Wall-clock seconds `body` takes (the benchmarks share it).
func measureSeconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}
