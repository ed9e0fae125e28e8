/// A write the operation's own checks ruled out and the database refused anyway (a row with a
/// random id taken, say): not an outcome a caller can act on, so it is `.failed`, with the rule
/// named in the operator's log.
extension GatewayStore {
    static func broken(_ rule: String) -> StoreError {
        StoreLog.standardError.failure("a stored row broke a rule: \(rule)")
        return .failed
    }
}
