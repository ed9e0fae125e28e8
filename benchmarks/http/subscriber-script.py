#!/usr/bin/env python3
"""App Store simulator script for benchmarks/http/run.sh: one receipt holding a 15-year monthly
subscriber of the sample catalog's monthly magazine (180 renewals from November 2011, two lapses,
one refunded month), in the format of docs/appstore-simulator.md."""
import base64
import datetime
import json

RECEIPT = base64.b64encode(b"BENCHMARK-SUBSCRIBER").decode()
LAPSES = {40, 41, 42, 95}      # months without a renewal (the subscription lapsed)
REFUNDED = 120                 # a month refunded by customer support (E6)


def month_start(index):
    year, month = divmod(10 + index, 12)  # index 0 = November 2011
    return datetime.datetime(2011 + year, month + 1, 20, 9, 0, tzinfo=datetime.timezone.utc)


def iso(instant):
    return instant.strftime("%Y-%m-%dT%H:%M:%SZ")


transactions = []
original = None
for index in range(181):
    if index in LAPSES:
        continue
    start, end = month_start(index), month_start(index + 1)
    transaction_id = str(800000000000000 + index)
    if original is None:
        original = transaction_id
    entry = {"transactionId": transaction_id, "originalTransactionId": original,
             "productId": "monthly.ios.monthly", "purchaseDate": iso(start), "expiresDate": iso(end)}
    if index == REFUNDED:
        entry["cancellationDate"] = iso(start + datetime.timedelta(days=3))
        entry["cancellationReason"] = 0
    transactions.append(entry)

print(json.dumps({
    "bundleId": "com.example.magazines",
    "sharedSecret": "benchmark-secret",
    "receipts": {RECEIPT: {
        "environment": "Production",
        "transactions": transactions,
        "renewals": [{"originalTransactionId": original, "productId": "monthly.ios.monthly",
                      "autoRenewStatus": True}],
    }},
}, indent=1))
