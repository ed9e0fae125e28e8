#!/usr/bin/env python3
"""Creates reader accounts with multi-year App Store histories through the gateway's real routes,
for benchmarks/accounts/run.sh: per account, the history goes to the App Store simulator
(`POST /simulator/receipts`), then `POST /v1/accounts` and `POST /v1/accounts/{id}/receipts`
with that receipt, which the gateway verifies against the simulator and stores.

Histories (seeded, so every run creates the same ones): two to five years of monthly renewals of
the monthly magazine (70%), the weekly (15%) or annual renewals of the bundle of both (15%);
30% lapsed a few months and came back, 10% had one renewal refunded, 30% ended in the past year.

usage: create-accounts.py GATEWAY_URL SIMULATOR_URL COUNT WORKERS OUT_FILE
Prints nothing but errors; writes "accountId token" lines to OUT_FILE."""
import base64
import datetime
import http.client
import json
import multiprocessing
import random
import sys
import urllib.parse

NOW = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
PRODUCTS = [("monthly.ios.monthly", 1, 70), ("weekly.ios.monthly", 1, 15), ("bundle.ios.annual", 12, 15)]


def iso(instant):
    return instant.strftime("%Y-%m-%dT%H:%M:%SZ")


def add_months(instant, months):
    year, month = divmod(instant.month - 1 + months, 12)
    return instant.replace(year=instant.year + year, month=month + 1, day=min(instant.day, 28))


def history(index):
    rng = random.Random(index)
    product, step, _ = rng.choices(PRODUCTS, weights=[p[2] for p in PRODUCTS])[0]
    periods = rng.randint(24, 60) // step
    ended_months_ago = rng.randint(1, 12) if rng.random() < 0.3 else 0
    end = add_months(NOW.replace(hour=9, minute=0, second=0), -ended_months_ago)
    start = add_months(end, -(periods - 1) * step - step + 1)
    lapses = set()
    if rng.random() < 0.3:
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(1, max(2, periods - 1))
            lapses.update(range(at, at + rng.randint(1, 4)))
    refunded = rng.randrange(periods) if rng.random() < 0.1 else None
    base = 10_000_000_000 + index * 100
    transactions, original = [], None
    for k in range(periods):
        if k in lapses:
            continue
        begin = add_months(start, k * step)
        entry = {"transactionId": str(base + k), "originalTransactionId": str(original or base + k),
                 "productId": product, "purchaseDate": iso(begin), "expiresDate": iso(add_months(begin, step))}
        original = original or base + k
        if k == refunded:
            entry["cancellationDate"] = iso(begin + datetime.timedelta(days=2))
            entry["cancellationReason"] = 0
        transactions.append(entry)
    return {"environment": "Production", "transactions": transactions,
            "renewals": [{"originalTransactionId": str(original), "productId": product,
                          "autoRenewStatus": ended_months_ago == 0}]}


class Client:
    def __init__(self, url):
        parsed = urllib.parse.urlsplit(url)
        self.host, self.port = parsed.hostname, parsed.port
        self.connection = http.client.HTTPConnection(self.host, self.port, timeout=60)

    def post(self, path, body=None, token=None):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = "Bearer " + token
        data = json.dumps(body).encode() if body is not None else b""
        for attempt in range(2):
            try:
                self.connection.request("POST", path, body=data, headers=headers)
                response = self.connection.getresponse()
                text = response.read()
                break
            except (http.client.HTTPException, OSError):
                self.connection.close()
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
                if attempt:
                    raise
        if response.status >= 300:
            raise RuntimeError(f"POST {path}: {response.status} {text[:200]!r}")
        return json.loads(text) if text else {}


def create(args):
    gateway_url, simulator_url, indices = args
    gateway, simulator = Client(gateway_url), Client(simulator_url)
    lines = []
    for index in indices:
        receipt = base64.b64encode(f"BENCH-ACCOUNT-{index}".encode()).decode()
        simulator.post("/simulator/receipts", {"receipt": receipt, "history": history(index)})
        account = gateway.post("/v1/accounts")
        gateway.post(f"/v1/accounts/{account['accountId']}/receipts", {"receiptData": receipt},
                     token=account["accountToken"])
        lines.append(f"{account['accountId']} {account['accountToken']}\n")
    return lines


def main():
    gateway_url, simulator_url, count, workers, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    chunks = [(gateway_url, simulator_url, range(i, min(i + 50, count))) for i in range(0, count, 50)]
    with multiprocessing.Pool(workers) as pool, open(out, "w") as f:
        for lines in pool.imap_unordered(create, chunks):
            f.writelines(lines)


if __name__ == "__main__":
    main()
