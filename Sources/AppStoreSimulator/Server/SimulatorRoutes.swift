import Entitle
import Foundation

/// The simulator's HTTP surface as plain routes (docs/appstore-simulator.md), for any host.
enum SimulatorRoutes {
    /// Paths of the two verifyReceipt endpoints.
    static let productionPath = "/verifyReceipt"
    static let sandboxPath = "/sandbox/verifyReceipt"
    /// A control body (a history, a transaction) is small; a whole script is not sent here.
    static let controlBodyBytes = 1 << 20
    /// verifyReceipt bodies: years of renewals make receipts of several MiB, which Apple takes.
    static let verifyReceiptBodyBytes = 8 << 20

    static func routes(_ simulator: AppStoreSimulator) -> [SimulatorRoute] {
        var routes: [SimulatorRoute] = []
        for (path, environment) in [(productionPath, StoreEnvironment.production), (sandboxPath, .sandbox)] {
            routes.append(SimulatorRoute(method: "POST", path: path, maxBodyBytes: verifyReceiptBodyBytes, blocks: false) { body in
                .json(200, simulator.verifyReceipt(requestBody: body, at: environment))
            })
            // Apple answers 21000 to anything but a POST.
            routes.append(SimulatorRoute(method: "GET", path: path, maxBodyBytes: nil, blocks: false) { (_: [UInt8]) in
                .json(200, Data(#"{"status":21000}"#.utf8))
            })
        }
        routes.append(SimulatorRoute(method: "GET", path: "/simulator/root.pem", maxBodyBytes: nil, blocks: false) { (_: [UInt8]) in
            SimulatorResponse(status: 200, contentType: "application/x-pem-file", body: Array(simulator.signer.authority.root.pem.utf8))
        })
        routes.append(control("receipts") { (body: SimulatorControl.ReceiptChange<ScriptedReceipt>) throws(AppStoreSimulator.Failure) in
            simulator.setReceipt(body.receipt, body.value)
            return [:]
        })
        routes.append(control("transactions") { (body: SimulatorControl.ReceiptChange<ScriptedTransaction>) throws(AppStoreSimulator.Failure) in
            try simulator.addTransaction(body.value, to: body.receipt)
            return [:]
        })
        routes.append(control("renewals") { (body: SimulatorControl.ReceiptChange<ScriptedRenewal>) throws(AppStoreSimulator.Failure) in
            try simulator.setRenewal(body.value, in: body.receipt)
            return [:]
        })
        routes.append(control("refunds") { (body: SimulatorControl.Refund) throws(AppStoreSimulator.Failure) in
            try simulator.refund(transactionId: body.transactionId, in: body.receipt, at: body.at, reason: body.reason,
                                 type: body.type, percentage: body.percentage, reverse: body.reverse)
            return [:]
        })
        routes.append(control("outages") { (body: SimulatorControl.Outage) throws(AppStoreSimulator.Failure) in
            try simulator.makeUnavailable(body.receipt, times: body.times)
            return [:]
        })
        routes.append(control("signed-transactions") { (body: SimulatorControl.Receipt) throws(AppStoreSimulator.Failure) in
            ["signedTransactions": try simulator.signedTransactions(body.receipt)]
        })
        routes += serverAPIRoutes(simulator)
        routes.append(control("server-api") { (body: SimulatorControl.ServerAPI) throws(AppStoreSimulator.Failure) in
            try body.apply(to: simulator)
            return [:]
        })
        routes.append(control("notifications") { (body: SimulatorControl.Notify) throws(AppStoreSimulator.Failure) in
            try deliver(body, simulator)
        })
        return routes
    }

    /// Builds the notification and POSTs it to the gateway; answers what the gateway said.
    private static func deliver(_ notify: SimulatorControl.Notify, _ simulator: AppStoreSimulator)
        throws(AppStoreSimulator.Failure) -> [String: Any] {
        let uuid = notify.notificationUUID ?? UUID().uuidString.lowercased()
        if notify.version == 2 {
            // Recorded with its send attempts for the Server API's notification history.
            let sent = try simulator.sendNotification(notify.receipt, type: notify.type, subtype: notify.subtype,
                                                      transactionId: notify.transactionId, notificationUUID: uuid,
                                                      to: notify.gateway, drop: notify.drop)
            guard let answer = sent.answer else {
                return ["notificationUUID": uuid, "delivered": false]
            }
            return ["gatewayStatus": answer.status, "gatewayBody": String(decoding: answer.body, as: UTF8.self),
                    "notificationUUID": uuid]
        }
        let body = try simulator.notificationV1(notify.receipt, type: notify.type, password: notify.password)
        do {
            let answer = try NotificationPoster.post(body, to: notify.gateway)
            return ["gatewayStatus": answer.status, "gatewayBody": String(decoding: answer.body, as: UTF8.self)]
        } catch {
            throw .invalid("the gateway could not be reached: \(error)")
        }
    }

    /// `POST /simulator/<name>`: decode the body, apply, answer `{"status":"ok", …}` (or 400/404).
    /// Blocks: delivering a notification waits on the gateway.
    private static func control<Body: Decodable & SendableMetatype>(
        _ name: String, _ apply: @escaping @Sendable (Body) throws(AppStoreSimulator.Failure) -> [String: Any]) -> SimulatorRoute {
        SimulatorRoute(method: "POST", path: "/simulator/" + name, maxBodyBytes: controlBodyBytes, blocks: true) { request in
            let body: Body
            do { body = try JSONDecoder().decode(Body.self, from: Data(request)) } catch {
                return .error(400, code: "bad_request", message: "\(error)")
            }
            do throws(AppStoreSimulator.Failure) {
                var answer = try apply(body)
                answer["status"] = "ok"
                return .json(200, ReceiptRendering.json(answer))
            } catch {
                let missing = switch error { case .unknownReceipt, .unknownTransaction: true; default: false }
                return .error(missing ? 404 : 400, code: missing ? "not_found" : "bad_request", message: error.description)
            }
        }
    }
}

extension SimulatorResponse {
    static func json(_ status: Int, _ body: Data) -> SimulatorResponse {
        SimulatorResponse(status: status, contentType: "application/json", body: Array(body))
    }

    /// The gateway's error shape, `{"error":{"code":…,"message":…}}` (http-api.md, Conventions).
    static func error(_ status: Int, code: String, message: String) -> SimulatorResponse {
        json(status, ReceiptRendering.json(["error": ["code": code, "message": message]]))
    }
}
