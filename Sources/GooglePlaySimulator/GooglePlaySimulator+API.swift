import Foundation
import GatewayCrypto
import GooglePlayKit
import Wire

/// What the simulator answers on Google's endpoints: a status and a JSON body.
public struct SimulatedAnswer: Sendable, Equatable {
    public var status: Int
    public var body: [UInt8]
    public var headers: [String: String] = [:]

    static func json(_ status: Int, _ render: (inout JSONWriter) -> Void) -> SimulatedAnswer {
        var w = JSONWriter()
        render(&w)
        return SimulatedAnswer(status: status, body: w.bytes)
    }

    /// The token endpoint's error shape (RFC 6749 §5.2).
    static func oauthError(_ description: String) -> SimulatedAnswer {
        json(400) { w in w.object { w in w.field("error", "invalid_grant"); w.field("error_description", description) } }
    }

    /// The Orders API's answer to a service account without the permission to view financial data:
    /// Google's newer error shape, a status and no `errors` list.
    static let permissionDenied = json(403) { w in
        w.object { w in
            w.key("error")
            w.object { w in
                w.field("code", 403)
                w.field("message", "The caller does not have permission")
                w.field("status", "PERMISSION_DENIED")
            }
        }
    }

    /// Google's error shape: `{"error": {"code", "message", "status", "errors": [{"reason"}]}}`.
    static func error(_ status: Int, reason: String, _ message: String) -> SimulatedAnswer {
        json(status) { w in
            w.object { w in
                w.key("error")
                w.object { w in
                    w.field("code", status)
                    w.field("message", message)
                    w.key("errors")
                    w.array { w in w.object { w in w.field("reason", reason); w.field("message", message) } }
                }
            }
        }
    }
}

/// The Developer and Orders API calls of googleplay.md's table, and the token endpoint.
public enum SimulatedCall: Sendable, Equatable {
    case subscription(token: String)
    case product(productId: String, token: String)
    case acknowledge(subscription: Bool, productId: String, token: String)
    case order(String)
    case orders([String])
    case voided(start: Int64, end: Int64)
}

extension GooglePlaySimulator {
    /// Seconds a token answered `purchaseTokenNoLongerValid` stays gone after expiry (googleplay.md:
    /// 60 days).
    static let tokenRetentionSeconds: Int64 = 60 * 86_400

    /// The token endpoint: a form with an RS256 assertion the service account signed for this
    /// `aud`, valid now; answers an access token.
    public func tokenEndpoint(form: [UInt8], audience: String) -> SimulatedAnswer {
        let forced: (status: Int, retryAfter: String?)? = state.withLock {
            $0.forcedTokenStatuses.isEmpty ? nil : $0.forcedTokenStatuses.removeFirst()
        }
        if let forced {
            var answer = SimulatedAnswer.json(forced.status) { w in w.object { w in w.field("error", "temporarily_unavailable") } }
            if let retryAfter = forced.retryAfter { answer.headers["Retry-After"] = retryAfter }
            return answer
        }
        let fields = Dictionary(String(decoding: form, as: UTF8.self).split(separator: "&").compactMap { pair -> (String, String)? in
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            return (String(parts[0]), String(parts[1]).removingPercentEncoding ?? "")
        }, uniquingKeysWith: { a, _ in a })
        guard fields["grant_type"] == OAuthAssertion.grantType, let assertion = fields["assertion"],
              let jws = try? CompactJWS(splitting: assertion, maximumBytes: 16 * 1024),
              let components = serviceAccountKey.publicComponents,
              let key = RSAPublicKey(modulus: components.modulus, exponent: components.exponent),
              key.verifyRS256(signature: jws.signature, message: jws.signingInput),
              let claims = try? JSONParser().parse(bytes: jws.payload).objectValue else {
            return .oauthError("invalid JWT signature")
        }
        let issued = credentialNow
        let seconds: Int64 = issued.secondsSinceEpoch
        guard claims["iss"]?.stringValue == serviceAccountEmail, claims["aud"]?.stringValue == audience,
              claims["scope"]?.stringValue == OAuthAssertion.androidPublisherScope,
              let iat = claims["iat"]?.integerValue, let exp = claims["exp"]?.integerValue,
              exp - iat <= OAuthAssertion.lifetimeSeconds, iat <= seconds + 60, seconds < exp else {
            return .oauthError("invalid JWT claims")
        }
        let token = "ya29.sim-" + UUID().uuidString
        let lifetime = accessTokenLifetimeSeconds
        state.withLock {
            $0.tokenRequests += 1
            $0.accessTokens[token] = issued.adding(seconds: lifetime)
        }
        return .json(200) { w in
            w.object { w in
                w.field("access_token", token)
                w.field("expires_in", Int(lifetime))
                w.field("token_type", "Bearer")
            }
        }
    }

