import Entitle

/// The Server API's routes (appstore.md's endpoint table): production under `/inApps`, the
/// sandbox under `/sandbox/inApps`, so the two base URLs differ as Apple's do.
extension SimulatorRoutes {
    static let sandboxAPIPrefix = "/sandbox"
    /// A notification history request body is a few fields.
    static let serverAPIBodyBytes = 64 * 1024

    static func serverAPIRoutes(_ simulator: AppStoreSimulator) -> [SimulatorRoute] {
        let endpoints: [(String, String, AppStoreSimulator.ServerAPIEndpoint)] = [
            ("GET", "/inApps/v2/history/{id}", .history),
            ("GET", "/inApps/v1/subscriptions/{id}", .statuses),
            ("GET", "/inApps/v1/transactions/{id}", .transaction),
            ("POST", "/inApps/v1/notifications/history", .notificationHistory),
            ("POST", "/inApps/v1/notifications/test", .testNotification),
            ("GET", "/inApps/v2/refund/lookup/{id}", .refunds),
            ("PUT", "/inApps/v1/subscriptions/extend/{id}", .extend),
        ]
        var routes: [SimulatorRoute] = []
        for (prefix, environment) in [("", StoreEnvironment.production), (sandboxAPIPrefix, .sandbox)] {
            for (method, path, endpoint) in endpoints {
                // Blocks: a test notification is delivered to the gateway from here.
                routes.append(SimulatorRoute(method: method, path: prefix + path, maxBodyBytes: serverAPIBodyBytes,
                                             blocks: true) { request in
                    simulator.serverAPI(endpoint, request, id: request.parameters["id"], at: environment)
                })
            }
        }
        return routes
    }
}
