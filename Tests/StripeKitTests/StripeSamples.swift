/// Stripe bodies for the parser tests: stripe.md's basil `invoice.paid` and its pre-basil twin.
enum StripeSamples {
    static let basilInvoicePaid = #"""
    {"id":"evt_1Qa","object":"event","api_version":"2025-03-31.basil","created":1767225605,
     "livemode":true,"type":"invoice.paid","data":{"object":{"id":"in_1Qa","object":"invoice",
     "status":"paid","billing_reason":"subscription_cycle","customer":"cus_9x","livemode":true,
     "amount_paid":990,"currency":"eur","period_start":1764547200,"period_end":1767225600,
     "parent":{"type":"subscription_details","subscription_details":{"subscription":"sub_4k","metadata":{}}},
     "lines":{"has_more":false,"data":[{"id":"il_1Qa","amount":990,
      "period":{"start":1767225600,"end":1769904000},
      "parent":{"type":"subscription_item_details","subscription_item_details":
       {"subscription":"sub_4k","subscription_item":"si_7","proration":false}},
      "pricing":{"type":"price_details","price_details":{"price":"price_monthly","product":"prod_mag"}}}]}}}}
    """#

    static let oldInvoicePaid = #"""
    {"id":"evt_1Qb","object":"event","api_version":"2024-06-20","created":1767225605,
     "livemode":true,"type":"invoice.paid","data":{"object":{"id":"in_1Qa","object":"invoice",
     "status":"paid","billing_reason":"subscription_cycle","customer":"cus_9x","livemode":true,
     "subscription":"sub_4k","charge":"ch_1","payment_intent":"pi_1","paid":true,
     "period_start":1764547200,"period_end":1767225600,
     "lines":{"has_more":false,"data":[{"id":"il_1Qa","amount":990,"type":"subscription",
      "subscription":"sub_4k","subscription_item":"si_7","proration":false,
      "period":{"start":1767225600,"end":1769904000},
      "price":{"id":"price_monthly","product":"prod_mag"}}]}}}}
    """#
}
