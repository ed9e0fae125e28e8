import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real verifyReceipt transport: a JSON POST through `URLSessionExchange`.
public struct URLSessionVerifyReceiptTransport: VerifyReceiptTransport {
    public init() {}

    public func post(_ body: Data, to url: URL, timeout: TimeInterval,
                     maximumResponseBytes: Int) throws(TransportFailure) -> HTTPExchangeResult {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        return try URLSessionExchange.perform(request, timeout: timeout, maximumResponseBytes: maximumResponseBytes)
    }
}
