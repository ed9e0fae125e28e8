import AppStoreKit
import Entitle
import Foundation
import IssueCatalog
import Wire

/// The App Store Server API played from the script (appstore.md "App Store Server API"; issue
/// #12): a customer is one scripted receipt, found by any of its transaction ids in the
/// environment asked. Answers are Apple's shapes, pages of 20, signed by the test CA.
extension AppStoreSimulator {
    /// Items per page of the history, refund and notification history endpoints, as Apple.
    public static let serverAPIPageSize = 20

    public enum ServerAPIEndpoint: String, Sendable, CaseIterable {
        case history, statuses, transaction, notificationHistory, testNotification, refunds, extend
    }

    // MARK: Settings

    public var serverAPISettings: ServerAPISettings { serverAPIState.withLock { $0.settings } }

    public func configureServerAPI(_ change: (inout ServerAPISettings) -> Void) {
        serverAPIState.withLock { change(&$0.settings) }
    }

    // MARK: Answering

    /// The answer to one Server API request at `environment`'s base URL. `id` is the path's
    /// transaction id (nil for the notification endpoints).
    public func serverAPI(_ endpoint: ServerAPIEndpoint, _ request: SimulatorRequest, id: String?,
                          at environment: StoreEnvironment) -> SimulatorResponse {
        let now = self.now
        let gate: SimulatorResponse? = serverAPIState.withLock { state in
            guard ServerAPITokenCheck.accepts(request.authorization, settings: state.settings, bundleId: bundleId, now: now) else {
                return .bare(401)
            }
            if environment == .production, state.settings.neverReleased { return .bare(401) }
            if state.settings.rateLimitedRequests > 0 {
                state.settings.rateLimitedRequests -= 1
                var answer = SimulatorResponse.appleError(429, code: 4290000, "Rate limit exceeded.")
                answer.headers["Retry-After"] = String(now.millisecondsSinceEpoch + state.settings.retryAfterMilliseconds)
                return answer
            }
            return nil
        }
        if let gate { return gate }
        switch endpoint {
        case .notificationHistory: return notificationHistory(request, at: environment)
        case .testNotification: return testNotification(at: environment)
        default: break
        }
        guard let id, let (receiptData, receipt) = customer(holding: id, in: environment) else {
            return .appleError(404, code: 4040010, "Transaction id not found.")
        }
        let stamped = signer.stamped(environment: environment)
        func sign(_ t: ScriptedTransaction) -> String {
            stamped.signedTransaction(ReceiptRendering.signedTransactionFields(t), signedDate: now) ?? ""
        }
        let ordered = receipt.transactions.sorted { ($0.purchaseDate, $0.transactionId) < ($1.purchaseDate, $1.transactionId) }
        switch endpoint {
        case .history:
            return page(ordered, request, environment: environment, sign: sign)
        case .refunds:
            return page(ordered.filter { $0.cancellationDate != nil }, request, environment: environment, sign: sign)
        case .transaction:
            guard let transaction = ordered.first(where: { $0.transactionId == id }) else {
                return .appleError(404, code: 4040010, "Transaction id not found.")
            }
            return .json(200, ReceiptRendering.json(["signedTransactionInfo": sign(transaction)]))
        case .statuses:
            let delay = serverAPISettings.statusesDelayMilliseconds
            if delay > 0 { Thread.sleep(forTimeInterval: Double(delay) / 1000) }
            return statuses(ordered, receipt.renewals, environment: environment, now: now, sign: sign)
        case .extend:
            return extend(id, request, receiptData: receiptData, ordered, now: now)
        case .notificationHistory, .testNotification:
            return .appleError(500, code: 5000000, "unreachable")
        }
    }

    /// The receipt (one customer) of `environment` holding `id` as a transaction or original id.
    private func customer(holding id: String, in environment: StoreEnvironment) -> (String, ScriptedReceipt)? {
        allReceipts.sorted { $0.key < $1.key }.first { _, receipt in
            receipt.environment == environment
                && receipt.transactions.contains { $0.transactionId == id || $0.originalTransactionId == id }
        }
    }

    /// Transaction history and refund lookup v2: `revision` is where the next page starts.
    private func page(_ transactions: [ScriptedTransaction], _ request: SimulatorRequest, environment: StoreEnvironment,
                      sign: (ScriptedTransaction) -> String) -> SimulatorResponse {
        let start = request.queryValue("revision").flatMap(Self.offset(revision:)) ?? 0
        let slice = transactions.dropFirst(start).prefix(Self.serverAPIPageSize)
        let next = start + slice.count
        return .json(200, ReceiptRendering.json([
            "revision": Self.revision(offset: next), "hasMore": next < transactions.count, "bundleId": bundleId,
            "appAppleId": signer.appAppleId, "environment": ReceiptRendering.environmentName(environment),
            "signedTransactions": slice.map(sign),
        ]))
    }

