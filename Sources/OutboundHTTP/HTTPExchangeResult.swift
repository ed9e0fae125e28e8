import Foundation

/// One HTTP answer of an outside service, as its client needs it.
public struct HTTPExchangeResult: Sendable, Equatable {
    public var statusCode: Int
    public var body: Data
    /// Response header fields by lowercased name (the last value when a field repeats): the
    /// clients read `Retry-After` and `Cache-Control`.
    public var headers: [String: String]

    public init(statusCode: Int, body: Data, headers: [String: String] = [:]) {
        self.statusCode = statusCode
        self.body = body
        self.headers = headers
    }
}
