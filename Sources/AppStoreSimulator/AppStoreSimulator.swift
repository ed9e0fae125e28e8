import AppStoreKit
import Entitle
import Foundation
import IssueCatalog
import Lifecycle
import OutboundHTTP
import Synchronization
import Wire

/// Plays the App Store for scripted receipts: answers verifyReceipt as Apple does
/// (appstore.md's status table, 21007/21008 environment routing), takes scripted changes
/// (renewals, refunds, outages) so a later verification or status poll sees new facts, and
/// builds V1 and signed V2 notifications about its receipts. Thread-safe; no I/O of its own
/// (`AppStoreSimulatorServer` puts it on HTTP).
public final class AppStoreSimulator: Sendable {
    public enum Failure: Error, Equatable, Sendable, CustomStringConvertible {
        case unknownReceipt
        case unknownTransaction(String)
        case signing
        case invalid(String)

        public var description: String {
            switch self {
            case .unknownReceipt: "no such receipt in the script"
            case .unknownTransaction(let id): "the receipt holds no transaction \(id)"
            case .signing: "the test CA could not sign"
            case .invalid(let message): message
            }
        }
    }

    /// One verifyReceipt request as the simulator saw it, for tests and the developer's log.
    public struct Request: Sendable, Equatable {
        public var endpoint: StoreEnvironment
        public var receiptData: String?
        public var status: Int
    }

    /// Requests kept for `requests` (oldest dropped first), so a long-running simulator stays small.
    public static let requestLogLimit = 1000

    private struct State {
        var receipts: [String: ScriptedReceipt]
        var requests: [Request] = []
    }

    public let signer: SimulatedAppStoreSigner
    public let sharedSecret: String?
    private let clock: @Sendable () -> Instant
    private let state: Mutex<State>
    /// The Server API's key, failure modes and sent notifications (`AppStoreSimulator+ServerAPI`);
    /// broadcast on every recorded delivery attempt (`waitForDeliveryAttempts`).
    let serverAPIState = Condition(ServerAPIState())

    public var bundleId: String { signer.bundleId }

    public init(script: SimulatorScript, authority: TestCertificateAuthority,
                clock: @escaping @Sendable () -> Instant = SystemTime.now) {
        signer = SimulatedAppStoreSigner(authority: authority, bundleId: script.bundleId, appAppleId: script.appAppleId)
        sharedSecret = script.sharedSecret
        self.clock = clock
        state = Mutex(State(receipts: script.receipts))
    }

    // MARK: verifyReceipt

    /// The answer to a verifyReceipt POST at `endpoint`'s URL: always a JSON body (Apple answers
    /// HTTP 200 with the status inside).
    func verifyReceipt(requestBody: [UInt8], at endpoint: StoreEnvironment) -> Data {
        let request = (try? JSONSerialization.jsonObject(with: Data(requestBody))) as? [String: Any]
        let receiptData = request?["receipt-data"] as? String
        return state.withLock { state in
            let (status, body) = Self.answer(receiptData: receiptData, password: request?["password"] as? String,
                                             at: endpoint, sharedSecret: sharedSecret, bundleId: bundleId, &state.receipts)
            state.requests.append(Request(endpoint: endpoint, receiptData: receiptData, status: status))
            if state.requests.count > Self.requestLogLimit { state.requests.removeFirst(state.requests.count - Self.requestLogLimit) }
            return ReceiptRendering.json(body)
        }
    }