    /// One API call for `packageName` with `authorization` (`Bearer <access token>`).
    public func answer(_ call: SimulatedCall, packageName: String, authorization: String?) -> SimulatedAnswer {
        let forced: (status: Int, retryAfter: String?)? = state.withLock { state in
            state.apiRequests.append("\(call)")
            return state.forcedStatuses.isEmpty ? nil : state.forcedStatuses.removeFirst()
        }
        let at = credentialNow
        guard let authorization, authorization.hasPrefix("Bearer "),
              state.withLock({ state in state.accessTokens[String(authorization.dropFirst(7))].map { at < $0 } ?? false }) else {
            return .error(401, reason: "authError", "Request had invalid authentication credentials.")
        }
        if let forced {
            var answer = SimulatedAnswer.error(forced.status, reason: forced.status == 429 ? "rateLimitExceeded" : "backendError",
                                               "forced by the script")
            if let retryAfter = forced.retryAfter { answer.headers["Retry-After"] = retryAfter }
            return answer
        }
        guard packageName == self.packageName else {
            return .error(404, reason: "applicationNotFound", "No application was found for the given package name.")
        }
        switch call {
        case .order, .orders:
            let forcedOrder: Int? = state.withLock { $0.forcedOrderStatuses.isEmpty ? nil : $0.forcedOrderStatuses.removeFirst() }
            if let forcedOrder { return .error(forcedOrder, reason: "backendError", "forced by the script") }
            if state.withLock({ $0.ordersRefused }) { return .permissionDenied }
        default:
            break
        }
        switch call {
        case .subscription(let token): return subscriptionAnswer(token)
        case .product(let productId, let token): return productAnswer(productId, token)
        case .acknowledge(let subscription, let productId, let token): return acknowledge(subscription, productId, token)
        case .order(let id):
            guard let order = self.order(id) else { return .error(404, reason: "notFound", "Order not found.") }
            return .json(200) { w in Self.render(order, &w) }
        case .orders(let ids):
            let found = ids.compactMap(order)
            guard found.count == ids.count, !ids.isEmpty, ids.count <= 1000 else {
                return .error(404, reason: "notFound", "An order was not found.")
            }
            return .json(200) { w in w.object { w in w.key("orders"); w.array { w in for o in found { Self.render(o, &w) } } } }
        case .voided(let start, let end):
            let entries = state.withLock { $0.voided }.filter {
                $0.voidedTime.millisecondsSinceEpoch >= start && $0.voidedTime.millisecondsSinceEpoch < end
            }
            return .json(200) { w in
                w.object { w in
                    w.key("voidedPurchases")
                    w.array { w in
                        for v in entries {
                            w.object { w in
                                w.field("kind", "androidpublisher#voidedPurchase")
                                w.field("purchaseToken", v.token)
                                w.field("orderId", v.orderId)
                                w.field("purchaseTimeMillis", String(v.purchaseTime.millisecondsSinceEpoch))
                                w.field("voidedTimeMillis", String(v.voidedTime.millisecondsSinceEpoch))
                                w.field("voidedSource", v.voidedSource)
                                w.field("voidedReason", v.voidedReason)
                            }
                        }
                    }
                }
            }
        }
    }

    private func invalidToken() -> SimulatedAnswer {
        .error(400, reason: "purchaseTokenInvalid", "The purchase token is invalid.")
    }

