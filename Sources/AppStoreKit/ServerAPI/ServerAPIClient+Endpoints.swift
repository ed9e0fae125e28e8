import Entitle
import Foundation
import IssueCatalog
import Wire

/// The endpoints of appstore.md's table, decoded strictly and with every signed item verified
/// like any V2 payload (E2): one refused item refuses the whole answer.
extension ServerAPIClient {
    /// Transaction history v2, every page (revision paging), for any transaction id of the customer.
    public func transactionHistory(_ transactionId: String, in environment: EnvironmentChoice = nil)
        throws(ServerAPIFailure) -> ServerAPIHistory {
        try revisionPaged(name: "history", in: environment) { .transactionHistory(transactionId, revision: $0) }
    }

    /// Pages of signed transactions resent with the previous page's `revision` until `hasMore`
    /// is false: the history and refund lookup endpoints alike.
    private func revisionPaged(name: String, in environment: EnvironmentChoice,
                               _ page: (_ revision: String?) -> ServerAPIRequest) throws(ServerAPIFailure) -> ServerAPIHistory {
        var (found, transactions, revision) = (environment, [VerifiedPayload](), String?.none)
        for _ in 0..<configuration.maximumPages {
            let (body, answered) = try send(page(revision), in: found)
            found = answered
            let answer = try ServerAPIAnswer(body, name: name, limit: configuration.maximumResponseBytes)
            transactions += try verify(try answer.strings("signedTransactions"), as: .transaction, in: answered)
            revision = try answer.string("revision")
            guard try answer.bool("hasMore") == true, revision != nil else {
                return ServerAPIHistory(environment: answered, transactions: transactions)
            }
        }
        throw .tooManyPages(limit: configuration.maximumPages)
    }

    /// Get All Subscription Statuses: the latest transaction and renewal info of every
    /// subscription in the customer's groups.
    public func subscriptionStatuses(_ transactionId: String, in environment: EnvironmentChoice = nil)
        throws(ServerAPIFailure) -> (environment: StoreEnvironment, statuses: [ServerAPISubscriptionStatus]) {
        let (body, answered) = try send(.subscriptionStatuses(transactionId), in: environment)
        let answer = try ServerAPIAnswer(body, name: "statuses", limit: configuration.maximumResponseBytes)
        var statuses: [ServerAPISubscriptionStatus] = []
        for group in try answer.objects("data") {
            for last in try group.objects("lastTransactions") {
                guard let originalTransactionId = try last.string("originalTransactionId") else {
                    throw .malformedResponse("statuses: a last transaction without originalTransactionId")
                }
                statuses.append(ServerAPISubscriptionStatus(
                    status: try last.integer("status").map { Int(clamping: $0) }, originalTransactionId: originalTransactionId,
                    transaction: try last.string("signedTransactionInfo").map { (s) throws(ServerAPIFailure) in
                        try verify(s, as: .transaction, in: answered) },
                    renewalInfo: try last.string("signedRenewalInfo").map { (s) throws(ServerAPIFailure) in
                        try verify(s, as: .renewalInfo, in: answered) }))
            }
        }
        return (answered, statuses)
    }

    /// Get Transaction Info.
    public func transactionInfo(_ transactionId: String, in environment: EnvironmentChoice = nil)
        throws(ServerAPIFailure) -> VerifiedPayload {
        let (body, answered) = try send(.transactionInfo(transactionId), in: environment)
        let answer = try ServerAPIAnswer(body, name: "transaction", limit: configuration.maximumResponseBytes)
        guard let signed = try answer.string("signedTransactionInfo") else {
            throw .malformedResponse("transaction: no signedTransactionInfo")
        }
        return try verify(signed, as: .transaction, in: answered)
    }

    /// Notification history of one environment, every page; `page` sees each page as it
    /// arrives (a long window is replayed without holding it all).
    public func notificationHistory(_ query: ServerAPINotificationQuery, in environment: StoreEnvironment,
                                    page: (_ records: [ServerAPINotificationRecord]) -> Void) throws(ServerAPIFailure) {
        var token: String?
        for _ in 0..<configuration.maximumPages {
            let (body, _) = try send(.notificationHistory(query, paginationToken: token), in: environment)
            let answer = try ServerAPIAnswer(body, name: "notificationHistory", limit: configuration.maximumResponseBytes)
            var records: [ServerAPINotificationRecord] = []
            for item in try answer.objects("notificationHistory") {
                guard let signedPayload = try item.string("signedPayload") else {
                    throw .malformedResponse("notificationHistory: an item without signedPayload")
                }
                let results = try item.objects("sendAttempts").map { (a) throws(ServerAPIFailure) in
                    try a.string("sendAttemptResult") ?? "" }
                records.append(ServerAPINotificationRecord(signedPayload: signedPayload, sendAttemptResults: results))
            }
            page(records)
            token = try answer.string("paginationToken")
            guard try answer.bool("hasMore") == true, token != nil else { return }
        }
        throw .tooManyPages(limit: configuration.maximumPages)
    }

    /// Asks Apple to send a `TEST` notification; returns its `testNotificationToken`.
    public func requestTestNotification(in environment: EnvironmentChoice = nil) throws(ServerAPIFailure) -> String {
        let (body, _) = try send(.testNotification, in: environment)
        guard let token = try ServerAPIAnswer(body, name: "testNotification", limit: configuration.maximumResponseBytes)
            .string("testNotificationToken") else { throw .malformedResponse("testNotification: no testNotificationToken") }
        return token
    }

    /// Refund history v2, every page: the customer's refunded transactions.
    public func refundHistory(_ transactionId: String, in environment: EnvironmentChoice = nil)
        throws(ServerAPIFailure) -> ServerAPIHistory {
        try revisionPaged(name: "refunds", in: environment) { .refundHistory(transactionId, revision: $0) }
    }

    /// Extends one subscription's renewal date.
    public func extendRenewalDate(_ originalTransactionId: String, _ extension: ServerAPIExtension,
                                  in environment: EnvironmentChoice = nil) throws(ServerAPIFailure)
        -> (environment: StoreEnvironment, result: ServerAPIExtensionResult) {
        let (body, answered) = try send(.extendRenewalDate(originalTransactionId, `extension`), in: environment)
        let answer = try ServerAPIAnswer(body, name: "extend", limit: configuration.maximumResponseBytes)
        return (answered, ServerAPIExtensionResult(
            success: try answer.bool("success") ?? false, originalTransactionId: try answer.string("originalTransactionId"),
            webOrderLineItemId: try answer.string("webOrderLineItemId"),
            effectiveDate: try answer.integer("effectiveDate").map(Instant.init(millisecondsSinceEpoch:))))
    }

    // MARK: Verification (E2)

    private func verify(_ compacts: [String], as kind: SignedPayloadKind, in environment: StoreEnvironment)
        throws(ServerAPIFailure) -> [VerifiedPayload] {
        var out: [VerifiedPayload] = []
        for compact in compacts { out.append(try verify(compact, as: kind, in: environment)) }
        return out
    }

    /// Verified like any V2 payload, and from the environment that answered.
    private func verify(_ compact: String, as kind: SignedPayloadKind, in environment: StoreEnvironment)
        throws(ServerAPIFailure) -> VerifiedPayload {
        let verified: VerifiedPayload
        do { verified = try verifier.verify(compact, as: kind) } catch { throw .unverifiable(error) }
        guard verified.environment == environment else {
            throw .unverifiable(.environmentNotAccepted(verified.environment.rawValue))
        }
        return verified
    }
}
