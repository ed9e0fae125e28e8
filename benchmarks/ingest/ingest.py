#!/usr/bin/env python3
"""Ingest throughput of a running gateway, for benchmarks/ingest/run.sh: receipts (verified by the
App Store simulator), StoreKit 2 signed transactions and V2 notifications per second, with p50 and
p99, and `GET /healthz` driven by the same client as the peer (what the client and the machine
manage at all in this run).

Setup (not timed): 2 x COUNT customers in the simulator, each a year of monthly renewals, and
COUNT pairs of accounts: the first of each posts one customer's receipt, the second another
customer's newest signed transaction (from the simulator's control route). COUNT V2 DID_RENEW notifications
are built by the simulator and captured by a local receiver instead of the gateway, then replayed.

usage: ingest.py GATEWAY_URL SIMULATOR_URL COUNT WORKERS LABEL
With NOTIFICATIONS_OUT set, only the setup and healthz run here: the V2 bodies are written there,
one a line, for wrk (benchmarks/lib/post-lines.lua).
Prints one line per figure: "LABEL kind rate/s p50 ms p99 ms requests non-2xx seconds".
benchmarks/googleplay/push.py imports its Client and measure, so both report alike."""
import base64
import datetime
import http.client
import http.server
import json
import multiprocessing
import os
import sys
import threading
import time
import urllib.parse

NOW = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)


def iso(instant):
    return instant.strftime("%Y-%m-%dT%H:%M:%SZ")


def history(index):
    """A year of monthly renewals ending after now, renewing."""
    base = 20_000_000_000 + index * 100
    start = NOW - datetime.timedelta(days=360)
    transactions = []
    for k in range(12):
        begin = start + datetime.timedelta(days=30 * k)
        transactions.append({"transactionId": str(base + k), "originalTransactionId": str(base),
                             "productId": "monthly.ios.monthly", "purchaseDate": iso(begin),
                             "expiresDate": iso(begin + datetime.timedelta(days=30))})
    return {"environment": "Production", "transactions": transactions,
            "renewals": [{"originalTransactionId": str(base), "productId": "monthly.ios.monthly",
                          "autoRenewStatus": True}]}


class Client:
    def __init__(self, url):
        parsed = urllib.parse.urlsplit(url)
        self.host, self.port = parsed.hostname, parsed.port
        self.connection = http.client.HTTPConnection(self.host, self.port, timeout=60)

    def send(self, method, path, body=None, token=None):
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if token:
            headers["Authorization"] = "Bearer " + token
        data = body if isinstance(body, bytes) else (json.dumps(body).encode() if body is not None else None)
        for attempt in range(2):
            try:
                self.connection.request(method, path, body=data, headers=headers)
                response = self.connection.getresponse()
                return response.status, response.read()
            except (http.client.HTTPException, OSError):
                self.connection.close()
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
                if attempt:
                    raise

    def post(self, path, body=None, token=None):
        status, text = self.send("POST", path, body if body is not None else {}, token)
        if status >= 300:
            raise RuntimeError(f"POST {path}: {status} {text[:200]!r}")
        return json.loads(text) if text else {}


SIGNED_OFFSET = 1_000_000


def receipt(index):
    return base64.b64encode(f"INGEST-CUSTOMER-{index}".encode()).decode()


def setup(args):
    """Per customer: its history in the simulator, two accounts, its newest signed transaction."""
    gateway_url, simulator_url, indices = args
    gateway, simulator = Client(gateway_url), Client(simulator_url)
    out = []
    for index in indices:
        # The receipt's customer, and another whose newest signed transaction is posted.
        simulator.post("/simulator/receipts", {"receipt": receipt(index), "history": history(index)})
        other = SIGNED_OFFSET + index
        simulator.post("/simulator/receipts", {"receipt": receipt(other), "history": history(other)})
        signed = simulator.post("/simulator/signed-transactions", {"receipt": receipt(other)})["signedTransactions"][-1]
        a, b = gateway.post("/v1/accounts"), gateway.post("/v1/accounts")
        out.append((index, a, b, signed))
    return out


