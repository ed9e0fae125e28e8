#!/usr/bin/env python3
"""Signed `invoice.paid` events for benchmarks/stripe/run.sh, one per line as "signature<TAB>body".

make-events.py GATEWAY_URL SECRET EVENTS ACCOUNTS OUT

Creates ACCOUNTS accounts through POST /v1/accounts, then writes EVENTS distinct events in the
basil shape: subscription i % ACCOUNTS renews month after month, each invoice naming its account in
the subscription's metadata (so every event binds and bumps an owner's facts, as in production).
Signed with SECRET at the current time: run the load within Stripe's 300 s tolerance.
"""
import hashlib, hmac, json, sys, time, urllib.request

gateway, secret, events, accounts, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]

ids = []
for _ in range(accounts):
    req = urllib.request.Request(gateway + "/v1/accounts", data=b"", method="POST")
    with urllib.request.urlopen(req) as answer:
        ids.append(json.load(answer)["accountId"])

start = 1767225600  # 2026-01-01
month = 30 * 86400
t = str(int(time.time()))
with open(out, "w") as f:
    for n in range(events):
        sub, cycle = n % accounts, n // accounts
        begin = start + cycle * month
        body = json.dumps({
            "id": f"evt_bench_{n}", "object": "event", "api_version": "2025-03-31.basil", "created": begin + 5,
            "livemode": True, "type": "invoice.paid",
            "data": {"object": {
                "id": f"in_bench_{n}", "object": "invoice", "status": "paid", "billing_reason": "subscription_cycle",
                "customer": f"cus_bench_{sub}", "livemode": True, "amount_paid": 990, "currency": "eur",
                "period_start": begin - month, "period_end": begin, "status_transitions": {"paid_at": begin + 5},
                "parent": {"type": "subscription_details", "subscription_details": {
                    "subscription": f"sub_bench_{sub}", "metadata": {"issue_gateway_account": ids[sub]}}},
                "lines": {"object": "list", "has_more": False, "data": [{
                    "id": f"il_bench_{n}", "amount": 990, "period": {"start": begin, "end": begin + month},
                    "parent": {"type": "subscription_item_details", "subscription_item_details": {
                        "subscription": f"sub_bench_{sub}", "subscription_item": f"si_bench_{sub}", "proration": False}},
                    "pricing": {"type": "price_details", "price_details": {"price": "price_monthly_monthly", "product": "prod_monthly"}}}]}}}},
            separators=(",", ":"))
        mac = hmac.new(secret.encode(), (t + "." + body).encode(), hashlib.sha256).hexdigest()
        f.write(f"t={t},v1={mac}\t{body}\n")
