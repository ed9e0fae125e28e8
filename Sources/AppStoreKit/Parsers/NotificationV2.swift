import Entitle
import IssueCatalog
import Wire

/// A decoded version 2 notification payload. The nested `signedTransactionInfo` and
/// `signedRenewalInfo` stay compact JWS strings: they must be verified like the outer one before
/// their payloads go to `AppStoreParsers.signedTransaction` / `signedRenewalInfo`.
public struct NotificationV2: Hashable, Sendable {
    public struct Payload: Hashable, Sendable {
        public var bundleId: String?
        public var appAppleId: Int64?
        public var environment: StoreEnvironment?
        /// 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
        public var status: Int?
        public var signedTransactionInfo: String?
        public var signedRenewalInfo: String?

        public init(bundleId: String? = nil, appAppleId: Int64? = nil, environment: StoreEnvironment? = nil,
                    status: Int? = nil, signedTransactionInfo: String? = nil, signedRenewalInfo: String? = nil) {
            self.bundleId = bundleId; self.appAppleId = appAppleId; self.environment = environment
            self.status = status; self.signedTransactionInfo = signedTransactionInfo
            self.signedRenewalInfo = signedRenewalInfo
        }
    }

    public var notificationUUID: String
    public var notificationType: String
    public var subtype: String?
    public var version: String?
    public var signedDate: Instant?
    public var data: Payload?

    public init(notificationUUID: String, notificationType: String, subtype: String?, version: String?,
                signedDate: Instant?, data: Payload?) {
        self.notificationUUID = notificationUUID; self.notificationType = notificationType
        self.subtype = subtype; self.version = version; self.signedDate = signedDate; self.data = data
    }
}
