import AppStoreKit
import Entitle
import Foundation
import GatewayCrypto
import GatewayStore
import IssueCatalog

/// Turns what reader apps and the App Store send into verified facts and stores them: receipts
/// through verifyReceipt, signed transactions and V2 notifications through their x5c chain, V1
/// notifications through the shared secret. Blocking (it calls Apple): workers only.
package final class AppStoreIngestion: Sendable {
    package let services: AppStoreServices
    /// Where the App Store's facts are stored, as every store's are.
    package let intake: FactIntake
    package let counters: GatewayCounters

    package init(services: AppStoreServices, intake: FactIntake, counters: GatewayCounters) {
        self.services = services; self.intake = intake; self.counters = counters
    }

    package var store: any GatewayStore { intake.store }
    package var clock: any GatewayClock { intake.clock }

    // MARK: Verification

    /// verifyReceipt's outcome table (appstore.md): `receiptRejected` for a receipt Apple refuses,
    /// `appStoreUnavailable` when Apple cannot be reached or the shared secret is wrong.
    package func verifyReceipt(_ receiptData: String) throws(GatewayError) -> VerifiedFacts {
        switch services.receipts.verify(receiptData: receiptData) {
        case .valid(let body, _):
            let response: VerifyReceiptResponse
            do { response = try AppStoreParsers.verifyReceipt(body, observedAt: clock.now()) } catch {
                throw .appStoreUnavailable("the App Store's answer could not be read: \(error)")
            }
            if let expected = services.bundleId, let bundleId = response.bundleId, bundleId != expected {
                throw .receiptRejected("the receipt belongs to another app (\(bundleId))")
            }
            return VerifiedFacts(transactions: response.transactions, renewals: response.renewals,
                                 receiptData: response.latestReceipt ?? receiptData)
        case .rejected(let status):
            throw .receiptRejected("the App Store refused the receipt (status \(status))", appStoreStatus: status)
        case .misconfigured(let status):
            throw .appStoreUnavailable("the gateway's App Store shared secret is wrong (status \(status))")
        case .unavailable(let reason):
            throw .appStoreUnavailable("the App Store could not verify the receipt now: \(reason)")
        }
    }

    /// StoreKit 2 signed transactions (JWS, x5c to a configured root).
    package func verifySignedTransactions(_ compacts: [String]) throws(GatewayError) -> VerifiedFacts {
        guard let verifier = services.signedData else {
            throw .receiptRejected("signed transactions are not accepted: no Apple root certificates or bundle id are configured")
        }
        var facts = VerifiedFacts()
        for (index, compact) in compacts.enumerated() {
            do {
                let verified = try verifier.verify(compact, as: .transaction)
                facts.transactions.append(try AppStoreParsers.signedTransaction(payload: verified.payload))
            } catch {
                throw .receiptRejected("signedTransactions[\(index)] was refused: \(Self.clientText(error))")
            }
        }
        return facts
    }

    /// A refusal as a client may read it: the verifier's fixed sentence (never libcrypto's text),
    /// or the parser's own description of what is missing.
    private static func clientText(_ error: any Error) -> String {
        (error as? SignedDataVerificationError)?.clientDescription ?? "\(error)"
    }

    // MARK: Notifications

    /// A V1 notification's raw body (`notification_type`), proved by the shared secret (E2).
    package func takeV1(_ raw: [UInt8]) throws(GatewayError) {
        let notification: NotificationV1
        do { notification = try AppStoreParsers.notificationV1(Data(raw), observedAt: clock.now()) } catch {
            throw .invalid("malformed V1 notification: \(error)")
        }
        // E2: a V1 notification proves itself only by the shared secret, compared in constant time.
        guard let expected = services.sharedSecret, let sent = notification.password,
              ConstantTime.equals(Array(sent.utf8), Array(expected.utf8)) else {
            throw .unauthorized("wrong shared secret")
        }
        if let receipt = notification.unifiedReceipt {
            try intake.saveForOwners(VerifiedFacts(transactions: receipt.transactions, renewals: receipt.renewals,
                                             receiptData: receipt.latestReceipt), source: .notificationV1)
        }
        counters.notificationsTaken.increment()
    }

    /// A V2 notification, from Apple's POST or replayed from the Server API's notification
    /// history: verified (E2), its facts stored for their owner, deduplicated by UUID. Returns
    /// what it was and what it changed (for the account history's recorder).
    @discardableResult
    package func takeV2(_ signedPayload: String) throws(GatewayError) -> NotificationV2Outcome {
        guard let verifier = services.signedData else { throw .unauthorized("V2 notifications are not accepted: no Apple root certificates or bundle id are configured") }
        let verified: VerifiedNotification
        do { verified = try verifier.verifyNotification(signedPayload) } catch {
            // http-api.md: `invalid` for what is not a notification at all, `unauthorized` for a refused signature.
            switch error {
            case .tooLarge, .malformedCompactSerialization, .malformedHeader, .malformedPayload:
                throw .invalid("malformed V2 notification: \(error.clientDescription)")
            default:
                throw .unauthorized("the notification's signature was refused: \(error.clientDescription)")
            }
        }
        let notification: NotificationV2
        var facts = VerifiedFacts()
        do {
            notification = try AppStoreParsers.notificationV2(payload: verified.notification.payload)
            if let transaction = verified.transaction {
                facts.transactions.append(try AppStoreParsers.signedTransaction(payload: transaction.payload))
            }
            if let renewal = verified.renewalInfo {
                facts.renewals.append(try AppStoreParsers.signedRenewalInfo(payload: renewal.payload))
            }
        } catch {
            throw .invalid("malformed V2 notification: \(error)")
        }
        // A subscription the gateway has not seen whole brings its whole history
        // (Server API configured; best effort), stored in the same unit of work.
        facts = withFullHistories(facts)
        // The UUID is recorded in the unit of work that stores the facts: a failure that may pass
        // (storage busy) leaves it unrecorded, so Apple's retry is taken; a duplicate
        // changes nothing.
        // Its facts are signed payloads (`.signedTransaction`); the history names the notification.
        let result = try intake.saveForOwners(facts, notificationUUID: notification.notificationUUID, source: .notificationV2)
        (result.duplicateNotification ? counters.notificationsDuplicate : counters.notificationsTaken).increment()
        if !result.duplicateNotification { counters.notificationTaken(type: notification.notificationType) }
        return NotificationV2Outcome(notification: notification, facts: facts, result: result)
    }
}
