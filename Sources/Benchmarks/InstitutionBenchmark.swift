// `issue-gateway-bench institutions`: what E30's check costs a token request: the client address
// from a trusted proxy's X-Forwarded-For and the institution covering it among many, against
// signing the token itself, single-threaded.
import Foundation
import DownloadTokens
import GatewayCore
import GatewayCrypto
import GatewayStore
import Wire

func runInstitutionBenchmark() {
    let iterations = 200_000
    let count = 1000
    let start = Instant(secondsSinceEpoch: 1_700_000_000)
    // 1,000 institutions, each an IPv4 /24 and an IPv6 /48; the address asked for is the last one's.
    let institutions = (0..<count).map { i in
        Institution(institutionId: "inst-\(i)", name: "Library \(i)", publications: ["monthly"],
                    networks: ["10.\(i / 256).\(i % 256).0/24", "2001:db8:\(String(i, radix: 16))::/48"], start: start,
                    end: nil, createdAt: start.adding(seconds: Int64(i)))
    }
    let networks = CoveredNetworks(institutions)
    let resolver = ClientAddressResolver(trustedProxies: [try! NetworkRange(parsing: "192.168.0.0/16")])
    let forwardedFor = ["198.51.100.1, 10.3.231.77"]
    var found = 0
    let checkSeconds = measureSeconds {
        for _ in 0..<iterations {
            if let address = resolver.address(peer: "192.168.1.10", forwardedFor: forwardedFor),
               networks.covering(address) != nil { found += 1 }
        }
    }
    precondition(found == iterations, "the covered address was not found")

    let keys = try! TokenKeySet.generate(using: SystemRandom())
    let signer = try! TokenSigner(keys: keys, issuer: "issue-gateway", lifetimeSeconds: 300)
    let paths = ["/content/monthly/2012-02/issue.pdf", "/content/monthly/2012-02/cover.jpg", "/content/monthly/2012-02/toc.json"]
    let signSeconds = measureSeconds {
        for _ in 0..<iterations {
            _ = try! signer.sign(subject: "institution:inst-999", publication: "monthly", issue: "2012-02", paths: paths,
                                 now: start, random: SystemRandom())
        }
    }
    let check = checkSeconds / Double(iterations) * 1e6, sign = signSeconds / Double(iterations) * 1e6
    print("institutions: \(count) institutions, 2 ranges each, the covering one last; \(iterations) checks")
    print(String(format: "  check (X-Forwarded-For behind a trusted proxy + covering institution): %.2f µs", check))
    print(String(format: "  token signing alone: %.2f µs; the check is %.1f%% of signing alone", sign, check / sign * 100))
}