    static func revision(offset: Int) -> String { "rev_\(offset)" }
    static func offset(revision: String) -> Int? { revision.hasPrefix("rev_") ? Int(revision.dropFirst(4)) : nil }

    /// Get All Subscription Statuses: the newest transaction of every subscription, by group.
    private func statuses(_ ordered: [ScriptedTransaction], _ renewals: [ScriptedRenewal], environment: StoreEnvironment,
                          now: Instant, sign: (ScriptedTransaction) -> String) -> SimulatorResponse {
        let stamped = signer.stamped(environment: environment)
        var latest: [String: ScriptedTransaction] = [:]
        for t in ordered where t.expiresDate != nil { latest[t.originalTransactionId] = t }
        var groups: [String: [[String: Any]]] = [:]
        for (originalTransactionId, t) in latest.sorted(by: { $0.key < $1.key }) {
            let renewal = renewals.first { $0.originalTransactionId == originalTransactionId }
            var entry: [String: Any] = ["originalTransactionId": originalTransactionId, "signedTransactionInfo": sign(t),
                                        "status": Self.status(t, renewal, now: now)]
            entry["signedRenewalInfo"] = renewal.flatMap {
                stamped.signedRenewalInfo(ReceiptRendering.signedRenewalFields($0), signedDate: now)
            }
            groups[t.subscriptionGroupIdentifier ?? "default", default: []].append(entry)
        }
        return .json(200, ReceiptRendering.json([
            "environment": ReceiptRendering.environmentName(environment), "bundleId": bundleId, "appAppleId": signer.appAppleId,
            "data": groups.sorted { $0.key < $1.key }.map { ["subscriptionGroupIdentifier": $0.key, "lastTransactions": $0.value] },
        ]))
    }

    /// 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
    static func status(_ t: ScriptedTransaction, _ renewal: ScriptedRenewal?, now: Instant) -> Int {
        if t.cancellationDate != nil { return 5 }
        if let expires = t.expiresDate, expires > now { return 1 }
        if let grace = renewal?.gracePeriodExpiresDate, grace > now { return 4 }
        return renewal?.isInBillingRetryPeriod == true ? 3 : 2
    }

    /// Extend a renewal date: the subscription's newest transaction expires `extendByDays` later.
    private func extend(_ originalTransactionId: String, _ request: SimulatorRequest, receiptData: String,
                        _ ordered: [ScriptedTransaction], now: Instant) -> SimulatorResponse {
        let body = (try? JSONParser().parse(bytes: request.body).objectValue) ?? JSONObject()
        guard let days = body["extendByDays"]?.integerValue, (1...Int64(ServerAPIExtension.maximumDays)).contains(days) else {
            return .appleError(400, code: 4000009, "Invalid extend by days value.")
        }
        guard let reason = body["extendReasonCode"]?.integerValue, ServerAPIExtension.reasonCodes.contains(Int(reason)) else {
            return .appleError(400, code: 4000010, "Invalid extend reason code.")
        }
        guard body["requestIdentifier"]?.stringValue?.isEmpty == false else {
            return .appleError(400, code: 4000011, "Invalid request identifier.")
        }
        guard var newest = ordered.last(where: { $0.originalTransactionId == originalTransactionId }),
              let expires = newest.expiresDate else {
            return .appleError(404, code: 4040005, "Original transaction id not found.")
        }
        newest.expiresDate = expires.adding(milliseconds: days * 86_400_000)
        do { try addTransaction(newest, to: receiptData) } catch {
            return .appleError(500, code: 5000000, "\(error)")
        }
        return .json(200, ReceiptRendering.json([
            "effectiveDate": now.millisecondsSinceEpoch, "originalTransactionId": originalTransactionId,
            "webOrderLineItemId": newest.webOrderLineItemId ?? newest.transactionId, "success": true,
        ]))
    }
}

extension SimulatorResponse {
    /// Apple's error shape, `{"errorCode", "errorMessage"}`.
    static func appleError(_ status: Int, code: Int, _ message: String) -> SimulatorResponse {
        json(status, ReceiptRendering.json(["errorCode": code, "errorMessage": message]))
    }

    /// A status with an empty body (Apple's 401).
    static func bare(_ status: Int) -> SimulatorResponse {
        SimulatorResponse(status: status, contentType: "application/json", body: [])
    }
}
