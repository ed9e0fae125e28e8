import Entitle
import Foundation
import OutboundHTTP

/// What one verifyReceipt request leads to: the client's loop is a state machine over these.
public enum VerifyReceiptStep: Sendable, Equatable {
    case outcome(VerifyReceiptOutcome)
    case redirect(VerifyReceiptEndpoint)
    case retry(VerifyReceiptUnavailableReason)

    /// HTTP 200 with a JSON `status` is Apple's only real answer. Gateways and proxies in front
    /// of it produce 408/429/5xx (worth a retry) and anything else (not).
    static let retryableHTTPStatuses: Set<Int> = [408, 429]

    init(answer: HTTPExchangeResult, endpoint: VerifyReceiptEndpoint) {
        guard answer.statusCode == 200 else {
            let retryable = Self.retryableHTTPStatuses.contains(answer.statusCode) || (500...599).contains(answer.statusCode)
            self = retryable ? .retry(.httpStatus(answer.statusCode)) : .outcome(.unavailable(reason: .httpStatus(answer.statusCode)))
            return
        }
        guard let response = try? AppStoreParsers.verifyReceiptStatus(answer.body) else {
            self = .retry(.malformedResponse("no integer status in a JSON object"))
            return
        }
        switch VerifyReceiptStatus(status: response.status, isRetryable: response.isRetryable) {
        case .valid: self = .outcome(.valid(body: answer.body, environment: response.environment ?? endpoint.environment))
        case .rejected: self = .outcome(.rejected(status: response.status))
        case .misconfigured: self = .outcome(.misconfigured(status: response.status))
        case .retryable: self = .retry(.retryableStatus(response.status))
        case .redirect(let target): self = .redirect(target)
        }
    }
}

/// One request, reported to the client's observer (metrics, logs).
public struct VerifyReceiptAttempt: Sendable, Equatable {
    public let endpoint: VerifyReceiptEndpoint
    public let result: VerifyReceiptStep
}
