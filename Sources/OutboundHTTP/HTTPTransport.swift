import Foundation

/// Sends one request to an outside service and waits for the answer, within `timeout`, reading
/// at most `maximumResponseBytes`. Blocking by contract: every client runs on a worker thread (its
/// service's pool, a deliverer's own thread), never on an event loop. The real one is
/// `URLSessionExchange`; tests put a scripted service behind it.
public protocol HTTPTransport: Sendable {
    func send(method: String, url: URL, headers: [String: String], body: Data?, timeout: TimeInterval,
              maximumResponseBytes: Int) throws(TransportFailure) -> HTTPExchangeResult
}

extension HTTPTransport {
    /// A POST of a JSON body (verifyReceipt, webhooks), with `headers` beside its content type.
    public func postJSON(_ body: Data, to url: URL, headers: [String: String] = [:], timeout: TimeInterval,
                         maximumResponseBytes: Int) throws(TransportFailure) -> HTTPExchangeResult {
        var fields = headers
        fields["Content-Type"] = "application/json"
        return try send(method: "POST", url: url, headers: fields, body: body, timeout: timeout,
                        maximumResponseBytes: maximumResponseBytes)
    }
}