    private static func answer(receiptData: String?, password: String?, at endpoint: StoreEnvironment,
                               sharedSecret: String?, bundleId: String,
                               _ receipts: inout [String: ScriptedReceipt]) -> (Int, [String: Any]) {
        func status(_ code: Int, retryable: Bool = false) -> (Int, [String: Any]) {
            var body: [String: Any] = ["status": code, "environment": ReceiptRendering.environmentName(endpoint)]
            if retryable { body["is-retryable"] = true }
            return (code, body)
        }
        guard let receiptData, !receiptData.isEmpty, Data(base64Encoded: receiptData) != nil else { return status(21002) }
        guard var receipt = receipts[receiptData] else { return status(21003) }
        if receipt.environment != endpoint { return status(receipt.environment == .sandbox ? 21007 : 21008) }
        if let sharedSecret, password != sharedSecret { return status(21004) }
        // A scripted 0 or 21006 still sends the history (21006: valid but expired, iOS 6 style).
        if let fixed = receipt.status, VerifyReceiptStatus(status: fixed, isRetryable: false) != .valid {
            return status(fixed, retryable: VerifyReceiptStatus(status: fixed, isRetryable: false) == .retryable)
        }
        if receipt.unavailableTimes > 0 {
            receipt.unavailableTimes -= 1
            receipts[receiptData] = receipt
            return status(21005, retryable: true)
        }
        var body = ReceiptRendering.verifyReceiptBody(receiptData: receiptData, receipt: receipt, bundleId: bundleId)
        body["status"] = receipt.status ?? 0
        return (receipt.status ?? 0, body)
    }

    /// Every verifyReceipt request so far (up to `requestLogLimit`), oldest first.
    public var requests: [Request] { state.withLock { $0.requests } }

    // MARK: Scripted changes

    public func receipt(_ receiptData: String) -> ScriptedReceipt? { state.withLock { $0.receipts[receiptData] } }

    /// Adds or replaces a receipt's whole history.
    public func setReceipt(_ receiptData: String, _ receipt: ScriptedReceipt) {
        state.withLock { $0.receipts[receiptData] = receipt }
    }

    /// Adds a transaction (a renewal, a new purchase) or replaces the one with its id.
    public func addTransaction(_ transaction: ScriptedTransaction, to receiptData: String) throws(Failure) {
        try change(receiptData) { receipt throws(Failure) in
            if let index = receipt.transactions.firstIndex(where: { $0.transactionId == transaction.transactionId }) {
                receipt.transactions[index] = transaction
            } else {
                receipt.transactions.append(transaction)
            }
        }
    }

    /// Refunds a transaction (E6): sets its cancellation date (default: now) and reason, and
    /// (E24) V2's `revocationType` and `revocationPercentage` where given (a prorated refund, a
    /// family revoke). `at: nil` with `reverse: true` takes a refund back.
    public func refund(transactionId: String, in receiptData: String, at instant: Instant? = nil,
                       reason: Int = 0, type: String? = nil, percentage: Int? = nil,
                       reverse: Bool = false) throws(Failure) {
        let now = clock()
        try change(receiptData) { receipt throws(Failure) in
            guard let index = receipt.transactions.firstIndex(where: { $0.transactionId == transactionId }) else {
                throw .unknownTransaction(transactionId)
            }
            receipt.transactions[index].cancellationDate = reverse ? nil : (instant ?? now)
            receipt.transactions[index].cancellationReason = reverse ? nil : reason
            receipt.transactions[index].revocationType = reverse ? nil : type
            receipt.transactions[index].revocationPercentage = reverse ? nil : percentage
        }
    }

    /// Replaces the renewal info of the renewal's subscription (or adds it).
    public func setRenewal(_ renewal: ScriptedRenewal, in receiptData: String) throws(Failure) {
        try change(receiptData) { receipt throws(Failure) in
            receipt.renewals.removeAll { $0.originalTransactionId == renewal.originalTransactionId }
            receipt.renewals.append(renewal)
        }
    }

    /// The next `times` requests for this receipt are answered 21005 (`is-retryable`).
    public func makeUnavailable(_ receiptData: String, times: Int) throws(Failure) {
        guard times >= 0 else { throw .invalid("times must be 0 or more") }
        try change(receiptData) { receipt throws(Failure) in receipt.unavailableTimes = times }
    }

    private func change(_ receiptData: String, _ body: (inout ScriptedReceipt) throws(Failure) -> Void) throws(Failure) {
        try state.withLock { state throws(Failure) in
            guard var receipt = state.receipts[receiptData] else { throw .unknownReceipt }
            try body(&receipt)
            state.receipts[receiptData] = receipt
        }
    }

    // MARK: Signed data and notifications

