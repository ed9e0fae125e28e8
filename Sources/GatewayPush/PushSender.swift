import GatewayCore
import GatewayStore
import IssueCatalog
import Lifecycle
import Wire

/// One background notification: this device, this issue.
package struct PushNotification: Sendable, Equatable {
    package var device: Device
    package var issue: IssueRef
}

/// What became of one notification, once its retries are spent.
package enum PushOutcome: Sendable, Equatable {
    case sent
    /// APNs 410: the token is no longer valid since `since` (Apple's `timestamp`, when given); the
    /// device is forgotten unless it was registered again after that.
    case unregistered(since: Instant?)
    /// APNs refused it for good (400, 403, 404, 413 …) with Apple's `reason`.
    case rejected(reason: String)
    /// No answer or 429/5xx after every retry.
    case failed
}

/// Sends notifications and returns one outcome per notification, in order. Blocking by contract:
/// it runs on the push service's thread, never on an event loop (`APNsClient` sends over HTTP/2
/// with bounded concurrency; tests may record instead).
/// When `stop` is asked to stop, it returns soon, with `.failed` for what it did not finish (the
/// caller then leaves the page to be sent again).
package protocol PushSender: Sendable {
    func send(_ pushes: [PushNotification], stop: StopToken?) -> [PushOutcome]
}
