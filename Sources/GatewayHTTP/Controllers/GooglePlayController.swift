import GatewayCore
import GatewayStore
import GooglePlayKit
import HTTPServer

/// Google Play (http-api.md, Google Play and Stripe): a reader's purchase token and Google's
/// Pub/Sub pushes. Both ask Google before they answer, on the Google Play pool (its own
/// bulkhead: Google slow never takes the App Store's or the store's threads).
package struct GooglePlayController: APIController {
    private let access: Access
    /// nil: Google Play is off; every package is then unknown (400) and every push refused (401).
    private let googlePlay: GooglePlayIngestion?
    private let entitlements: EntitlementsNow

    package init(access: Access, googlePlay: GooglePlayIngestion?, entitlements: EntitlementsNow) {
        self.access = access; self.googlePlay = googlePlay; self.entitlements = entitlements
    }

    /// `{"packageName", "productId", "purchaseToken"}`: a few hundred bytes.
    static let purchaseBodyBytes = 16 * 1024

    package func register(_ router: APIRouterBuilder) {
        router.add("POST", "/v1/accounts/{accountId}/googleplay/purchases", execution: .googlePlay,
                   maxBodyBytes: Self.purchaseBodyBytes, route: { [self] context throws(GatewayError) in
            let accountId = try access.requireAccount(&context).id
            let body = try RequestBody(context.request)
            guard let googlePlay else {
                throw .invalid("packageName \(try body.string("packageName")) is not a configured Google Play package")
            }
            try googlePlay.purchase(accountId: accountId, packageName: try body.string("packageName"),
                                    productId: try body.string("productId"), token: try body.string("purchaseToken"))
            return .entitlements(accountId, try entitlements.answer(of: accountId))
        })
        // googleplay.md: Google lists voided purchases 30 days back; the replay runs before the 202,
        // on the Google Play pool (a window is a few pages).
        router.add("POST", "/v1/googleplay/backfill", execution: .googlePlay, route: { [self] context throws(GatewayError) in
            try access.requireAdmin(&context)
            let body = try RequestBody(context.request)
            guard let googlePlay else { throw .invalid("Google Play is not configured") }
            let window = try BackfillWindow(body, now: googlePlay.now, keptDays: 30, kept: "Google keeps 30 days of voided purchases")
            let replayed = try googlePlay.replayVoided(start: window.start, end: window.end)
            return window.accepted { w in w.field("purchases", replayed) }
        })
        // Pub/Sub's own bearer token (OIDC), not a gateway secret: checked by the ingestion.
        router.add("POST", "/v1/googleplay/notifications", execution: .googlePlay,
                   maxBodyBytes: PushEnvelope.maximumBodyBytes, route: { [googlePlay] context throws(GatewayError) in
            guard let googlePlay else { throw .unauthorized("Google Play pushes are not accepted: Google Play is not configured") }
            let taken = try googlePlay.takePush(context.request.body, authorization: context.request.header("Authorization"))
            return .json(200) { w in w.object { w in w.field("status", taken ? "taken" : "duplicate") } }
        })
    }
}
