import AppStoreKit
import Entitle
import Foundation
import GatewayCore
import GatewayStore
import HTTPServer
import IssueCatalog
import OutboundHTTP
import Wire

/// The App Store (http-api.md, App Store; Support, grants and Apple's current API): V1 and V2
/// server notifications, and what asks Apple through the App Store Server API: a reader's
/// refresh, and the operator's test notification, backfill and renewal date extension. Calls to
/// Apple run on the App Store pool.
package struct AppStoreController: APIController {
    private let access: Access
    private let appStore: AppStoreIngestion
    /// A reader's refresh: Apple here, Stripe and Google on their own pools.
    private let refresh: AccountRefresh
    private let backfill: NotificationBackfill?
    private let entitlements: EntitlementsNow
    private let refreshLimit: KeyedRateLimiter<String>
    private let limits: APILimits
    private let clock: any GatewayClock

    package init(access: Access, appStore: AppStoreIngestion, refresh: AccountRefresh, backfill: NotificationBackfill?,
                 entitlements: EntitlementsNow, refreshLimit: KeyedRateLimiter<String>, limits: APILimits, clock: any GatewayClock) {
        self.refresh = refresh
        self.access = access; self.appStore = appStore
        self.backfill = backfill; self.entitlements = entitlements; self.refreshLimit = refreshLimit; self.limits = limits
        self.clock = clock
    }

    /// `note` of an extension, kept for the account history.
    package static let extensionNoteLimit = 1000

    package func register(_ router: APIRouterBuilder) {
        // With the Server API configured a notification may fetch a subscription's history from
        // Apple: it then waits on the pool sized for calls to Apple.
        router.add("POST", "/v1/appstore/notifications", execution: appStore.serverAPI == nil ? .store : .appStore,
                   maxBodyBytes: limits.notificationBodyBytes, route: { [appStore] context throws(GatewayError) in
            // V2 (`signedPayload`) or V1 (`notification_type`).
            let body = try RequestBody(context.request)
            if let signedPayload = try body.optionalString("signedPayload") {
                try appStore.takeV2(signedPayload)
            } else if try body.optionalString("notification_type") != nil {
                try appStore.takeV1(context.request.body)
            } else {
                throw .invalid("neither a V2 signedPayload nor a V1 notification_type")
            }
            return .json(200, Array(#"{"status":"taken"}"#.utf8))
        })
        router.add("POST", "/v1/accounts/{accountId}/refresh", execution: .appStore, route: { [self] context throws(GatewayError) in
            let account = try access.requireAccount(&context), accountId = account.id
            if case .limited(let seconds) = refreshLimit.take(accountId, now: clock.now()) {
                throw .rateLimited(retryAfterSeconds: seconds)
            }
            // http-api.md: every store with credentials and facts for the account, each on its
            // own pool (a stalled Google cannot take the threads that call Apple), at once.
            try refresh.refresh(accountId)
            return .entitlements(accountId, try entitlements.answer(of: accountId))
        })
        router.add("POST", "/v1/appstore/test-notification", execution: .appStore, route: { [self] context throws(GatewayError) in
            try access.requireAdmin(&context)
            let serverAPI = try appStore.requireServerAPI()
            let token = try AppStoreIngestion.answered(now: clock.now()) { () throws(ServerAPIFailure) in try serverAPI.requestTestNotification() }
            return .json(200) { w in w.object { w in w.field("testNotificationToken", token) } }
        })
        router.add("POST", "/v1/appstore/backfill", execution: .store, route: { [self] context throws(GatewayError) in
            try access.requireAdmin(&context)
            let (replay, window) = try backfillWindow(RequestBody(context.request))
            _ = try appStore.requireServerAPI()
            guard let backfill else { throw .appStoreUnavailable("the notification backfill is not running") }
            guard backfill.request(replay) else {
                throw .rateLimited(retryAfterSeconds: 60, message: "backfill windows are already being replayed; ask again later")
            }
            return window.accepted { w in w.field("onlyFailures", replay.onlyFailures) }
        })
        router.add("POST", "/v1/appstore/subscriptions/{originalTransactionId}/extend", execution: .appStore,
                   route: { [self] context throws(GatewayError) in
            try access.requireAdmin(&context)
            let body = try RequestBody(context.request)
            let asked = try extensionBody(body)
            let outcome = try appStore.extendRenewalDate(context.parameter("originalTransactionId"), asked,
                                                         note: try body.optionalString("note"))
            return .json(200) { w in
                w.object { w in
                    w.field("originalTransactionId", outcome.originalTransactionId)
                    w.field("environment", outcome.environment.rawValue)
                    w.field("success", outcome.result.success)
                    w.field("effectiveDate", outcome.result.effectiveDate?.rfc3339)
                    w.field("webOrderLineItemId", outcome.result.webOrderLineItemId)
                    w.field("accountId", outcome.accountId)
                }
            }
        })
    }

    /// `{"start", "end", "onlyFailures"}`: a window Apple still keeps (180 days), start before end.
    private func backfillWindow(_ body: RequestBody) throws(GatewayError) -> (NotificationBackfill.Window, BackfillWindow) {
        let window = try BackfillWindow(body, now: clock.now(), keptDays: 180, kept: "Apple keeps 180 days of notification history")
        let replay = NotificationBackfill.Window(start: window.start, end: window.end,
                                                 onlyFailures: try body.optionalBool("onlyFailures") ?? false)
        return (replay, window)
    }

    /// `{"days": 1–90, "reasonCode": 0–3, "note"}`; the request identifier is the gateway's.
    private func extensionBody(_ body: RequestBody) throws(GatewayError) -> ServerAPIExtension {
        guard let days = try body.optionalInteger("days"), (1...Int64(ServerAPIExtension.maximumDays)).contains(days) else {
            throw .invalid("days must be 1 to \(ServerAPIExtension.maximumDays)")
        }
        guard let reason = try body.optionalInteger("reasonCode"), ServerAPIExtension.reasonCodes.contains(Int(reason)) else {
            throw .invalid("reasonCode must be 0 to 3")
        }
        if let note = try body.optionalString("note"), note.utf8.count > Self.extensionNoteLimit {
            throw .invalid("note must be at most \(Self.extensionNoteLimit) bytes")
        }
        // Apple deduplicates on the request identifier: an operator retrying after a timeout sends
        // the same one (optional `requestIdentifier`, a UUID) and Apple extends once; without
        // one, every request is a new extension.
        var identifier = UUID().uuidString.lowercased()
        if let given = try body.optionalString("requestIdentifier") {
            guard let uuid = UUID(uuidString: given) else { throw .invalid("requestIdentifier must be a UUID") }
            identifier = uuid.uuidString.lowercased()
        }
        return ServerAPIExtension(days: Int(days), reasonCode: Int(reason), requestIdentifier: identifier)
    }
}
