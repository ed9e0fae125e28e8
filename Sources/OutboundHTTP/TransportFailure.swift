/// Why an exchange gave no HTTP answer at all. Each client decides what it means (most retry a
/// timeout or a connection failure; a body over its limit is never read again).
public enum TransportFailure: Error, Sendable, Equatable {
    case timedOut
    case responseTooLarge(limit: Int)
    case connection(String)
}
