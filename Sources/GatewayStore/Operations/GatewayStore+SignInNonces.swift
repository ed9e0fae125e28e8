import Wire

/// readers.md E31 step 5: nonces the gateway issued, stored only as hashes, each used up by the
/// first sign-in that presents it, whatever its outcome.
extension GatewayStore {
    public func issueSignInNonce(hash: String, expiresAt: Instant, now: Instant) throws(StoreError) {
        try write { tx throws(StoreError) in try tx.insertSignInNonce(hash: hash, expiresAt: expiresAt, now: now) }
    }

    public func signInNonceIsLive(hash: String, now: Instant) throws(StoreError) -> Bool {
        try read { tx throws(StoreError) in try tx.signInNonceIsLive(hash: hash, now: now) }
    }

    /// Uses the nonce up in a unit of work of its own (a refused sign-in); false when it was not live.
    @discardableResult
    public func useSignInNonce(hash: String, now: Instant) throws(StoreError) -> Bool {
        try write { tx throws(StoreError) in try tx.useSignInNonce(hash: hash, now: now) }
    }
}
