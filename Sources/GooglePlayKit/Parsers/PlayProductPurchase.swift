import Foundation
import Wire

/// `purchases.products.get`'s answer (googleplay.md "One-time products", ProductPurchase v1): a
/// single issue bought in the app.
public struct PlayProductPurchase: Sendable, Equatable {
    public enum State: Int64, Sendable, Equatable { case purchased = 0, canceled = 1, pending = 2 }

    public var orderId: String?
    public var state: State
    public var acknowledged: Bool
    public var purchaseTime: Instant
    /// `purchaseType` 0: a license tester's purchase (our sandbox).
    public var isTest: Bool
    public var obfuscatedExternalAccountId: String?

    public static func parse(_ body: some Collection<UInt8>) throws(PlayParseError) -> PlayProductPurchase {
        let fields = try PlayFields.parse(body)
        guard let state = State(rawValue: try fields.integerOrDigits("purchaseState") ?? 0) else {
            throw .invalidField("purchaseState", expected: "0, 1 or 2")
        }
        guard let time = try fields.milliseconds("purchaseTimeMillis") else { throw .missingField("purchaseTimeMillis") }
        return PlayProductPurchase(orderId: try fields.string("orderId"), state: state,
                                   acknowledged: try fields.integerOrDigits("acknowledgementState") == 1, purchaseTime: time,
                                   isTest: try fields.integerOrDigits("purchaseType") == 0,
                                   obfuscatedExternalAccountId: try fields.string("obfuscatedExternalAccountId"))
    }
}
