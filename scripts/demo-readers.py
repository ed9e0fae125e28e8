#!/usr/bin/env python3
"""The scripted readers of scripts/demo (issue #13).

  demo-readers.py script > simulator-script.json   # the App Store simulator's script, dates relative to now
  demo-readers.py play http://127.0.0.1:8080       # each reader makes an account and posts its receipt

The Guide's magazine reader is the example of Apple's Newsstand guide (Figure 5-1): subscribed on
20 February 2012 for a month, renewed once, lapsed on 20 April, came back on 17 June for a month.
The others are placed around today so that their states are the ones they show now.
"""
import base64
import datetime
import json
import sys
import urllib.request

BUNDLE_ID = "com.example.magazines"


def receipt(name):
    return base64.b64encode(("DEMO-RECEIPT-" + name).encode()).decode()


def rfc3339(instant):
    return instant.strftime("%Y-%m-%dT%H:%M:%SZ")


def readers(now):
    day = datetime.timedelta(days=1)
    ago = lambda days: rfc3339(now - days * day)
    return [
        {"name": "guide", "appAccountToken": "6f1c9a52-2d4b-4e8a-9c3e-5b7a1d0e2f41",
         "about": "the Guide's magazine reader: subscribed 20 Feb 2012, lapsed 20 Apr, back 17 Jun for a month (why not May?)",
         "transactions": [
             {"transactionId": "100000000000001", "productId": "monthly.ios.monthly",
              "purchaseDate": "2012-02-20T10:00:00Z", "expiresDate": "2012-03-20T10:00:00Z"},
             {"transactionId": "100000000000002", "originalTransactionId": "100000000000001",
              "productId": "monthly.ios.monthly",
              "purchaseDate": "2012-03-20T10:00:00Z", "expiresDate": "2012-04-20T10:00:00Z"},
             {"transactionId": "100000000000003", "originalTransactionId": "100000000000001",
              "productId": "monthly.ios.monthly",
              "purchaseDate": "2012-06-17T10:00:00Z", "expiresDate": "2012-07-17T10:00:00Z"}],
         "renewals": [{"originalTransactionId": "100000000000001", "productId": "monthly.ios.monthly",
                       "autoRenewStatus": False, "expirationIntent": 1}]},
        {"name": "refund",
         "about": "a yearly Monthly Almanac subscription bought 200 days ago and refunded 30 days ago",
         "transactions": [
             {"transactionId": "200000000000001", "productId": "monthly.ios.annual",
              "purchaseDate": ago(200), "expiresDate": ago(200 - 365),
              "cancellationDate": ago(30), "cancellationReason": 0}],
         "renewals": [{"originalTransactionId": "200000000000001", "productId": "monthly.ios.annual",
                       "autoRenewStatus": False}]},
        {"name": "grace",
         "about": "a monthly Thursday Weekly subscription whose renewal failed 5 days ago: in Apple's grace period",
         "transactions": [
             {"transactionId": "300000000000001", "productId": "weekly.ios.monthly",
              "purchaseDate": ago(65), "expiresDate": ago(35)},
             {"transactionId": "300000000000002", "originalTransactionId": "300000000000001",
              "productId": "weekly.ios.monthly", "purchaseDate": ago(35), "expiresDate": ago(5)}],
         "renewals": [{"originalTransactionId": "300000000000001", "productId": "weekly.ios.monthly",
                       "autoRenewStatus": True, "isInBillingRetryPeriod": True,
                       "gracePeriodExpiresDate": ago(-11)}]},
        {"name": "bundle",
         "about": "a yearly bundle of both publications, active, renewing",
         "transactions": [
             {"transactionId": "400000000000001", "productId": "bundle.ios.annual",
              "purchaseDate": ago(100), "expiresDate": ago(100 - 365)}],
         "renewals": [{"originalTransactionId": "400000000000001", "productId": "bundle.ios.annual",
                       "autoRenewStatus": True}]},
    ]


def simulator_script(now):
    receipts = {}
    for reader in readers(now):
        transactions = [dict(t) for t in reader["transactions"]]
        if "appAccountToken" in reader:
            for t in transactions:
                t["appAccountToken"] = reader["appAccountToken"]
        receipts[receipt(reader["name"])] = {"environment": "Production", "transactions": transactions,
                                             "renewals": reader["renewals"]}
    return {"bundleId": BUNDLE_ID, "appAppleId": 1234567890, "sharedSecret": "simulator-shared-secret",
            "receipts": receipts}


def post(url, body, token=None):
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    if token:
        request.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.load(answer)


def play(gateway, now):
    """Each reader creates its account (with its appAccountToken, if any) and posts its receipt."""
    for reader in readers(now):
        body = {"appAccountToken": reader["appAccountToken"]} if "appAccountToken" in reader else {}
        account = post(gateway + "/v1/accounts", body)
        entitlements = post(gateway + "/v1/accounts/" + account["accountId"] + "/receipts",
                            {"receiptData": receipt(reader["name"])}, token=account["accountToken"])
        states = ", ".join(s["productId"] + " " + s["state"] for s in entitlements["subscriptions"])
        print("reader %-7s %s  %s [%s]" % (reader["name"], account["accountId"], reader["about"], states))


def main():
    now = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
    if len(sys.argv) == 2 and sys.argv[1] == "script":
        json.dump(simulator_script(now), sys.stdout, indent=1)
    elif len(sys.argv) == 3 and sys.argv[1] == "play":
        play(sys.argv[2].rstrip("/"), now)
    else:
        sys.exit("usage: demo-readers.py script | play GATEWAY_URL")


if __name__ == "__main__":
    main()
