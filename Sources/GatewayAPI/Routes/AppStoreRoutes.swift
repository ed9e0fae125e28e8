import HTTPServer

/// `POST /v1/appstore/notifications` (http-api.md, App Store): V1 and V2 server notifications.
extension Gateway {
    func registerAppStoreRoutes(_ router: APIRouterBuilder) {
        router.add("POST", "/v1/appstore/notifications", execution: .store,
                   maxBodyBytes: limits.notificationBodyBytes, handler: apiHandler { [appStore] request throws(APIError) in
            try appStore.takeNotification(try RequestBody(request), raw: request.body)
            return .json(200, Array(#"{"status":"taken"}"#.utf8))
        })
    }
}
