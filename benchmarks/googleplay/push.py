#!/usr/bin/env python3
"""Google Play pushes taken per second by a running gateway, for benchmarks/googleplay/run.sh,
with p50 and p99, and `GET /healthz` through the same client (benchmarks/ingest/ingest.py's, reused)
as the peer measured in the same run.

Setup (not timed): one account per purchase, created with the appAccountToken its Play purchase
names as obfuscatedExternalAccountId (E4). Timed: every line of PUSHES ("token<TAB>bearer<TAB>
envelope", written by `issue-gateway-bench googleplay-simulator`) POSTed once to
/v1/googleplay/notifications by WORKERS client processes (answers other than 2xx counted). Then
checked: every purchase token is owned by its account (`GET /v1/lookup?purchaseToken=`); exits 1
when one is not.

usage: push.py GATEWAY_URL PUSHES WORKERS ADMIN_KEY"""
import multiprocessing
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ingest"))
from ingest import Client, measure  # noqa: E402


def account_token(index):
    """As `googlePlayBenchmarkAccountToken` in Sources/Benchmarks/GooglePlayPushFixture.swift."""
    return "00000000-0000-4000-8000-%012d" % index


def create_accounts(args):
    gateway_url, indices = args
    gateway = Client(gateway_url)
    return [(index, gateway.post("/v1/accounts", {"appAccountToken": account_token(index)})["accountId"]) for index in indices]


def check_owners(args):
    """The purchase tokens not owned by their account: (token, status, answer)."""
    gateway_url, admin_key, owners = args
    gateway = Client(gateway_url)
    wrong = []
    for token, account in owners:
        status, text = gateway.send("GET", "/v1/lookup?purchaseToken=" + token, token=admin_key)
        if status != 200 or f'"accountId":"{account}"' not in text.decode().replace(" ", ""):
            wrong.append((token, status, text[:200]))
    return wrong


def main():
    gateway_url, pushes_path, workers, admin_key = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    pushes = [line.rstrip("\n").split("\t") for line in open(pushes_path) if line.strip()]
    count = len(pushes)
    chunk = max(1, count // (workers * 4))
    with multiprocessing.Pool(workers) as pool:
        accounts = dict(a for part in pool.map(create_accounts, [(gateway_url, range(i, min(i + chunk, count)))
                                                                  for i in range(0, count, chunk)]) for a in part)
        health = [("GET", "/healthz", None, None)] * (count * 2)
        measure(pool, gateway_url, "sqlite", "healthz(peer)", health, workers)
        requests = [("POST", "/v1/googleplay/notifications", envelope.encode(), bearer) for _, bearer, envelope in pushes]
        measure(pool, gateway_url, "sqlite", "googlePlayPushes", requests, workers)
        measure(pool, gateway_url, "sqlite", "healthz(peer)", health, workers)
        owners = [(token, accounts[int(token.rsplit("-", 1)[1])]) for token, _, _ in pushes]
        wrong = [w for part in pool.map(check_owners, [(gateway_url, admin_key, owners[i:i + chunk])
                                                       for i in range(0, count, chunk)]) for w in part]
    print(f"stored: {count - len(wrong)} of {count} purchase tokens owned by their account after the pushes", flush=True)
    for token, status, text in wrong[:5]:
        print(f"  not stored: {token}: {status} {text!r}", flush=True)
    if wrong:
        sys.exit(1)


if __name__ == "__main__":
    main()
