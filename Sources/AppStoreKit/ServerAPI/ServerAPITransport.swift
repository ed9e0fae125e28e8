import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one Server API request and waits for the answer. Blocking by contract: the client runs
/// on a worker thread, never on an event loop. Tests put a scripted App Store behind it.
public protocol ServerAPITransport: Sendable {
    func send(method: String, url: URL, headers: [String: String], body: Data?, timeout: TimeInterval,
              maximumResponseBytes: Int) throws(TransportFailure) -> HTTPExchangeResult
}

/// The real transport, through its own kept `URLSessionExchange` (exact deadline, bounded body,
/// connections reused): one per client, so one per outside service.
public struct URLSessionServerAPITransport: ServerAPITransport {
    private let exchange: URLSessionExchange

    public init(exchange: URLSessionExchange = URLSessionExchange()) { self.exchange = exchange }

    public func send(method: String, url: URL, headers: [String: String], body: Data?, timeout: TimeInterval,
                     maximumResponseBytes: Int) throws(TransportFailure) -> HTTPExchangeResult {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        return try exchange.perform(request, timeout: timeout, maximumResponseBytes: maximumResponseBytes)
    }
}
