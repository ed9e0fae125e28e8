import AppStoreKit
import Entitle
import Foundation
import IssueCatalog
import Lifecycle
import Wire

/// V2 notifications as the simulated App Store sends them, kept with their send attempts for the
/// Server API's notification history (appstore.md: what never arrived is recovered from it).
extension AppStoreSimulator {
    /// What Apple records for a delivery.
    static let sendSucceeded = "SUCCESS"
    static let sendFailedStatus = "UNSUCCESSFUL_HTTP_RESPONSE_CODE"
    static let sendFailedConnection = "NO_RESPONSE"

    /// Builds a V2 notification about the receipt and delivers it to `gateway` (default: the
    /// Server API settings' `notificationURL`), recording the attempt; with `drop` it is recorded
    /// as a failed delivery and never sent, as when the gateway was unreachable.
    /// Returns the notification's UUID and the gateway's answer (nil when dropped or unreachable).
    @discardableResult
    public func sendNotification(_ receiptData: String, type: String, subtype: String? = nil, transactionId: String? = nil,
                                 notificationUUID: String = UUID().uuidString.lowercased(), to gateway: URL? = nil,
                                 drop: Bool = false) throws(Failure) -> (notificationUUID: String, answer: NotificationPoster.Answer?) {
        let (signedPayload, environment) = try signedNotificationV2(receiptData, type: type, subtype: subtype,
                                                                    transactionId: transactionId, notificationUUID: notificationUUID)
        let ids = Set(receipt(receiptData)?.transactions.flatMap { [$0.transactionId, $0.originalTransactionId] } ?? [])
        record(SentNotification(environment: environment, notificationUUID: notificationUUID, type: type,
                                signedPayload: signedPayload, signedDate: now, transactionIds: ids, attempts: []))
        if drop {
            addAttempt(notificationUUID, Self.sendFailedStatus)
            return (notificationUUID, nil)
        }
        return (notificationUUID, deliver(notificationUUID, signedPayload: signedPayload, to: gateway))
    }

    /// POSTs a recorded notification and records how it went.
    func deliver(_ uuid: String, signedPayload: String, to gateway: URL?) -> NotificationPoster.Answer? {
        guard let url = gateway ?? serverAPISettings.notificationURL else {
            addAttempt(uuid, Self.sendFailedConnection)
            return nil
        }
        do {
            let answer = try NotificationPoster.post(ReceiptRendering.json(["signedPayload": signedPayload]), to: url)
            addAttempt(uuid, (200...299).contains(answer.status) ? Self.sendSucceeded : Self.sendFailedStatus)
            return answer
        } catch {
            addAttempt(uuid, Self.sendFailedConnection)
            return nil
        }
    }

    private func record(_ notification: SentNotification) {
        serverAPIState.withLock { state in
            state.sent.append(notification)
            if state.sent.count > ServerAPIState.sentLimit { state.sent.removeFirst(state.sent.count - ServerAPIState.sentLimit) }
        }
    }

    private func addAttempt(_ uuid: String, _ result: String) {
        let at = now
        serverAPIState.withLock { state in
            if let index = state.sent.lastIndex(where: { $0.notificationUUID == uuid }) { state.sent[index].attempts.append((at, result)) }
        }
        serverAPIState.broadcast()
    }

    /// Waits until `count` delivery attempts have been recorded in all (a test notification is
    /// delivered after its request was answered), or `timeout` passes; true when they were.
    public func waitForDeliveryAttempts(_ count: Int, timeout: TimeInterval) -> Bool {
        serverAPIState.withLock(when: { $0.deliveryAttempts >= count }, timeout: .seconds(timeout)) { $0.deliveryAttempts >= count }
    }

    /// The UUIDs of the notifications sent so far, with whether their last delivery failed.
    public var sentNotifications: [(notificationUUID: String, type: String, failed: Bool)] {
        serverAPIState.withLock { $0.sent.map { ($0.notificationUUID, $0.type, $0.failed) } }
    }

    // MARK: Server API endpoints

    /// Get Notification History: `{startDate, endDate, notificationType?, transactionId?,
    /// onlyFailures?}`, pages of 20 by `paginationToken`.
    func notificationHistory(_ request: SimulatorRequest, at environment: StoreEnvironment) -> SimulatorResponse {
        guard let body = try? JSONParser().parse(bytes: request.body).objectValue,
              let start = body["startDate"]?.integerValue, let end = body["endDate"]?.integerValue, start <= end else {
            return .appleError(400, code: 4000016, "Invalid start or end date.")
        }
        let type = body["notificationType"]?.stringValue
        let transactionId = body["transactionId"]?.stringValue
        let onlyFailures = body["onlyFailures"]?.boolValue ?? false
        let matching = serverAPIState.withLock { state in
            state.sent.filter { sent in
                sent.environment == environment && (start...end).contains(sent.signedDate.millisecondsSinceEpoch)
                    && type.map { $0 == sent.type } ?? true && transactionId.map { sent.transactionIds.contains($0) } ?? true
                    && (!onlyFailures || sent.failed)
            }
        }
        let offset = request.queryValue("paginationToken").flatMap(Self.offset(revision:)) ?? 0
        let slice = matching.dropFirst(offset).prefix(Self.serverAPIPageSize)
        let next = offset + slice.count
        var answer: [String: Any] = [
            "hasMore": next < matching.count,
            "notificationHistory": slice.map { sent in
                ["signedPayload": sent.signedPayload,
                 "sendAttempts": sent.attempts.map { ["attemptDate": $0.0.millisecondsSinceEpoch, "sendAttemptResult": $0.1] }]
            },
        ]
        if next < matching.count { answer["paginationToken"] = Self.revision(offset: next) }
        return .json(200, ReceiptRendering.json(answer))
    }

    /// Request a Test Notification: answers its token at once and then delivers a `TEST`
    /// notification to the settings' `notificationURL` (off the request's thread).
    func testNotification(at environment: StoreEnvironment) -> SimulatorResponse {
        let uuid = UUID().uuidString.lowercased()
        let signedDate = now
        guard let signedPayload = signer.stamped(environment: environment)
            .signedNotification(type: "TEST", notificationUUID: uuid, signedDate: signedDate) else {
            return .appleError(500, code: 5000000, "signing failed")
        }
        record(SentNotification(environment: environment, notificationUUID: uuid, type: "TEST", signedPayload: signedPayload,
                                signedDate: signedDate, transactionIds: [], attempts: []))
        JoinableThread(name: "simulator-test-notification") { [self] in
            _ = deliver(uuid, signedPayload: signedPayload, to: nil)
        }.detach()
        return .json(200, ReceiptRendering.json(["testNotificationToken": "\(uuid)_\(signedDate.millisecondsSinceEpoch)"]))
    }
}
