import Entitle
import Foundation
import IssueCatalog
import Wire

/// A JWS whose chain, signature and claims all passed: `payload` is the exact JSON Apple signed,
/// ready for `AppStoreParsers`.
public struct VerifiedPayload: Sendable, Equatable {
    public let kind: SignedPayloadKind
    public let header: JWSHeader
    public let payload: Data
    public let environment: StoreEnvironment
    /// The payload's `signedDate` (nil only where Apple omitted it; the chain was then checked now).
    public let signedDate: Instant?
}

/// A V2 notification and its nested signed transaction / renewal info, each verified on its own.
public struct VerifiedNotification: Sendable, Equatable {
    public let notification: VerifiedPayload
    public let transaction: VerifiedPayload?
    public let renewalInfo: VerifiedPayload?
}
