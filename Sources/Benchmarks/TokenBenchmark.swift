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
    let workload = DownloadTokenWorkload()
    var tokens: [String] = []
    let signSeconds = measureSeconds { tokens = workload.sign(iterations) }
    var allowed = 0
    let verifySeconds = measureSeconds { allowed = workload.verify(tokens) }
    precondition(allowed == iterations, "a freshly signed token failed to verify")
    print("tokens: \(tokens[0].utf8.count)-byte tokens, \(iterations) each")
    print(String(format: "  sign:   %.0f tokens/s (%.2f µs each)", Double(iterations) / signSeconds, signSeconds / Double(iterations) * 1e6))
    print(String(format: "  verify: %.0f tokens/s (%.2f µs each)", Double(iterations) / verifySeconds, verifySeconds / Double(iterations) * 1e6))
}

/// Download tokens for a typical three-asset issue, signed and verified with a one-key set: the
/// `tokens` benchmark, and the peer other benchmarks measure in the same run.
struct DownloadTokenWorkload {
    static let paths = ["/content/monthly/2012-02/issue.pdf", "/content/monthly/2012-02/cover.jpg",
                        "/content/monthly/2012-02/toc.json"]
    let now = Instant(secondsSinceEpoch: 1_800_000_000)
    let signer: TokenSigner
    let verifier: TokenVerifier

    init() {
        let keys = try! TokenKeySet.generate(using: SystemRandom())
        signer = try! TokenSigner(keys: keys, issuer: "issue-gateway", lifetimeSeconds: 300)
        verifier = TokenVerifier(keys: keys)
    }

    /// `count` tokens, one per account.
    func sign(_ count: Int) -> [String] {
        var tokens: [String] = []
        tokens.reserveCapacity(count)
        for i in 0..<count {
            tokens.append(try! signer.sign(subject: "acct-\(i)", publication: "monthly", issue: "2012-02",
                                           paths: Self.paths, now: now, random: SystemRandom()).token)
        }
        return tokens
    }

    /// How many of `tokens` authorize a GET of the issue's first asset.
    func verify(_ tokens: [String]) -> Int {
        var allowed = 0
        for token in tokens where (try? verifier.authorize(token, requestTarget: Self.paths[0], method: "GET", now: now)) != nil {
            allowed += 1
        }
        return allowed
    }
}

/// Wall-clock seconds `body` takes (the benchmarks share it).
func measureSeconds(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}
