import Foundation
import Wire

/// One scenario step (`GooglePlaySimulator+Scenario`) as the control route `POST
/// /simulator/steps/{step}` takes it: the step's name from the path, its arguments from a strict
/// JSON body (docs/googleplay-simulator.md lists them).
public enum ScenarioStep: Sendable, Equatable {
    /// A new subscription token; `linkedToken` for an upgrade, a downgrade or a re-signup before
    /// expiry (googleplay.md `linkedPurchaseToken`).
    case buy(Purchase, linkedToken: String?)
    /// A new token after `previousToken` fully expired: Google links nothing (googleplay.md).
    case resubscribe(Purchase, previousToken: String)
    case renew(token: String)
    case grace(token: String, days: Int64)
    case hold(token: String)
    case recover(token: String)
    case pause(token: String, resumeAt: Instant)
    case resume(token: String)
    case cancel(token: String)
    case expire(token: String)
    case revoke(token: String)
    /// An order refunded (a chargeback when `chargeback`): named by id, or by a token (its latest order).
    case refund(OrderReference, chargeback: Bool)
    /// A one-time product (a single issue); `pending` leaves it pending.
    case buyProduct(token: String, productId: String, account: String?, pending: Bool, test: Bool)
    /// A pending one-time purchase abandoned.
    case cancelPending(token: String)

    public struct Purchase: Sendable, Equatable {
        public var token: String
        public var productId: String
        public var basePlanId: String
        public var account: String?
        public var periodDays: Int64
        public var trial: Bool
        public var test: Bool
    }

    public enum OrderReference: Sendable, Equatable {
        case order(String)
        case latestOf(token: String)
    }

    /// The token the step changes; nil for a refund named by its order id.
    public var token: String? {
        switch self {
        case .buy(let p, _), .resubscribe(let p, _): p.token
        case .renew(let t), .grace(let t, _), .hold(let t), .recover(let t), .pause(let t, _), .resume(let t), .cancel(let t),
             .expire(let t), .revoke(let t), .buyProduct(let t, _, _, _, _), .cancelPending(let t): t
        case .refund(.latestOf(let t), _): t
        case .refund(.order, _): nil
        }
    }

    /// The step names of the path, in the order the doc lists them.
    public static let names = ["buy", "upgrade", "resubscribe", "renew", "grace", "hold", "recover", "pause", "resume",
                               "cancel", "expire", "revoke", "refund", "chargeback", "buy-product", "cancel-pending"]
    /// Every step takes `drop`: the step happens, its notification is not pushed (a lost one).
    static let dropField = "drop"
    /// A subscription's period (`periodDays`) and a grace (`days`) in days: at most ten years.
    static let days: ClosedRange<Int64> = 1...3650

    /// The step `name` with the arguments of `body`; whether its notification is dropped.
    public static func parse(name: String, body: [UInt8]) throws(ControlError) -> (step: ScenarioStep, drop: Bool) {
        guard let fields = Self.fields(name) else {
            throw .badRequest("no step \(name) (steps: \(names.joined(separator: ", ")))")
        }
        let f = try ControlFields(body, known: fields.union([dropField]))
        return (try step(name, f), try f.bool(dropField))
    }

    private static func fields(_ name: String) -> Set<String>? {
        let purchase: Set<String> = ["token", "productId", "basePlanId", "account", "periodDays", "trial", "test"]
        return switch name {
        case "buy", "upgrade": purchase.union(["linkedToken"])
        case "resubscribe": purchase.union(["previousToken"])
        case "renew", "hold", "recover", "resume", "cancel", "expire", "revoke", "cancel-pending": ["token"]
        case "grace": ["token", "days"]
        case "pause": ["token", "resumeAt"]
        case "refund": ["orderId", "token", "chargeback"]
        case "chargeback": ["orderId", "token"]
        case "buy-product": ["token", "productId", "account", "pending", "test"]
        default: nil
        }
    }

