import Foundation
import HTTPServer
import Synchronization
import Wire

/// The simulator's own control routes (docs/googleplay-simulator.md), beside Google's paths and
/// never under them: scenario steps with their notification pushed to the gateway, the clock,
/// failures on purpose. Errors are the gateway's shape, `{"error":{"code","message"}}`.
extension GooglePlaySimulatorServer {
    /// Control routes run on their own pool: a step waits for the gateway, which meanwhile calls
    /// Google's paths on the standard pool, so pushes can never take every thread those need.
    static let controlPool = WorkerPoolID("control")
    static let controlThreads = 2

    /// Where steps push, settable once the gateway's port is known.
    final class PushSettings: Sendable {
        let target = Mutex<PushTarget?>(nil)
    }

    static func registerControl(_ router: RouterBuilder, _ simulator: GooglePlaySimulator, _ push: PushSettings) {
        router.add("POST", "/simulator/steps/{step}", execution: .pool(controlPool), maxBodyBytes: ControlFields.maximumBytes) {
            request in
            control { () throws(ControlError) in
                let (step, drop) = try ScenarioStep.parse(name: request.pathParameters["step"] ?? "", body: request.body)
                let notification: SimulatedNotification
                do throws(GooglePlaySimulator.Failure) { notification = try simulator.play(step) } catch { throw ControlError(error) }
                return played(step, notification, simulator, target: drop ? nil : push.target.withLock { $0 }, dropped: drop)
            }
        }
        router.add("GET", "/simulator/clock", execution: .inline) { _ in
            control { () throws(ControlError) in (200, render { w in w.field("now", simulator.now.rfc3339) }) }
        }
        router.add("POST", "/simulator/clock", execution: .inline, maxBodyBytes: ControlFields.maximumBytes) { request in
            control { () throws(ControlError) in
                try ClockChange.parse(request.body).apply(to: simulator)
                return (200, render { w in w.field("status", "ok"); w.field("now", simulator.now.rfc3339) })
            }
        }
        router.add("POST", "/simulator/failures", execution: .inline, maxBodyBytes: ControlFields.maximumBytes) { request in
            control { () throws(ControlError) in
                try FailureInjection.parse(request.body).apply(to: simulator)
                return (200, render { w in
                    w.field("status", "ok"); w.field("acknowledgementsStillFailing", simulator.acknowledgementsStillFailing)
                    w.field("ordersRefused", simulator.refusesOrders)
                })
            }
        }
    }

    /// The step's answer: the notification (its decoded data), the purchase as the simulator now
    /// keeps it, and what the gateway answered the push (502 when it could not be reached).
    private static func played(_ step: ScenarioStep, _ notification: SimulatedNotification, _ simulator: GooglePlaySimulator,
                               target: PushTarget?, dropped: Bool) -> (Int, [UInt8]) {
        var answer: PushTarget.Answer?
        var failure: String?
        if let target {
            do { answer = try target.push(notification, from: simulator) } catch { failure = "the gateway could not be reached: \(error)" }
        }
        let token = step.token ?? { if case .refund(.order(let id), _) = step { simulator.order(id)?.token } else { nil } }()
        let body = render { w in
            if let failure {
                w.key("error")
                w.object { w in w.field("code", "push_failed"); w.field("message", failure) }
            } else {
                w.field("status", "ok")
            }
            w.field("now", simulator.now.rfc3339)
            w.field("messageId", notification.messageId)
            w.key("notification")
            w.rawValue(notification.data)
            if let token { purchase(token, simulator, &w) }
            w.field("delivery", answer != nil ? "pushed" : failure != nil ? "failed" : dropped ? "dropped" : "noTarget")
            if let answer {
                w.field("gatewayStatus", answer.status)
                w.field("gatewayBody", String(decoding: answer.body, as: UTF8.self))
            }
        }
        return (failure == nil ? 200 : 502, body)
    }

    /// `"purchase"`: the token's state, expiry and orders, so a script can name them next.
    private static func purchase(_ token: String, _ simulator: GooglePlaySimulator, _ w: inout JSONWriter) {
        if let s = simulator.subscription(token) {
            w.key("purchase")
            w.object { w in
                w.field("token", token); w.field("productId", s.productId); w.field("state", s.state)
                w.field("expiryTime", s.expiryTime?.rfc3339); w.field("linkedPurchaseToken", s.linkedPurchaseToken)
                w.key("orderIds")
                w.array { w in for id in s.orderIds { w.string(id) } }
            }
        } else if let p = simulator.productPurchase(token) {
            w.key("purchase")
            w.object { w in
                w.field("token", token); w.field("productId", p.productId)
                w.field("purchaseState", p.purchaseState == 0 ? "purchased" : p.purchaseState == 2 ? "pending" : "canceled")
                w.field("orderId", p.orderId)
            }
        }
    }

    private static func render(_ members: (inout JSONWriter) -> Void) -> [UInt8] {
        var w = JSONWriter()
        w.object(members)
        return w.bytes
    }

    private static func control(_ run: () throws(ControlError) -> (Int, [UInt8])) -> HTTPResponse {
        let (status, body): (Int, [UInt8])
        do throws(ControlError) { (status, body) = try run() } catch {
            (status, body) = (error.status, render { w in
                w.key("error")
                w.object { w in w.field("code", error.code); w.field("message", error.message) }
            })
        }
        return HTTPResponse(status: status, headers: [("Content-Type", "application/json; charset=UTF-8")], body: body)
    }
}
