import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real verifyReceipt transport: a JSON POST through its own kept `URLSessionExchange`. The
/// gateway's webhooks post through another one, with their signature header.
public struct URLSessionVerifyReceiptTransport: VerifyReceiptTransport {
    private let exchange: URLSessionExchange

    public init(exchange: URLSessionExchange = URLSessionExchange()) { self.exchange = exchange }

    public func post(_ body: Data, to url: URL, timeout: TimeInterval,
                     maximumResponseBytes: Int) throws(TransportFailure) -> HTTPExchangeResult {
        try post(body, to: url, headers: [], timeout: timeout, maximumResponseBytes: maximumResponseBytes)
    }

    /// A JSON POST with extra header fields.
    public func post(_ body: Data, to url: URL, headers: [(String, String)], timeout: TimeInterval,
                     maximumResponseBytes: Int) throws(TransportFailure) -> HTTPExchangeResult {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        return try exchange.perform(request, timeout: timeout, maximumResponseBytes: maximumResponseBytes)
    }
}