    private func subscriptionAnswer(_ token: String) -> SimulatedAnswer {
        guard let s = subscription(token) else { return invalidToken() }
        if let expiry = s.expiryTime, s.state == "SUBSCRIPTION_STATE_EXPIRED",
           now >= expiry.adding(seconds: Self.tokenRetentionSeconds) {
            return .error(410, reason: "purchaseTokenNoLongerValid", "The purchase token is no longer valid.")
        }
        let latest = s.orderIds.last { order($0)?.state != "CANCELED" }
        return .json(200) { w in
            w.object { w in
                w.field("kind", "androidpublisher#subscriptionPurchaseV2")
                w.field("startTime", s.startTime?.rfc3339)
                w.field("regionCode", "DE")
                w.field("subscriptionState", s.state)
                w.field("linkedPurchaseToken", s.linkedPurchaseToken)
                w.field("acknowledgementState", s.acknowledged ? "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED" : "ACKNOWLEDGEMENT_STATE_PENDING")
                if let account = s.obfuscatedAccountId {
                    w.key("externalAccountIdentifiers")
                    w.object { w in w.field("obfuscatedExternalAccountId", account) }
                }
                if s.isTest { w.key("testPurchase"); w.object { _ in } }
                if let cancellation = s.cancellation {
                    w.key("canceledStateContext")
                    w.object { w in w.key(cancellation); w.object { _ in } }
                }
                if let resume = s.autoResumeTime {
                    w.key("pausedStateContext")
                    w.object { w in w.field("autoResumeTime", resume.rfc3339) }
                }
                w.key("lineItems")
                w.array { w in
                    w.object { w in
                        w.field("productId", s.productId)
                        w.field("expiryTime", s.expiryTime?.rfc3339)
                        w.field("latestSuccessfulOrderId", latest)
                        w.key("autoRenewingPlan")
                        w.object { w in w.field("autoRenewEnabled", s.autoRenew) }
                        w.key("offerDetails")
                        w.object { w in w.field("basePlanId", s.basePlanId) }
                    }
                }
            }
        }
    }

    private func productAnswer(_ productId: String, _ token: String) -> SimulatedAnswer {
        guard let p = productPurchase(token), p.productId == productId else { return invalidToken() }
        return .json(200) { w in
            w.object { w in
                w.field("kind", "androidpublisher#productPurchase")
                w.field("purchaseTimeMillis", String(p.purchaseTime.millisecondsSinceEpoch))
                w.field("purchaseState", p.purchaseState)
                w.field("consumptionState", 0)
                w.field("orderId", p.orderId)
                w.field("acknowledgementState", p.acknowledged ? 1 : 0)
                w.field("obfuscatedExternalAccountId", p.obfuscatedAccountId)
                if p.isTest { w.field("purchaseType", 0) }
            }
        }
    }

    private func acknowledge(_ subscription: Bool, _ productId: String, _ token: String) -> SimulatedAnswer {
        let failing: Bool = state.withLock { state in
            guard state.failingAcknowledgements > 0 else { return false }
            state.failingAcknowledgements -= 1
            return true
        }
        if failing { return .error(503, reason: "backendError", "forced by the script") }
        let known: Bool = state.withLock { state in
            if subscription, state.subscriptions[token]?.productId == productId {
                state.subscriptions[token]?.acknowledged = true
            } else if !subscription, state.products[token]?.productId == productId {
                state.products[token]?.acknowledged = true
            } else {
                return false
            }
            state.acknowledgements.append(token)
            return true
        }
        return known ? SimulatedAnswer(status: 200, body: []) : invalidToken()
    }

    static func render(_ o: SimulatedOrder, _ w: inout JSONWriter) {
        w.object { w in
            w.field("orderId", o.orderId)
            w.field("purchaseToken", o.token)
            w.field("state", o.state)
            w.field("createTime", o.createTime.rfc3339)
            if let refund = o.refundTime {
                w.key("orderHistory")
                w.object { w in
                    w.key("refundEvent")
                    w.object { w in w.field("eventTime", refund.rfc3339); w.field("refundReason", o.refundReason) }
                }
            }
            w.key("lineItems")
            w.array { w in
                w.object { w in
                    w.field("productId", o.productId)
                    if o.isOneTime {
                        w.key("oneTimePurchaseDetails")
                        w.object { w in w.field("quantity", 1) }
                        return
                    }
                    w.key("subscriptionDetails")
                    w.object { w in
                        w.field("basePlanId", o.basePlanId)
                        w.key("offerPhaseDetails")
                        w.object { w in w.key(o.offerPhase); w.object { _ in } }
                        w.field("servicePeriodStartTime", o.periodStart.rfc3339)
                        w.field("servicePeriodEndTime", o.periodEnd.rfc3339)
                    }
                }
            }
        }
    }
}