    /// Every transaction of the receipt as a StoreKit 2 signed transaction, in script order.
    public func signedTransactions(_ receiptData: String) throws(Failure) -> [String] {
        let receipt = try existing(receiptData)
        let stamped = signer.stamped(environment: receipt.environment)
        let now = clock()
        return try receipt.transactions.map { t throws(Failure) in
            guard let jws = stamped.signedTransaction(ReceiptRendering.signedTransactionFields(t), signedDate: now) else {
                throw .signing
            }
            return jws
        }
    }

    /// A V1 notification body about the receipt: its whole history as `unified_receipt`.
    /// `password` defaults to the script's shared secret.
    public func notificationV1(_ receiptData: String, type: String, password: String? = nil) throws(Failure) -> Data {
        let receipt = try existing(receiptData)
        return ReceiptRendering.json(ReceiptRendering.notificationV1(type: type, password: password ?? sharedSecret,
                                                                     receiptData: receiptData, receipt: receipt, bundleId: bundleId))
    }

    /// A V2 `{"signedPayload"}` body about one transaction of the receipt (default: the newest by
    /// purchase date) and its subscription's renewal info, signed by the test CA.
    public func notificationV2(_ receiptData: String, type: String, subtype: String? = nil, transactionId: String? = nil,
                               notificationUUID: String = UUID().uuidString.lowercased()) throws(Failure) -> Data {
        let signedPayload = try signedNotificationV2(receiptData, type: type, subtype: subtype, transactionId: transactionId,
                                                     notificationUUID: notificationUUID).signedPayload
        return ReceiptRendering.json(["signedPayload": signedPayload])
    }

    /// The notification's `signedPayload` alone, and the environment it speaks for: what the
    /// Server API's notification history holds.
    public func signedNotificationV2(_ receiptData: String, type: String, subtype: String? = nil, transactionId: String? = nil,
                                     notificationUUID: String = UUID().uuidString.lowercased())
        throws(Failure) -> (signedPayload: String, environment: StoreEnvironment) {
        let receipt = try existing(receiptData)
        let transaction: ScriptedTransaction?
        if let transactionId {
            guard let found = receipt.transactions.first(where: { $0.transactionId == transactionId }) else {
                throw .unknownTransaction(transactionId)
            }
            transaction = found
        } else {
            transaction = receipt.transactions.max { ($0.purchaseDate, $0.transactionId) < ($1.purchaseDate, $1.transactionId) }
        }
        let renewal = transaction.flatMap { t in receipt.renewals.first { $0.originalTransactionId == t.originalTransactionId } }
        let stamped = signer.stamped(environment: receipt.environment)
        let now = clock()
        let signedTransaction = transaction.flatMap { stamped.signedTransaction(ReceiptRendering.signedTransactionFields($0), signedDate: now) }
        let signedRenewal = renewal.flatMap { stamped.signedRenewalInfo(ReceiptRendering.signedRenewalFields($0), signedDate: now) }
        guard transaction == nil || signedTransaction != nil, renewal == nil || signedRenewal != nil,
              let signedPayload = stamped.signedNotification(type: type, subtype: subtype, notificationUUID: notificationUUID,
                                                             signedDate: now, signedTransactionInfo: signedTransaction,
                                                             signedRenewalInfo: signedRenewal)
        else { throw .signing }
        return (signedPayload, receipt.environment)
    }

    /// Every receipt of the script as it stands now (the Server API looks transactions up across them).
    var allReceipts: [String: ScriptedReceipt] { state.withLock { $0.receipts } }

    /// The simulator's clock.
    var now: Instant { clock() }

    private func existing(_ receiptData: String) throws(Failure) -> ScriptedReceipt {
        guard let receipt = receipt(receiptData) else { throw .unknownReceipt }
        return receipt
    }
}

extension SimulatedAppStoreSigner {
    /// The same signer speaking for `environment` (V2 spells it `Production`/`Sandbox`).
    func stamped(environment: StoreEnvironment) -> SimulatedAppStoreSigner {
        var copy = self
        copy.environment = ReceiptRendering.environmentName(environment)
        return copy
    }
}
