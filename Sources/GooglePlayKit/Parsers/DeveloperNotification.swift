import Foundation
import Wire

/// A real-time developer notification (googleplay.md "Real-time developer notifications"): only a
/// hint to look again at one token, never a fact by itself (E23).
public struct DeveloperNotification: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// `subscriptionNotification`; `type` as Google numbers them (12 REVOKED, 13 EXPIRED, …).
        case subscription(type: Int64, purchaseToken: String)
        /// `oneTimeProductNotification` (1 purchased, 2 canceled while pending).
        case oneTimeProduct(type: Int64, purchaseToken: String, sku: String)
        /// `voidedPurchaseNotification`; `productType` 1 subscription, 2 one-time; `refundType` 2 a
        /// quantity-based partial refund.
        case voided(purchaseToken: String, orderId: String?, productType: Int64?, refundType: Int64?)
        case test
    }

    /// `SUBSCRIPTION_REVOKED`: E25 cuts at the notification's event time.
    public static let subscriptionRevoked: Int64 = 12

    public var packageName: String
    public var eventTime: Instant
    public var kind: Kind

    /// The token Google says to look at again; nil for a test notification.
    public var purchaseToken: String? {
        switch kind {
        case .subscription(_, let token), .oneTimeProduct(_, let token, _), .voided(let token, _, _, _): token
        case .test: nil
        }
    }

    /// The decoded `message.data` (JSON).
    public static func parse(_ data: some Collection<UInt8>) throws(PlayParseError) -> DeveloperNotification {
        let fields = try PlayFields.parse(data, limit: PushEnvelope.maximumDataBytes)
        let packageName = try fields.requiredString("packageName")
        guard let eventTime = try fields.milliseconds("eventTimeMillis") else { throw .missingField("eventTimeMillis") }
        let kind: Kind
        if let sub = try fields.object("subscriptionNotification") {
            guard let type = try sub.integerOrDigits("notificationType") else { throw .missingField(sub.name("notificationType")) }
            kind = .subscription(type: type, purchaseToken: try sub.requiredString("purchaseToken"))
        } else if let one = try fields.object("oneTimeProductNotification") {
            guard let type = try one.integerOrDigits("notificationType") else { throw .missingField(one.name("notificationType")) }
            kind = .oneTimeProduct(type: type, purchaseToken: try one.requiredString("purchaseToken"),
                                   sku: try one.requiredString("sku"))
        } else if let voided = try fields.object("voidedPurchaseNotification") {
            kind = .voided(purchaseToken: try voided.requiredString("purchaseToken"), orderId: try voided.string("orderId"),
                           productType: try voided.integerOrDigits("productType"), refundType: try voided.integerOrDigits("refundType"))
        } else if fields.has("testNotification") {
            kind = .test
        } else {
            throw .missingField("subscriptionNotification, oneTimeProductNotification, voidedPurchaseNotification or testNotification")
        }
        return DeveloperNotification(packageName: packageName, eventTime: eventTime, kind: kind)
    }
}

/// The Pub/Sub push body: `{"message": {"data", "messageId", "publishTime", "attributes"},
/// "subscription"}`; the pull answer's `receivedMessages[].message` has the same message shape.
public struct PushEnvelope: Sendable, Equatable {
    /// A notification is a few hundred bytes; Pub/Sub messages may be 10 MB, which no RTDN is.
    public static let maximumBodyBytes = 64 * 1024
    public static let maximumDataBytes = 16 * 1024

    public var messageId: String
    public var notification: DeveloperNotification

    public static func parse(_ body: some Collection<UInt8>) throws(PlayParseError) -> PushEnvelope {
        let fields = try PlayFields.parse(body, limit: maximumBodyBytes)
        guard let message = try fields.object("message") else { throw .missingField("message") }
        return try parse(message: message)
    }

    static func parse(message: PlayFields) throws(PlayParseError) -> PushEnvelope {
        let messageId = try message.requiredString("messageId")
        // Pub/Sub's data is standard base64 (RFC 4648 §4).
        guard let text = try message.string("data"), let data = Data(base64Encoded: text) else {
            throw .invalidField(message.name("data"), expected: "base64")
        }
        return PushEnvelope(messageId: messageId, notification: try DeveloperNotification.parse(data))
    }
}
