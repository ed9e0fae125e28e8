import Foundation
import OutboundHTTP
import Synchronization
import Wire

/// A provider's JWKS fetched from its URL and kept as long as the answer's `Cache-Control`
/// allows (RFC 9111 §5.2.2.1). A `kid` not among the kept keys fetches the set again, at most once
/// per `minimumRefetchSeconds` (providers rotate keys; a forged `kid` must not make the gateway
/// hammer the URL). When a fetch fails, a kept key for the `kid`, even stale, is still used.
public final class KeptKeySet: Sendable {
    public enum Failure: Error, Equatable, Sendable {
        /// No key of the set has this `kid`.
        case unknownKey
        /// The set could not be fetched and no kept key has this `kid`.
        case unavailable(String)
    }

    private struct Kept: Sendable {
        var keys: JSONWebKeySet?
        var freshUntil: Instant = .distantPast
        /// The last fetch begun, whatever its outcome: fetches are at most once per interval.
        var lastAttempt: Instant?
        /// Why the last fetch failed; nil once one succeeded.
        var lastFailure: String?
    }

    private enum Step {
        case use(JSONWebKey)
        case refuse(Failure)
        case fetch(kept: JSONWebKey?)
    }

    /// Without a usable `max-age` the keys are kept this long.
    public static let defaultLifetimeSeconds: Int64 = 300
    /// readers.md E31 step 1: an unknown `kid` fetches again at most once per 30 s.
    public static let minimumRefetchSeconds: Int64 = 30
    static let requestTimeout: TimeInterval = 10

    public let url: URL
    private let transport: any HTTPTransport
    private let kept = Mutex(Kept())

    public init(url: URL, transport: any HTTPTransport = URLSessionExchange()) {
        self.url = url; self.transport = transport
    }

    /// The key named `kid` at `now`; fetches the set when the kept one is stale or lacks it and
    /// no fetch began in the last `minimumRefetchSeconds`.
    public func key(_ kid: String, now: Instant) throws(Failure) -> JSONWebKey {
        let step = kept.withLock { state -> Step in
            let keptKey = state.keys?.keys[kid]
            if let keptKey, now < state.freshUntil { return .use(keptKey) }
            if let last = state.lastAttempt, now < last.adding(seconds: Self.minimumRefetchSeconds) {
                if let keptKey { return .use(keptKey) }
                return .refuse(state.lastFailure.map { .unavailable($0) } ?? .unknownKey)
            }
            state.lastAttempt = now
            return .fetch(kept: keptKey)
        }
        switch step {
        case .use(let key): return key
        case .refuse(let failure): throw failure
        case .fetch(let keptKey):
            let fetched: JSONWebKeySet
            do { fetched = try fetch(now: now) } catch {
                if let keptKey { return keptKey }
                throw error
            }
            guard let key = fetched.keys[kid] else { throw .unknownKey }
            return key
        }
    }

    private func fetch(now: Instant) throws(Failure) -> JSONWebKeySet {
        let answer: HTTPExchangeResult
        do {
            answer = try transport.send(method: "GET", url: url, headers: [:], body: nil, timeout: Self.requestTimeout,
                                        maximumResponseBytes: JSONWebKeySet.maximumBytes)
        } catch {
            throw failed("\(error)")
        }
        guard answer.statusCode == 200 else { throw failed("HTTP \(answer.statusCode)") }
        let keys: JSONWebKeySet
        do { keys = try JSONWebKeySet.parse(answer.body) } catch { throw failed(error.description) }
        // Kept at least the refetch interval even under `no-cache`: tokens arriving together must
        // not each fetch the set again.
        let lifetime = max(CacheControl.maxAge(answer.headers["cache-control"]) ?? Self.defaultLifetimeSeconds,
                           Self.minimumRefetchSeconds)
        kept.withLock { $0 = Kept(keys: keys, freshUntil: now.adding(seconds: lifetime), lastAttempt: now, lastFailure: nil) }
        return keys
    }

    /// Remembers why a fetch failed (the kept keys stay) and says so.
    private func failed(_ why: String) -> Failure {
        kept.withLock { $0.lastFailure = why }
        return .unavailable(why)
    }
}
