import Wire

/// readers.md E31, Decisions: refused ID tokens and unknown link codes (E33) counted per client
/// address in separate windows; while either holds 10 failures of the last 15 minutes, the
/// address's sign-ins are refused with the wait until the oldest of them leaves the window.
package struct SignInFailures: Sendable {
    package static let limit = 10
    package static let windowSeconds = 15 * 60

    package let idTokens = FailureWindow<String>(limit: limit, windowSeconds: windowSeconds)
    package let linkCodes = FailureWindow<String>(limit: limit, windowSeconds: windowSeconds)

    package init() {}

    /// An address the server could not name is counted under one key: it is still one party.
    static func key(_ clientAddress: String?) -> String { clientAddress ?? "" }

    package func admit(_ clientAddress: String?, now: Instant) throws(GatewayError) {
        let key = Self.key(clientAddress)
        let waits = [idTokens.retryAfter(key, now: now), linkCodes.retryAfter(key, now: now)].compactMap { $0 }
        if let wait = waits.max() {
            throw .rateLimited(retryAfterSeconds: wait, message: "too many failed sign-ins from this address; try again later")
        }
    }
}
