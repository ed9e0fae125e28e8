import Foundation
import Wire

/// A real-time developer notification as Google would publish it: the message id and the JSON
/// that Pub/Sub carries base64-encoded as `message.data`.
public struct SimulatedNotification: Sendable, Equatable {
    public var messageId: String
    public var data: [UInt8]
    public var publishTime: Instant

    /// The Pub/Sub push body (googleplay.md "Real-time developer notifications").
    public func pushBody(subscription: String = "projects/issue-gateway/subscriptions/rtdn") -> [UInt8] {
        var w = JSONWriter()
        w.object { w in
            w.key("message")
            w.object { w in
                w.field("data", Data(data).base64EncodedString())
                w.field("messageId", messageId)
                w.field("publishTime", publishTime.rfc3339)
            }
            w.field("subscription", subscription)
        }
        return w.bytes
    }
}

extension GooglePlaySimulator {
    func notification(subscription type: Int, token: String) -> SimulatedNotification {
        notification { w in
            w.key("subscriptionNotification")
            w.object { w in w.field("version", "1.0"); w.field("notificationType", type); w.field("purchaseToken", token) }
        }
    }

    func notification(oneTime type: Int, token: String, sku: String) -> SimulatedNotification {
        notification { w in
            w.key("oneTimeProductNotification")
            w.object { w in
                w.field("version", "1.0"); w.field("notificationType", type); w.field("purchaseToken", token); w.field("sku", sku)
            }
        }
    }

    func notification(voided token: String, orderId: String, productType: Int) -> SimulatedNotification {
        notification { w in
            w.key("voidedPurchaseNotification")
            w.object { w in
                w.field("purchaseToken", token); w.field("orderId", orderId); w.field("productType", productType)
                w.field("refundType", 1)
            }
        }
    }

    private func notification(_ body: (inout JSONWriter) -> Void) -> SimulatedNotification {
        let (id, now) = state.withLock { state in
            state.messageCount += 1
            return (state.messageCount, state.now)
        }
        var w = JSONWriter()
        w.object { w in
            w.field("version", "1.0")
            w.field("packageName", packageName)
            w.field("eventTimeMillis", String(now.millisecondsSinceEpoch))
            body(&w)
        }
        return SimulatedNotification(messageId: String(7_000_000 + id), data: w.bytes, publishTime: now)
    }
}
