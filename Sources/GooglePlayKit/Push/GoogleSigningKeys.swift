import Foundation
import GatewayCrypto
import OutboundHTTP
import Synchronization
import Wire

/// Google's OIDC signing keys, fetched from the configured URL and kept as long as the answer's
/// `Cache-Control: max-age` says (RFC 9111 §5.2.2.1). A `kid` not among the kept keys fetches
/// again, at most once per `minimumRefetchInterval` (Google rotates keys; a forged `kid` must not
/// make the gateway hammer the URL).
public final class GoogleSigningKeys: Sendable {
    private struct Kept: Sendable {
        var keys: JSONWebKeySet?
        var freshUntil: Instant = .distantPast
        var lastFetch: Instant = .distantPast
    }

    public static let defaultURL = URL(string: "https://www.googleapis.com/oauth2/v3/certs")!
    /// Without a usable `max-age` the keys are kept this long.
    public static let defaultLifetimeSeconds: Int64 = 300
    public static let minimumRefetchInterval: Int64 = 30
    static let requestTimeout: TimeInterval = 10

    private let url: URL
    private let transport: any HTTPTransport
    private let kept = Mutex(Kept())

    public init(url: URL = defaultURL, transport: any HTTPTransport = URLSessionExchange()) {
        self.url = url; self.transport = transport
    }

    /// The key named `kid`; fetches the set when the kept one is stale or lacks it.
    func key(_ kid: String, now: Instant) throws(PushTokenError) -> RSAPublicKey {
        let state = kept.withLock { $0 }
        if let keys = state.keys, now < state.freshUntil {
            if let key = keys.keys[kid] { return key }
            guard now.secondsSinceEpoch - state.lastFetch.secondsSinceEpoch >= Self.minimumRefetchInterval else { throw .unknownKey }
        }
        let fetched = try fetch(now: now)
        guard let key = fetched.keys[kid] else { throw .unknownKey }
        return key
    }

    private func fetch(now: Instant) throws(PushTokenError) -> JSONWebKeySet {
        let answer: HTTPExchangeResult
        do {
            answer = try transport.send(method: "GET", url: url, headers: [:], body: nil, timeout: Self.requestTimeout,
                                        maximumResponseBytes: JSONWebKeySet.maximumBytes)
        } catch {
            throw .keysUnavailable("\(error)")
        }
        guard answer.statusCode == 200 else { throw .keysUnavailable("HTTP \(answer.statusCode)") }
        let keys: JSONWebKeySet
        do { keys = try JSONWebKeySet.parse(answer.body) } catch { throw .keysUnavailable(error.description) }
        // Kept at least the refetch interval even under `no-cache`: pushes arriving together must
        // not each fetch the set again.
        let lifetime = max(Self.maxAge(answer.headers["cache-control"]) ?? Self.defaultLifetimeSeconds, Self.minimumRefetchInterval)
        kept.withLock { $0 = Kept(keys: keys, freshUntil: now.adding(seconds: lifetime), lastFetch: now) }
        return keys
    }

    /// `max-age=N` of a `Cache-Control` value; `no-store`/`no-cache` keep nothing.
    static func maxAge(_ value: String?) -> Int64? {
        guard let value else { return nil }
        for directive in value.lowercased().split(separator: ",") {
            let part = directive.trimmingCharacters(in: .whitespaces)
            if part == "no-store" || part == "no-cache" { return 0 }
            if part.hasPrefix("max-age="), let seconds = Int64(part.dropFirst("max-age=".count)), seconds >= 0 { return seconds }
        }
        return nil
    }
}
