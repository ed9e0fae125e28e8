import AppStoreKit
import Entitle
import GatewayStore

/// What one V2 notification was and what it did ("every V2 type handled or
/// recorded"). Every type is answered 200 once verified: types that carry a signed transaction or
/// renewal info (`SUBSCRIBED`, `DID_RENEW`, `REFUND`, `REFUND_REVERSED`, `REVOKE`,
/// `RENEWAL_EXTENDED`, `OFFER_REDEEMED`, `ONE_TIME_CHARGE`, `PRICE_INCREASE`, …) are handled by
/// storing those facts (E1 merges a reversal or an extension as the newer description); the
/// others (`TEST`, `CONSUMPTION_REQUEST`, `RENEWAL_EXTENSION` summaries, unknown types) are
/// recorded: counted by type in `/metrics`, and returned here for the account history's recorder.
package struct NotificationV2Outcome: Sendable {
    package let notification: NotificationV2
    package let facts: VerifiedFacts
    package let result: IngestResult

    package enum Handling: String, Sendable {
        /// Its facts were stored (or had been: a duplicate changes nothing).
        case facts
        /// Nothing to store: recorded only.
        case recorded
    }

    package var handling: Handling { facts.transactions.isEmpty && facts.renewals.isEmpty ? .recorded : .facts }
}

/// The V2 notification types of appstore.md, as `/metrics` labels: any other type is counted as
/// `OTHER`, so a sender cannot grow the label set.
package enum NotificationV2Types {
    package static let known: Set<String> = [
        "SUBSCRIBED", "DID_RENEW", "DID_FAIL_TO_RENEW", "GRACE_PERIOD_EXPIRED", "EXPIRED", "DID_CHANGE_RENEWAL_PREF",
        "DID_CHANGE_RENEWAL_STATUS", "REFUND", "REFUND_REVERSED", "REFUND_DECLINED", "REVOKE", "RENEWAL_EXTENDED",
        "RENEWAL_EXTENSION", "PRICE_INCREASE", "OFFER_REDEEMED", "CONSUMPTION_REQUEST", "ONE_TIME_CHARGE",
        "EXTERNAL_PURCHASE_TOKEN", "TEST",
    ]

    package static func label(_ type: String) -> String { known.contains(type) ? type : "OTHER" }
}