class Capture(http.server.BaseHTTPRequestHandler):
    """Stands in for the gateway while the simulator builds notifications: keeps each body."""
    bodies = []
    lock = threading.Lock()

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        with Capture.lock:
            Capture.bodies.append(body)
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def notify(args):
    simulator_url, capture_url, indices = args
    simulator = Client(simulator_url)
    for index in indices:
        simulator.post("/simulator/notifications", {"gateway": capture_url, "receipt": receipt(index), "version": 2,
                                                    "type": "DID_RENEW"})
    return len(indices)


def fire(args):
    """One worker's share of one kind: (latencies in s, non-2xx count)."""
    gateway_url, requests = args
    gateway = Client(gateway_url)
    latencies, failed = [], 0
    for method, path, body, token in requests:
        started = time.perf_counter()
        status, _ = gateway.send(method, path, body, token)
        latencies.append(time.perf_counter() - started)
        if status >= 300:
            failed += 1
    return latencies, failed


def measure(pool, gateway_url, label, kind, requests, workers):
    shares = [(gateway_url, requests[w::workers]) for w in range(workers)]
    started = time.perf_counter()
    results = pool.map(fire, shares)
    seconds = time.perf_counter() - started
    latencies = sorted(x for r in results for x in r[0])
    failed = sum(r[1] for r in results)
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000
    print(f"{label} {kind} {len(latencies) / seconds:.0f}/s p50 {p(0.50):.2f} ms p99 {p(0.99):.2f} ms "
          f"{len(latencies)} requests {failed} non-2xx {seconds:.1f} s", flush=True)


def main():
    gateway_url, simulator_url, count, workers, label = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    chunk = max(1, count // (workers * 4))
    with multiprocessing.Pool(workers) as pool:
        customers = [c for part in pool.map(setup, [(gateway_url, simulator_url, range(i, min(i + chunk, count)))
                                                    for i in range(0, count, chunk)]) for c in part]
        receiver = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Capture)
        threading.Thread(target=receiver.serve_forever, daemon=True).start()
        capture_url = f"http://127.0.0.1:{receiver.server_address[1]}/capture"
        pool.map(notify, [(simulator_url, capture_url, range(i, min(i + chunk, count))) for i in range(0, count, chunk)])
        receiver.shutdown()
        notifications = list(Capture.bodies)
        if len(notifications) != count:
            raise RuntimeError(f"captured {len(notifications)} notifications of {count}")

        health = [("GET", "/healthz", None, None)] * (count * 2)
        measure(pool, gateway_url, label, "healthz(peer)", health, workers)
        if os.environ.get("NOTIFICATIONS_OUT"):
            # run.sh's V2_WRK: the notifications are posted by wrk, not by this client.
            with open(os.environ["NOTIFICATIONS_OUT"], "wb") as out:
                for body in notifications:
                    if b"\n" in body:
                        raise RuntimeError("a notification body holds a newline")
                    out.write(body + b"\n")
            return
        receipts = [("POST", f"/v1/accounts/{a['accountId']}/receipts", {"receiptData": receipt(i)}, a["accountToken"])
                    for i, a, _, _ in customers]
        measure(pool, gateway_url, label, "receipts", receipts, workers)
        signed = [("POST", f"/v1/accounts/{b['accountId']}/receipts", {"signedTransactions": [s]}, b["accountToken"])
                  for _, _, b, s in customers]
        measure(pool, gateway_url, label, "signedTransactions", signed, workers)
        v2 = [("POST", "/v1/appstore/notifications", body, None) for body in notifications]
        measure(pool, gateway_url, label, "notificationsV2", v2, workers)
        measure(pool, gateway_url, label, "healthz(peer)", health, workers)


if __name__ == "__main__":
    main()
