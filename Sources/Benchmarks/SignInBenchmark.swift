// `issue-gateway-bench signin`: ID tokens verified per second, single-threaded, through the
// gateway's own verifier (`OpenIDProviders`: the kept key set, its keys already fetched, then
// OpenID Connect Core §3.1.3.7's signature and claims checks with the sign-in's nonce), for a
// provider signing RS256 and one signing ES256; download-token verification measured in the same
// rounds as the peer, so that the ratio means something on a busy machine.
import Foundation
import GatewayCrypto
import OpenIDConnect
import OutboundHTTP
import Synchronization
import Wire

func runSignInBenchmark() {
    let rounds = 3
    // Each round alternates slices of the three, so that a change in the machine's load between
    // them hits all three alike; a round's rate is over its summed time.
    let slices = 10
    let perSlice = (rs256: 2_000, es256: 1_000, download: 10_000)
    let now = Instant(secondsSinceEpoch: 1_800_000_000)

    let rsa = RSAPrivateKey(generatingBits: 2048)!
    let ec = generatedP256Key()
    let published = PublishedKeySets()
    let rsaProvider = IdentityProvider(id: "rsa-provider", issuers: [SignInTokens.issuer], jwksURL: URL(string: "https://rsa.example/keys")!,
                                       clientIds: [SignInTokens.clientId], algorithms: ["RS256"])
    let ecProvider = IdentityProvider(id: "ec-provider", issuers: [SignInTokens.issuer], jwksURL: URL(string: "https://ec.example/keys")!,
                                      clientIds: [SignInTokens.clientId], algorithms: ["ES256"])
    let rsaJWK = rsa.publicComponents!
    published.publish(rsaProvider.jwksURL, kid: "rsa-1") { w in
        w.field("kty", "RSA"); w.field("alg", "RS256"); w.field("n", Base64URL.encode(rsaJWK.modulus)); w.field("e", Base64URL.encode(rsaJWK.exponent))
    }
    published.publish(ecProvider.jwksURL, kid: "ec-1") { w in
        w.field("kty", "EC"); w.field("crv", "P-256"); w.field("alg", "ES256"); w.field("x", Base64URL.encode(ec.x)); w.field("y", Base64URL.encode(ec.y))
    }
    let providers = OpenIDProviders([rsaProvider, ecProvider], transport: published)

    // A pool of distinct tokens (each its own subject and nonce), cycled: minting every one would
    // take longer than verifying them.
    let pool = 256
    let rsaTokens = (0..<pool).map { i in
        SignInTokens.token(subject: i, now: now, kid: "rsa-1", alg: "RS256") { CompactJWS.serialize(header: $0, payload: $1) { rsa.signRS256($0) } }
    }
    let ecTokens = (0..<pool).map { i in
        SignInTokens.token(subject: i, now: now, kid: "ec-1", alg: "ES256") { ec.key.compactES256(header: $0, payload: $1) }
    }
    // The first token of each provider fetches its key set; every later one uses the kept keys.
    precondition(verified(rsaTokens, count: 1, provider: rsaProvider.id, providers, now) == 1, "an RS256 sign-in token failed")
    precondition(verified(ecTokens, count: 1, provider: ecProvider.id, providers, now) == 1, "an ES256 sign-in token failed")

    let downloads = DownloadTokenWorkload()
    let downloadTokens = downloads.sign(perSlice.download)

    print("signin: ID tokens of \(rsaTokens[0].token.utf8.count) B (RS256, RSA 2048) and \(ecTokens[0].token.utf8.count) B (ES256, P-256), "
          + "\(pool) distinct of each cycled; verified by OpenIDProviders with the sign-in checks and nonce")
    print("  peer: download tokens of \(downloadTokens[0].utf8.count) B verified (tokens.md steps 1–5)")
    print("  per round: \(slices) alternating slices of \(perSlice.download) download tokens, \(perSlice.rs256) RS256, \(perSlice.es256) ES256")
    var rates: [(rs256: Double, es256: Double, download: Double)] = []
    for round in 1...rounds {
        var seconds = (rs256: 0.0, es256: 0.0, download: 0.0)
        for _ in 0..<slices {
            var passed = 0
            seconds.download += measureSeconds { passed = downloads.verify(downloadTokens) }
            precondition(passed == perSlice.download, "a download token failed to verify")
            seconds.rs256 += measureSeconds { passed = verified(rsaTokens, count: perSlice.rs256, provider: rsaProvider.id, providers, now) }
            precondition(passed == perSlice.rs256, "an RS256 sign-in token failed to verify")
            seconds.es256 += measureSeconds { passed = verified(ecTokens, count: perSlice.es256, provider: ecProvider.id, providers, now) }
            precondition(passed == perSlice.es256, "an ES256 sign-in token failed to verify")
        }
        let rate = (rs256: Double(slices * perSlice.rs256) / seconds.rs256, es256: Double(slices * perSlice.es256) / seconds.es256,
                    download: Double(slices * perSlice.download) / seconds.download)
        rates.append(rate)
        print(String(format: "  round %d: RS256 %.0f/s (%.1f µs), ES256 %.0f/s (%.1f µs), download tokens %.0f/s (%.2f µs); "
                     + "RS256 %.1f%%, ES256 %.1f%% of download tokens",
                     round, rate.rs256, 1e6 / rate.rs256, rate.es256, 1e6 / rate.es256, rate.download, 1e6 / rate.download,
                     100 * rate.rs256 / rate.download, 100 * rate.es256 / rate.download))
    }
    precondition(published.fetches == 2, "the key sets were fetched \(published.fetches) times, not once each")
    let median = { (values: [Double]) in values.sorted()[values.count / 2] }
    let rs = median(rates.map(\.rs256)), es = median(rates.map(\.es256)), download = median(rates.map(\.download))
    print(String(format: "  median: RS256 %.0f/s, ES256 %.0f/s, download tokens %.0f/s; RS256 %.1f%%, ES256 %.1f%% of download tokens",
                 rs, es, download, 100 * median(rates.map { $0.rs256 / $0.download }), 100 * median(rates.map { $0.es256 / $0.download })))
    print("  key set fetches: \(published.fetches) (one per provider, before the rounds)")

    let wholeCount = 2_000
    let wholeRS = measureWholeSignIns(providers: providers, provider: rsaProvider.id, count: wholeCount, kid: "rsa-1", alg: "RS256") {
        CompactJWS.serialize(header: $0, payload: $1) { rsa.signRS256($0) }
    }
    let wholeES = measureWholeSignIns(providers: providers, provider: ecProvider.id, count: wholeCount, kid: "ec-1", alg: "ES256") {
        ec.key.compactES256(header: $0, payload: $1)
    }
    print("  whole sign-ins, SQLite in a temporary folder, \(wholeCount) new readers each (nonce issued, then SignIn.withIDToken):")
    for (name, rate) in [("RS256", wholeRS), ("ES256", wholeES)] {
        print("    \(name): " + String(format: "nonces %.0f/s, sign-ins %.0f/s; both steps %.0f readers/s",
                                          rate.nonces, rate.signIns, 1 / (1 / rate.nonces + 1 / rate.signIns)))
    }
}

