import Foundation

/// The pause before retry `attempt` (1 = the first retry) of both App Store clients:
/// `initial · 2^(attempt-1)`, at most `maximum`.
enum ExponentialBackoff {
    static func delay(beforeRetry attempt: Int, initial: TimeInterval, maximum: TimeInterval) -> TimeInterval {
        let exponent = Double(min(max(attempt - 1, 0), 30))
        return min(initial * pow(2, exponent), maximum)
    }
}
