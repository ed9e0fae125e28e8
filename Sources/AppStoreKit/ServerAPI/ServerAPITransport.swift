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

/// The real transport, through `URLSessionExchange` (exact deadline, bounded body).
public struct URLSessionServerAPITransport: ServerAPITransport {
    public init() {}

    public func send(method: String, url: URL, headers: [String: String], body: Data?, timeout: TimeInterval,
                     maximumResponseBytes: Int) throws(TransportFailure) -> HTTPExchangeResult {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        return try URLSessionExchange.perform(request, timeout: timeout, maximumResponseBytes: maximumResponseBytes)
    }
}