/// How many of `count` tokens, cycled from `tokens`, `providers` take as sign-ins (each with its nonce).
private func verified(_ tokens: [(token: String, nonce: String)], count: Int, provider: String, _ providers: OpenIDProviders,
                      _ now: Instant) -> Int {
    var passed = 0
    for i in 0..<count {
        let (token, nonce) = tokens[i % tokens.count]
        if (try? providers.verify(token, provider: provider, checks: .signIn, nonce: nonce, now: now)) != nil { passed += 1 }
    }
    return passed
}

/// Sign-in ID tokens as a provider issues them (OpenID Connect Core §2): what the test fixture's
/// good token carries.
enum SignInTokens {
    static let issuer = "https://id.example"
    static let clientId = "com.example.reader"

    /// The token and the nonce it carries (`nonce` when given, else one made up for `subject`).
    static func token(subject: Int, nonce given: String? = nil, now: Instant, kid: String, alg: String,
                      sign: (_ header: [UInt8], _ payload: [UInt8]) -> String?) -> (token: String, nonce: String) {
        let nonce = given ?? "nonce-\(subject)-" + String(repeating: "n", count: 24)
        var header = JSONWriter()
        header.object { w in w.field("alg", alg); w.field("kid", kid); w.field("typ", "JWT") }
        var claims = JSONWriter()
        claims.object { w in
            w.field("iss", issuer); w.field("aud", clientId); w.field("sub", "reader-\(subject)")
            w.field("iat", Int(now.secondsSinceEpoch)); w.field("exp", Int(now.secondsSinceEpoch) + 600)
            w.field("email", "reader\(subject)@example.com"); w.field("email_verified", true); w.field("nonce", nonce)
        }
        return (sign(header.bytes, claims.bytes)!, nonce)
    }
}

/// A P-256 key made by the `openssl` command (GatewayCrypto reads EC keys but does not make
/// them), with its public point's coordinates for the JWK.
private func generatedP256Key() -> (key: SigningPrivateKey, x: [UInt8], y: [UInt8]) {
    let pem = openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"], input: Data())
    let spki = openssl(["pkey", "-pubout", "-outform", "DER"], input: pem)
    // The SubjectPublicKeyInfo ends with the uncompressed point 0x04 ‖ x ‖ y (SEC 1 §2.3.3).
    let point = Array(spki.suffix(65))
    precondition(point.first == 0x04, "not an uncompressed P-256 point")
    return (try! SigningPrivateKey(pem: String(decoding: pem, as: UTF8.self)), Array(point[1...32]), Array(point[33...64]))
}

private func openssl(_ arguments: [String], input: Data) -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["openssl"] + arguments
    let stdin = Pipe(), stdout = Pipe()
    process.standardInput = stdin; process.standardOutput = stdout
    try! process.run()
    stdin.fileHandleForWriting.write(input)
    try! stdin.fileHandleForWriting.close()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    precondition(process.terminationStatus == 0, "openssl \(arguments.joined(separator: " ")) failed")
    return output
}

/// Each provider's JWKS (RFC 7517 §5) answered from memory, every fetch counted.
private final class PublishedKeySets: HTTPTransport {
    private let sets = Mutex<[URL: Data]>([:])
    private let fetchCount = Mutex(0)

    var fetches: Int { fetchCount.withLock { $0 } }

    /// One signing key under `kid`, its type's members written by `members`.
    func publish(_ url: URL, kid: String, members: (inout JSONWriter) -> Void) {
        var w = JSONWriter()
        w.object { w in
            w.key("keys")
            w.array { w in w.object { w in w.field("kid", kid); w.field("use", "sig"); members(&w) } }
        }
        sets.withLock { $0[url] = Data(w.bytes) }
    }

    func send(method: String, url: URL, headers: [String: String], body: Data?, timeout: TimeInterval,
              maximumResponseBytes: Int) throws(TransportFailure) -> HTTPExchangeResult {
        fetchCount.withLock { $0 += 1 }
        guard let set = sets.withLock({ $0[url] }) else { return HTTPExchangeResult(statusCode: 404, body: Data()) }
        return HTTPExchangeResult(statusCode: 200, body: set, headers: ["cache-control": "public, max-age=86400"])
    }
}
