import Entitle
import Foundation
import IssueCatalog
import OutboundHTTP
import Wire

/// Calls the App Store Server API (appstore.md "App Store Server API"): a fresh ES256
/// token per request, production first and the sandbox on 4040010 (or on production's bare 401,
/// for an app never released), retryable answers retried with backoff and 429 honoured until its
/// `Retry-After`, all within one deadline per call. Blocking: worker threads only, never an event
/// loop. The typed endpoints (`ServerAPIClient+Endpoints`) verify every signed item (E2).
public final class ServerAPIClient: Sendable {
    public let configuration: ServerAPIConfiguration
    let credentials: ServerAPICredentials
    let verifier: SignedDataVerifier
    private let transport: any HTTPTransport
    private let clock: @Sendable () -> Instant
    private let pause: @Sendable (TimeInterval) -> Void
    private let observe: @Sendable (ServerAPIAttempt) -> Void

    /// `clock` dates tokens and keeps the deadline; `pause` waits between retries (tests record
    /// instead of sleeping); `observe` sees every request, for `/metrics`.
    public init(configuration: ServerAPIConfiguration, credentials: ServerAPICredentials, verifier: SignedDataVerifier,
                transport: any HTTPTransport = URLSessionExchange(),
                clock: @escaping @Sendable () -> Instant = SystemTime.now,
                pause: @escaping @Sendable (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) },
                observe: @escaping @Sendable (ServerAPIAttempt) -> Void = { _ in }) {
        self.configuration = configuration
        self.credentials = credentials
        self.verifier = verifier
        self.transport = transport
        self.clock = clock
        self.pause = pause
        self.observe = observe
    }

    /// Where a call starts: `nil` is production with the sandbox as fallback; an environment
    /// (a subscription already known to live there) is asked alone.
    public typealias EnvironmentChoice = StoreEnvironment?

    /// Sends `request` and returns the body of Apple's 2xx answer and the environment that gave it.
    public func send(_ request: ServerAPIRequest, in environment: EnvironmentChoice = nil)
        throws(ServerAPIFailure) -> (body: Data, environment: StoreEnvironment) {
        let deadline = CallDeadline(seconds: configuration.deadline, from: clock())
        var current = environment ?? .production
        var failedAttempts = 0
        while true {
            let step = exchange(request, in: current, deadline: deadline)
            observe(ServerAPIAttempt(endpoint: request.name, environment: current, step: step))
            switch step {
            case .success(let body):
                return (body, current)
            case .tryOtherEnvironment(let otherwise):
                guard environment == nil, current == .production else { throw otherwise }
                current = .sandbox
            case .failure(let error):
                throw error
            case .retry(let reason):
                failedAttempts += 1
                guard configuration.retry.allowsRetry(after: failedAttempts) else { throw .unavailable(reason) }
                let now = clock()
                var wait = configuration.retry.backoff(beforeRetry: failedAttempts)
                if case .rateLimited(let retryAfter?) = reason {
                    wait = max(wait, Double(retryAfter.millisecondsSinceEpoch - now.millisecondsSinceEpoch) / 1000)
                }
                guard wait < deadline.remaining(at: now) else { throw .unavailable(reason) }
                pause(wait)
            }
        }
    }

    /// One request and what it means for the loop.
    private func exchange(_ request: ServerAPIRequest, in environment: StoreEnvironment, deadline: CallDeadline) -> ServerAPIStep {
        let now = clock()
        let remaining = deadline.remaining(at: now)
        guard remaining > 0 else { return .failure(.unavailable(.timedOut)) }
        guard let token = ServerAPIToken.make(credentials, issuedAt: now) else { return .failure(.signing) }
        guard let url = request.url(base: configuration.baseURL(for: environment)) else {
            return .failure(.malformedResponse("no URL for \(request.path)"))
        }
        var headers = ["Authorization": "Bearer " + token]
        if request.body != nil { headers["Content-Type"] = "application/json" }
        do {
            let answer = try transport.send(method: request.method, url: url, headers: headers, body: request.body,
                                            timeout: min(configuration.requestTimeout, remaining),
                                            maximumResponseBytes: configuration.maximumResponseBytes)
            return ServerAPIStep(answer: answer, environment: environment)
        } catch {
            switch error {
            case .timedOut: return .retry(.timedOut)
            case .connection(let reason): return .retry(.transport(reason))
            case .responseTooLarge(let limit): return .failure(.responseTooLarge(limit: limit))
            }
        }
    }
}
