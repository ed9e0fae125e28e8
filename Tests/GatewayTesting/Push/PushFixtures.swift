import Entitle
import Foundation
@testable import GatewayConfiguration
import GatewayStore
import Lifecycle
import Synchronization
import Wire

/// A `PushSender` that records what it was asked to send and answers as told.
package final class RecordingPushSender: PushSender {
    private let sent = Mutex<[PushNotification]>([])
    private let answer: @Sendable (PushNotification) -> PushOutcome

    package init(answer: @escaping @Sendable (PushNotification) -> PushOutcome = { _ in .sent }) { self.answer = answer }

    package var pushes: [PushNotification] { sent.withLock { $0 } }

    package func send(_ pushes: [PushNotification], stop: StopToken?) -> [PushOutcome] {
        sent.withLock { $0 += pushes }
        return pushes.map(answer)
    }
}

package extension GatewayHarness {
    package static let apnsTeamId = "TEAM123456"
    package static let apnsKeyId = "KEY1234567"
    package static let apnsTopic = "com.example.reader"

    /// A gateway with webhooks and pushes on (the webhook and APNs endpoints lead nowhere unless a
    /// test says otherwise; these tests drive the services' steps themselves).
    package static func withPushes(apnsKeyPath: String, apnsURL: String = "https://127.0.0.1:9", caFile: String? = nil,
                           webhookURL: String = "http://127.0.0.1:9/hooks") throws -> GatewayHarness {
        try GatewayHarness(configure: { c in
            c.push.webhookURL = webhookURL
            c.push.webhookSecret = "webhook-secret-0123456789"
            c.push.apnsKeyId = apnsKeyId
            c.push.apnsTeamId = apnsTeamId
            c.push.apnsPrivateKeyPath = apnsKeyPath
            c.push.apnsTopic = apnsTopic
            c.push.apnsURL = apnsURL
            c.push.apnsSandboxURL = apnsURL + "/sandbox"
            c.push.apnsCAFile = caFile
        })
    }

    /// Registers one device for the account through the API; its token is derived from `n`.
    package func registerDevice(_ account: (id: String, token: String), _ n: Int, environment: String = "production") throws -> String {
        let token = String(format: "%064x", n)
        let response = try client.post("/v1/accounts/\(account.id)/devices", as: account.token,
                                       json: #"{"platform":"ios","apnsToken":"\#(token)","environment":"\#(environment)"}"#)
        guard response.status == 201 else { throw HarnessError.unexpected("device: \(response.status) \(response.text)") }
        return token
    }

    /// Stores App Store facts for the account as the verified-facts path does.
    package func save(_ accountId: String, transactions: [Transaction], renewals: [RenewalInfo] = []) throws {
        try store(VerifiedFacts(transactions: transactions, renewals: renewals), for: accountId)
    }

    /// Runs a push fan-out to the end of its open jobs.
    package func drainPushJobs(_ fanOut: PushFanOut) throws {
        var rounds = 0
        while try !runtime.core.store.openPushJobs().isEmpty, rounds < 10_000 {
            _ = try fanOut.step()
            rounds += 1
        }
    }
}
