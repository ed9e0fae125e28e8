import Foundation

/// One HTTP answer, as the App Store clients need it.
public struct HTTPExchangeResult: Sendable, Equatable {
    public var statusCode: Int
    public var body: Data
    /// Response header fields by lowercased name (the last value when a field repeats); only
    /// the Server API reads one (`Retry-After`).
    public var headers: [String: String]

    public init(statusCode: Int, body: Data, headers: [String: String] = [:]) {
        self.statusCode = statusCode
        self.body = body
        self.headers = headers
    }
}

public enum TransportFailure: Error, Sendable, Equatable {
    case timedOut
    case responseTooLarge(limit: Int)
    case connection(String)
}

/// POSTs a JSON body and waits for the answer. Blocking by contract: the client runs on a worker
/// thread, never on an event loop. Tests put a scripted App Store behind it.
public protocol VerifyReceiptTransport: Sendable {
    func post(_ body: Data, to url: URL, timeout: TimeInterval, maximumResponseBytes: Int) throws(TransportFailure) -> HTTPExchangeResult
}
