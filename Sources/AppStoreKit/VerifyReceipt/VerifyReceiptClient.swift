import Entitle
import Foundation
import OutboundHTTP

/// Calls Apple's verifyReceipt (appstore.md "verifyReceipt"): production first, 21007 →
/// sandbox, 21008 → production, bounded retries with exponential backoff, the outcome table as
/// `VerifyReceiptOutcome`. Blocking: call it from a worker thread, never from an event loop.
public final class VerifyReceiptClient: Sendable {
    public let configuration: VerifyReceiptConfiguration
    private let transport: any HTTPTransport
    private let pause: @Sendable (TimeInterval) -> Void
    private let log: @Sendable (String) -> Void
    private let observe: @Sendable (VerifyReceiptAttempt) -> Void

    /// `pause` waits between retries (tests record instead of sleeping); `log` receives the loud
    /// 21004 message; `observe` sees every request, for the App Store counters in `/metrics`.
    public init(configuration: VerifyReceiptConfiguration,
                transport: any HTTPTransport = URLSessionExchange(),
                pause: @escaping @Sendable (TimeInterval) -> Void = { Thread.sleep(forTimeInterval: $0) },
                log: @escaping @Sendable (String) -> Void = OutboundLog.standardError,
                observe: @escaping @Sendable (VerifyReceiptAttempt) -> Void = { _ in }) {
        self.configuration = configuration
        self.transport = transport
        self.pause = pause
        self.log = log
        self.observe = observe
    }

    /// Verifies `receiptData` (the app's base64 receipt, passed through as given).
    public func verify(receiptData: String) -> VerifyReceiptOutcome {
        let request = requestBody(receiptData: receiptData)
        var endpoint = VerifyReceiptEndpoint.production
        var failedAttempts = 0
        var redirects = 0
        while true {
            let step = exchange(request, endpoint: endpoint)
            observe(VerifyReceiptAttempt(endpoint: endpoint, result: step))
            switch step {
            case .outcome(let outcome):
                if case .misconfigured(let status) = outcome {
                    log("App Store verifyReceipt answered \(status): the shared secret (\(VerifyReceiptConfiguration.sharedSecretVariable)) does not match the app's. Every receipt will fail until it is fixed.")
                }
                return outcome
            case .redirect(let target):
                redirects += 1
                guard redirects <= configuration.maximumEnvironmentRedirects else { return .unavailable(reason: .environmentLoop) }
                endpoint = target
            case .retry(let reason):
                failedAttempts += 1
                guard configuration.retry.allowsRetry(after: failedAttempts) else { return .unavailable(reason: reason) }
                pause(configuration.retry.backoff(beforeRetry: failedAttempts))
            }
        }
    }

    private func requestBody(receiptData: String) -> Data {
        var fields: [String: Any] = ["receipt-data": receiptData, "exclude-old-transactions": false]
        if let secret = configuration.sharedSecret { fields["password"] = secret }
        // Strings and a boolean always serialise.
        return (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data()
    }

    /// One request and what it means for the loop.
    private func exchange(_ body: Data, endpoint: VerifyReceiptEndpoint) -> VerifyReceiptStep {
        let answer: HTTPExchangeResult
        do {
            answer = try transport.postJSON(body, to: configuration.url(for: endpoint), timeout: configuration.requestTimeout,
                                            maximumResponseBytes: configuration.maximumResponseBytes)
        } catch {
            switch error {
            case .timedOut: return .retry(.timedOut)
            case .connection(let reason): return .retry(.transport(reason))
            case .responseTooLarge(let limit): return .outcome(.unavailable(reason: .responseTooLarge(limit: limit)))
            }
        }
        return VerifyReceiptStep(answer: answer, endpoint: endpoint)
    }
}
