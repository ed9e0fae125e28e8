/// What a JWS is expected to hold; decides where the claims checked against configuration live.
public enum SignedPayloadKind: String, Sendable, CaseIterable {
    /// A V2 `signedPayload`: `signedDate` at the top, `bundleId`/`appAppleId`/`environment` under
    /// `data` (or `summary` for summary notifications).
    case notification
    /// A `JWSTransaction` (`signedTransactionInfo`, `signedTransactions`): `bundleId` and `environment`.
    case transaction
    /// A `JWSRenewalInfo` (`signedRenewalInfo`): carries no bundle id, so only `environment` is checked.
    case renewalInfo
}