    private static func step(_ name: String, _ f: ControlFields) throws(ControlError) -> ScenarioStep {
        switch name {
        case "buy": return .buy(try purchase(f), linkedToken: try f.string("linkedToken"))
        case "upgrade": return .buy(try purchase(f), linkedToken: try f.required("linkedToken"))
        case "resubscribe": return .resubscribe(try purchase(f), previousToken: try f.required("previousToken"))
        case "renew": return .renew(token: try f.required("token"))
        case "grace":
            guard let days = try f.integer("days", in: Self.days) else { throw .badRequest("days is required") }
            return .grace(token: try f.required("token"), days: days)
        case "hold": return .hold(token: try f.required("token"))
        case "recover": return .recover(token: try f.required("token"))
        case "pause":
            guard let resumeAt = try f.instant("resumeAt") else { throw .badRequest("resumeAt is required") }
            return .pause(token: try f.required("token"), resumeAt: resumeAt)
        case "resume": return .resume(token: try f.required("token"))
        case "cancel": return .cancel(token: try f.required("token"))
        case "expire": return .expire(token: try f.required("token"))
        case "revoke": return .revoke(token: try f.required("token"))
        case "refund", "chargeback":
            let order = try f.string("orderId"), token = try f.string("token")
            let reference: OrderReference
            switch (order, token) {
            case (let order?, nil): reference = .order(order)
            case (nil, let token?): reference = .latestOf(token: token)
            default: throw .badRequest("name the order: orderId or token (its latest order), one of them")
            }
            return .refund(reference, chargeback: name == "chargeback" ? true : try f.bool("chargeback"))
        case "buy-product":
            return .buyProduct(token: try f.required("token"), productId: try f.required("productId"),
                               account: try f.string("account"), pending: try f.bool("pending"), test: try f.bool("test"))
        default: return .cancelPending(token: try f.required("token"))
        }
    }

    private static func purchase(_ f: ControlFields) throws(ControlError) -> Purchase {
        Purchase(token: try f.required("token"), productId: try f.required("productId"),
                 basePlanId: try f.string("basePlanId") ?? "p1m", account: try f.string("account"),
                 periodDays: try f.integer("periodDays", in: Self.days) ?? GooglePlaySimulator.month / 86_400,
                 trial: try f.bool("trial"), test: try f.bool("test"))
    }
}

extension GooglePlaySimulator {
    /// Plays `step` at the simulator's clock; the notification Google would send.
    public func play(_ step: ScenarioStep) throws(Failure) -> SimulatedNotification {
        switch step {
        case .buy(let p, let linked): return try buy(p, linkedTo: linked)
        case .resubscribe(let p, let previous):
            guard let old = subscription(previous) else { throw .unknownToken(previous) }
            // Before expiry Google links the new token (a re-signup): that is `upgrade`.
            guard old.state == "SUBSCRIPTION_STATE_EXPIRED" else {
                throw .invalid("\(previous) has not expired: a re-signup before expiry is linked (use upgrade)")
            }
            return try buy(p, linkedTo: nil)
        case .renew(let token): return try renew(token)
        case .grace(let token, let days): return try grace(token, days: days)
        case .hold(let token): return try hold(token)
        case .recover(let token): return try recover(token)
        case .pause(let token, let resumeAt): return try pause(token, resumeAt: resumeAt)
        case .resume(let token): return try resume(token)
        case .cancel(let token): return try cancel(token)
        case .expire(let token): return try expire(token)
        case .revoke(let token): return try revoke(token)
        case .refund(let reference, let chargeback): return try refund(orderId: try orderId(reference), chargeback: chargeback)
        case .buyProduct(let token, let productId, let account, let pending, let test):
            guard productPurchase(token) == nil, subscription(token) == nil else { throw .invalid("token \(token) exists") }
            return buyProduct(token: token, productId: productId, account: account, pending: pending, test: test)
        case .cancelPending(let token):
            guard productPurchase(token) != nil else { throw .unknownToken(token) }
            return try cancelPendingProduct(token)
        }
    }

    /// The order a refund names: itself, or the latest order of a subscription or one-time token.
    public func orderId(_ reference: ScenarioStep.OrderReference) throws(Failure) -> String {
        switch reference {
        case .order(let id): return id
        case .latestOf(let token):
            if let s = subscription(token), let last = s.orderIds.last { return last }
            guard let p = productPurchase(token) else { throw .unknownToken(token) }
            guard let id = p.orderId else { throw .invalid("\(token) is pending: it has no order yet") }
            return id
        }
    }

    private func buy(_ p: ScenarioStep.Purchase, linkedTo: String?) throws(Failure) -> SimulatedNotification {
        try buy(token: p.token, productId: p.productId, basePlanId: p.basePlanId, account: p.account,
                periodSeconds: p.periodDays * 86_400, trial: p.trial, test: p.test, linkedTo: linkedTo)
    }
}
