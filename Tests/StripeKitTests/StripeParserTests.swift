import Entitle
import IssueCatalog
import StripeKit
import Testing
import Wire

/// E26 from both API shapes: a paid line's own period, never the invoice's.
@Suite struct StripeParserTests {
    static let january = Instant(rfc3339: "2026-01-01T00:00:00Z")!
    static let february = Instant(rfc3339: "2026-02-01T00:00:00Z")!

    func transactions(_ text: String) throws -> [Transaction] {
        let event = try StripeEvent.parse(Array(text.utf8))
        let invoice = try StripeInvoice(event.object)
        return StripeFacts.transactions(of: invoice, source: .stripeEvent, paidAtFallback: event.created)
    }

    @Test(arguments: [StripeSamples.basilInvoicePaid, StripeSamples.oldInvoicePaid])
    func e26TheLinePeriodNotTheInvoicePeriod(_ body: String) throws {
        let found = try transactions(body)
        #expect(found.count == 1)
        let t = try #require(found.first)
        #expect(t.store == .stripe && t.environment == .production)
        #expect(t.transactionId == "in_1Qa/il_1Qa" && t.originalTransactionId == "sub_4k" && t.productId == "price_monthly")
        #expect(t.purchaseDate == Self.january && t.expiresDate == Self.february)
        #expect(t.offer == nil)
    }

    @Test func bothShapesGiveTheSameFacts() throws {
        #expect(try transactions(StripeSamples.basilInvoicePaid) == transactions(StripeSamples.oldInvoicePaid))
    }

    @Test func e26AZeroTrialLineCountsAsAFreeTrial() throws {
        let body = StripeSamples.basilInvoicePaid
            .replacingOccurrences(of: #""amount":990,"#, with: #""amount":0,"description":"Trial period for Magazine","#)
            .replacingOccurrences(of: "subscription_cycle", with: "subscription_create")
        let t = try #require(try transactions(body).first)
        #expect(t.offer == .freeTrial && t.purchaseDate == Self.january)
    }

    @Test(arguments: ["open", "void", "uncollectible", "draft"])
    func e26OnlyPaidInvoicesEntitle(_ status: String) throws {
        #expect(try transactions(StripeSamples.basilInvoicePaid.replacingOccurrences(of: #""status":"paid""#, with: #""status":"\#(status)""#)).isEmpty)
    }

    @Test func aTestModeInvoiceIsSandbox() throws {
        let t = try #require(try transactions(StripeSamples.basilInvoicePaid.replacingOccurrences(of: "true", with: "false")).first)
        #expect(t.environment == .sandbox)
    }

    @Test func aLineWithoutASubscriptionIsAOneOffPurchaseOwnedByItsInvoice() throws {
        let body = #"""
        {"id":"evt_2","object":"event","created":1767225605,"livemode":true,"type":"invoice.paid",
         "data":{"object":{"id":"in_2","status":"paid","livemode":true,"status_transitions":{"paid_at":1767225601},
          "lines":{"data":[{"id":"il_2","amount":490,"period":{"start":1767225600,"end":1767225600},
           "parent":{"type":"invoice_item_details","invoice_item_details":{"invoice_item":"ii_1"}},
           "pricing":{"type":"price_details","price_details":{"price":"price_issue_jan","product":"prod_jan"}}},
          {"id":"il_3","amount":-100,"period":{"start":1767225600,"end":1767225600},
           "pricing":{"type":"price_details","price_details":{"price":"price_credit"}}}]}}}}
        """#
        let found = try transactions(body)
        #expect(found.count == 1)
        let t = try #require(found.first)
        #expect(t.transactionId == "in_2/il_2" && t.originalTransactionId == "in_2" && t.productId == "price_issue_jan")
        #expect(t.expiresDate == nil && t.purchaseDate == Instant(secondsSinceEpoch: 1_767_225_601))
    }

    @Test func malformedBodiesNameTheField() {
        #expect(throws: StripeParseError.self) { try StripeEvent.parse(Array("{".utf8)) }
        #expect(throws: StripeParseError.missingField("data.object")) {
            try StripeEvent.parse(Array(#"{"id":"evt","type":"x","created":1}"#.utf8))
        }
        #expect(throws: StripeParseError.invalidField("data.object.lines.data[0].period.start", expected: "an integer")) {
            let event = try StripeEvent.parse(Array(StripeSamples.basilInvoicePaid.replacingOccurrences(of: #""start":1767225600"#, with: #""start":"x""#).utf8))
            _ = try StripeInvoice(event.object)
        }
    }

    @Test func subscriptionStatesAsRenewalInfo() throws {
        func renewal(_ json: String) throws -> RenewalInfo {
            let fields = try StripeFields.parse(Array(json.utf8))
            return StripeFacts.renewal(of: try StripeSubscription(fields), source: .stripeEvent, observedAt: Self.january)
        }
        let active = try renewal(#"{"id":"sub_1","status":"active","livemode":true,"items":{"data":[{"id":"si","price":{"id":"price_monthly"},"current_period_end":1769904000}]}}"#)
        #expect(active.autoRenewStatus && !active.isInBillingRetry && active.expirationIntent == nil && active.autoRenewProductId == "price_monthly")
        let churning = try renewal(#"{"id":"sub_1","status":"active","cancel_at_period_end":true}"#)
        #expect(!churning.autoRenewStatus)
        let pastDue = try renewal(#"{"id":"sub_1","status":"past_due"}"#)
        #expect(pastDue.isInBillingRetry && pastDue.autoRenewStatus)
        let asked = try renewal(#"{"id":"sub_1","status":"canceled","cancellation_details":{"reason":"cancellation_requested"}}"#)
        #expect(asked.expirationIntent == .voluntary && !asked.autoRenewStatus)
        let failed = try renewal(#"{"id":"sub_1","status":"canceled","cancellation_details":{"reason":"payment_failed"}}"#)
        #expect(failed.expirationIntent == .billing)
        let other = try renewal(#"{"id":"sub_1","status":"canceled","cancellation_details":{"reason":null}}"#)
        #expect(other.expirationIntent == .other)
        let unpaid = try renewal(#"{"id":"sub_1","status":"unpaid"}"#)
        #expect(unpaid.expirationIntent == .billing && !unpaid.isInBillingRetry)
        #expect(throws: StripeParseError.self) { try renewal(#"{"id":"sub_1","status":"sleeping"}"#) }
    }
}
