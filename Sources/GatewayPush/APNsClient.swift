import Foundation
import GatewayCore
import GatewayStore
import IssueCatalog
import Lifecycle
import Wire

/// The APNs provider (Apple: "Sending notification requests to APNs"): a background notification
/// per device, `POST /3/device/<token>` over HTTP/2 to the production or sandbox endpoint by the
/// device's environment, with `apns-push-type: background`, `apns-priority: 5` (background pushes
/// must not use 10), `apns-topic` and a provider token. 429 and 5xx (and no answer) are retried
/// with backoff; 410 means the token is no longer valid; other refusals carry Apple's `reason`,
/// which is logged and counted.
package final class APNsClient: PushSender {
    package struct Settings: Sendable {
        package var productionURL: String
        package var sandboxURL: String
        package var topic: String

        package init(productionURL: String, sandboxURL: String, topic: String) {
            self.productionURL = productionURL; self.sandboxURL = sandboxURL; self.topic = topic
        }
        /// Attempts per notification in all (the first and the retries).
        package var attempts = 5
        package var backoff = RetryBackoff(base: .seconds(1), maximum: .seconds(30))
        package var http = CurlHTTP2Client.Settings()
    }

    private let settings: Settings
    private let token: APNsProviderToken
    private let http: CurlHTTP2Client
    private let clock: any GatewayClock
    private let log: @Sendable (String) -> Void

    package init(settings: Settings, token: APNsProviderToken, clock: any GatewayClock,
         log: @escaping @Sendable (String) -> Void = APNsClient.standardErrorLog) {
        self.settings = settings; self.token = token; self.clock = clock; self.log = log
        http = CurlHTTP2Client(settings: settings.http)
    }

    package static let standardErrorLog: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data("issue-gateway: apns: \(line)\n".utf8))
    }

    package func send(_ pushes: [PushNotification], stop: StopToken?) -> [PushOutcome] {
        var outcomes = [PushOutcome](repeating: .failed, count: pushes.count)
        var waiting = Array(pushes.indices)
        var renewToken = false
        for attempt in 1...max(1, settings.attempts) where !waiting.isEmpty {
            if attempt > 1 {
                let delay = settings.backoff.delay(afterFailures: attempt - 1)
                if let stop { if stop.pause(for: delay) { return outcomes } } else { Thread.sleep(forTimeInterval: Double(delay.milliseconds) / 1000) }
            }
            guard let bearer = token.bearer(unixSeconds: clock.now().secondsSinceEpoch, renew: renewToken) else {
                log("the provider token could not be signed")
                return outcomes
            }
            renewToken = false
            let answers = http.perform(waiting.map { request(pushes[$0], bearer: bearer) }) { stop?.isStopRequested ?? false }
            var retry: [Int] = []
            for (index, answer) in zip(waiting, answers) {
                switch Self.classify(answer) {
                case .done(let outcome):
                    outcomes[index] = outcome
                    if case .rejected(let reason) = outcome {
                        log("\(answer.status) \(reason) for device \(pushes[index].device.apnsToken.prefix(8))…")
                    }
                case .retry(let renew):
                    renewToken = renewToken || renew
                    retry.append(index)
                }
            }
            waiting = retry
        }
        return outcomes
    }

    package enum Verdict: Equatable {
        case done(PushOutcome)
        case retry(renewToken: Bool)
    }

    /// Apple's status table: 200 sent; 410 unregistered; 429, 5xx and no answer retried; 403 with
    /// an expired or invalid provider token retried with a new token; anything else refused.
    package static func classify(_ answer: HTTP2Response) -> Verdict {
        let object = (try? JSONValue.parse(bytes: answer.body))?.objectValue
        let reason = object?["reason"]?.stringValue ?? "status\(answer.status)"
        switch answer.status {
        case 200: return .done(.sent)
        case 410: return .done(.unregistered(since: object?["timestamp"]?.integerValue.map(Instant.init(millisecondsSinceEpoch:))))
        case 0, 429, 500...599: return .retry(renewToken: false)
        case 403 where reason == "ExpiredProviderToken": return .retry(renewToken: true)
        default: return .done(.rejected(reason: reason))
        }
    }

    private func request(_ push: PushNotification, bearer: String) -> HTTP2Request {
        let base = push.device.environment == .sandbox ? settings.sandboxURL : settings.productionURL
        var body = JSONWriter()
        body.object { w in
            w.key("aps")
            w.object { w in w.field("content-available", 1) }
            w.field("publicationId", push.issue.publicationId)
            w.field("issueId", push.issue.issueId)
        }
        return HTTP2Request(url: base + "/3/device/" + push.device.apnsToken,
                            headers: ["authorization: bearer " + bearer, "apns-push-type: background", "apns-priority: 5",
                                      "apns-topic: " + settings.topic, "content-type: application/json"],
                            body: body.bytes)
    }
}
