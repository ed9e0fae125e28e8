import GatewayCore
import HTTPServer

/// `POST /v1/appstore/notifications` (http-api.md, App Store): V1 and V2 server notifications.
/// The App Store Server API's routes are in `ServerAPIRoutes`.
package struct AppStoreController: APIController {
    private let appStore: AppStoreIngestion
    private let limits: APILimits

    package init(appStore: AppStoreIngestion, limits: APILimits) {
        self.appStore = appStore; self.limits = limits
    }

    package func register(_ router: APIRouterBuilder) {
        // With the Server API configured a notification may fetch a subscription's history from
        // Apple: it then waits on the pool sized for calls to Apple.
        router.add("POST", "/v1/appstore/notifications", execution: appStore.serverAPI == nil ? .store : .appStore,
                   maxBodyBytes: limits.notificationBodyBytes, route: { [appStore] context throws(APIError) in
            try appStore.takeNotification(try RequestBody(context.request), raw: context.request.body)
            return .json(200, Array(#"{"status":"taken"}"#.utf8))
        })
    }
}
