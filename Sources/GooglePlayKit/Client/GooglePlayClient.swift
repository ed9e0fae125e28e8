import Foundation
import OutboundHTTP
import Wire

/// One request to Google, reported to the client's observer (metrics).
public struct GooglePlayAttempt: Sendable, Equatable {
    public let endpoint: String
    public let step: GooglePlayStep
}

/// Calls the Google Play Developer API and the Orders API (googleplay.md "Calling Google") with the
/// service account's cached access token; 429, 5xx and network failures retried with backoff
/// within one deadline per call. Blocking: it runs on the Google Play worker pool (its own
/// bulkhead), never on an event loop. Typed endpoints: `GooglePlayClient+Endpoints`.
public final class GooglePlayClient: Sendable {
    public let configuration: GooglePlayConfiguration
    public let clientEmail: String
    private let tokens: AccessTokens
    private let transport: any HTTPTransport
    private let clock: @Sendable () -> Instant
    private let pause: @Sendable (TimeInterval) -> Void
    private let observe: @Sendable (GooglePlayAttempt) -> Void

    /// `clock` dates assertions and keeps the deadline; `pause` waits between retries (tests record
    /// instead of sleeping); `observe` sees every request.
    public init(configuration: GooglePlayConfiguration, key: ServiceAccountKey,
                transport: any HTTPTransport = URLSessionExchange(),
                clock: @escaping @Sendable () -> Instant = SystemTime.now,
                pause: @escaping @Sendable (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) },
                observe: @escaping @Sendable (GooglePlayAttempt) -> Void = { _ in }) {
        self.configuration = configuration
        self.clientEmail = key.clientEmail
        self.tokens = AccessTokens(key: key, refreshMargin: configuration.tokenRefreshMargin)
        self.transport = transport
        self.clock = clock
        self.pause = pause
        self.observe = observe
    }

    /// Sends `request` for `packageName` and returns the body of Google's 2xx answer.
    public func send(_ request: GooglePlayRequest, packageName: String) throws(GooglePlayError) -> Data {
        guard let url = request.url(base: configuration.apiBaseURL, packageName: packageName) else {
            throw .malformedResponse("no URL for \(request.name)")
        }
        let deadline = CallDeadline(seconds: configuration.deadline, from: clock())
        var failedAttempts = 0
        var refreshed = false
        while true {
            let step = exchange(request, url: url, deadline: deadline)
            observe(GooglePlayAttempt(endpoint: request.name, step: step))
            switch step {
            case .success(let body):
                return body
            case .failure(let error):
                throw error
            case .refreshToken:
                tokens.forget()
                guard !refreshed else { throw .unauthorized("HTTP 401 with a fresh access token") }
                refreshed = true
            case .retry(let reason, let retryAfter):
                failedAttempts += 1
                let now = clock()
                let asked = RetryAfterField.seconds(retryAfter, now: now)
                guard let wait = configuration.retry.pause(afterFailures: failedAttempts, serviceWait: asked,
                                                           remaining: deadline.remaining(at: now)) else {
                    throw .unavailable(reason, retryAfterSeconds: asked)
                }
                pause(wait)
            }
        }
    }

    /// One request (after an access token, fetched when none is kept) and what it means.
    private func exchange(_ request: GooglePlayRequest, url: URL, deadline: CallDeadline) -> GooglePlayStep {
        let now = clock()
        let remaining = deadline.remaining(at: now)
        guard remaining > 0 else { return .failure(.unavailable("the deadline passed")) }
        let timeout = min(configuration.requestTimeout, remaining)
        let token: String
        if let kept = tokens.current(at: now) {
            token = kept
        } else {
            switch tokens.fetch(at: now, transport: transport, timeout: timeout) {
            case .success(let fresh): token = fresh
            case .failure(.retryable(let reason, let retryAfter)): return .retry(reason, retryAfter: retryAfter)
            case .failure(.final(let error)): return .failure(error)
            }
        }
        var headers = ["Authorization": "Bearer " + token]
        if request.body != nil { headers["Content-Type"] = "application/json" }
        do {
            let answer = try transport.send(method: request.method, url: url, headers: headers, body: request.body,
                                            timeout: timeout, maximumResponseBytes: configuration.maximumResponseBytes)
            return GooglePlayStep(answer: answer)
        } catch {
            switch error {
            case .timedOut: return .retry("timed out")
            case .connection(let reason): return .retry(reason)
            case .responseTooLarge(let limit): return .failure(.malformedResponse("more than \(limit) bytes"))
            }
        }
    }
}
