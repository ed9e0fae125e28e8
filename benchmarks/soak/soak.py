#!/usr/bin/env python3
"""Soak and fault run of the real gateway (issue #10 item 9), driven by benchmarks/soak/run.sh.

Starts `issue-gateway serve` itself (so it can kill -9 and restart it on the same database and
secrets) and, for DURATION seconds, runs in parallel:
  readers    issue lists (the cached reads whose latency is measured), entitlements, a token for
             an entitled issue and the edge check of its URL (GET /v1/edge/verify)
  receipts   new accounts with App Store histories (the simulator plays Apple, reached through
             the fault proxy) and their receipts
  notifier   V1/V2 renewals and refunds sent by the simulator's /simulator/notifications
  editor     catalog edits with an editor key: publish, correct, retract
and the faults: the App Store proxy turns normal → slow → normal → failing (HTTP 500 or a reset
connection) → normal → unreachable (connection refused); another process (here: a thread with
its own sqlite3 connection) holds the database's write lock for a few seconds at intervals, or, on
PostgreSQL (DATABASE_URL), the database server is stopped mid-run for DB_DOWN seconds and started
again (the gateway must answer 503 with Retry-After meanwhile and serve again within
DB_BACK_WITHIN seconds of its return); near the end the gateway is killed with SIGKILL under load
and restarted.

Every acknowledged write goes to a ledger that is checked through the API after the restart.
Exit 0 only when nothing acknowledged is lost, no unexpected answer was seen and RSS stayed
within the tolerance after warm-up.

usage: soak.py  (settings from the environment; see run.sh)"""
import base64
import collections
import datetime
import http.client
import importlib.util
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.parse

ENV = os.environ
DURATION = float(ENV.get("DURATION", "600"))
GATEWAY = ENV["GATEWAY"]
WORK = ENV["WORK"]
LOG_DIR = ENV.get("LOG_DIR") or WORK  # the gateway's stderr, one file per start
GATEWAY_PORT = int(ENV["GATEWAY_PORT"])
SIMULATOR_PORT = int(ENV["SIMULATOR_PORT"])
PROXY_PORT = int(ENV["PROXY_PORT"])
READERS = int(ENV.get("READERS", "4"))
CREATORS = int(ENV.get("CREATORS", "2"))
FAULT_PHASE = float(ENV.get("FAULT_PHASE", "20"))        # seconds per proxy phase
SLOW_DELAY = float(ENV.get("SLOW_DELAY", "4"))           # seconds added to each request when slow
BUSY_EVERY = float(ENV.get("BUSY_EVERY", "30"))          # seconds between database write locks
# seconds each lock is held, in turns: shorter than the gateway's SQLite busy timeout (5 s: writes
# wait) and longer (writes answer 503 storage_busy)
BUSY_HOLDS = [float(x) for x in ENV.get("BUSY_HOLD", "3,7").split(",")]
INITIAL_ACCOUNTS = int(ENV.get("INITIAL_ACCOUNTS", "1000"))  # created as fast as possible
CREATE_RATE = float(ENV.get("CREATE_RATE", "0.5"))       # new accounts per second after those
EDIT_EVERY = float(ENV.get("EDIT_EVERY", "2"))           # seconds between catalog edits
RSS_TOLERANCE = float(ENV.get("RSS_TOLERANCE", "0.05"))  # RSS may grow this much in the steady window
CACHE_SETTLED = float(ENV.get("CACHE_SETTLED", "0.05"))  # caches this close to their last bytes: settled
STEADY_MIN = float(ENV.get("STEADY_MIN", "0.25"))        # the steady window lasts at least this share of the run
DATABASE_URL = ENV.get("DATABASE_URL") or None            # PostgreSQL instead of SQLite
PG_CLUSTER_DIR = ENV.get("PG_CLUSTER_DIR")                 # its cluster (scripts/pg-cluster), restarted mid-run
DB_DOWN = float(ENV.get("DB_DOWN", "5"))                 # seconds the PostgreSQL server is away
DB_BACK_WITHIN = float(ENV.get("DB_BACK_WITHIN", "5"))   # seconds after its return the gateway must serve
# A process trusts its caches until the change feed has been silent this long (ChangeFeedFollower's
# `staleAfter`): a probe sent sooner after the pause may be answered from memory, rightly.
FEED_STALE_AFTER = float(ENV.get("FEED_STALE_AFTER", "1"))
if DATABASE_URL and ENV.get("LOSE_WRITES") == "1":
    raise SystemExit("LOSE_WRITES=1 rolls back a SQLite file: SQLite only")
WARMUP = float(ENV.get("WARMUP", min(90.0, DURATION * 0.2)))
KILL_AT = DURATION - max(20.0, DURATION * 0.1)           # SIGKILL this long after the start
SHARED_SECRET = "soak-secret"
ADMIN_KEY = "soak-admin-key-0123456789abcdef"
BUNDLE_ID, APP_APPLE_ID = "com.example.magazines", "1234567890"
PUBLICATIONS = ["monthly", "weekly"]
GATEWAY_URL = f"http://127.0.0.1:{GATEWAY_PORT}"

_spec = importlib.util.spec_from_file_location(
    "create_accounts", os.path.join(os.path.dirname(__file__), "..", "accounts", "create-accounts.py"))
create_accounts = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(create_accounts)  # histories as in the accounts benchmark


# ---------------------------------------------------------------------------------------------
# Shared state: clock, statistics, ledger

START = time.monotonic()
STOP = threading.Event()
LOCK = threading.Lock()


def elapsed():
    return time.monotonic() - START


class Stats:
    def __init__(self):
        self.counts = collections.Counter()   # (kind, status) → requests
        self.unexpected = []                  # (t, kind, status, detail)
        self.latency = collections.defaultdict(list)  # kind → seconds, warm window only
        self.kill_window = None               # (from, to) seconds since start
        self.rss = []                         # (t, KiB)
        self.cache = []                       # (t, bytes the caches hold, as /metrics says)

    def in_kill_window(self, begin, end=None, opened=None):
        """Whether [begin, end] overlaps the kill window (from the kill until listening again,
        a second's margin either side), or the request failed after the kill on a keep-alive
        connection `opened` before the restart (the killed process closed it, unseen by the
        client until it sent on it)."""
        window = self.kill_window
        end = begin if end is None else end
        if window is None or end < window[0] - 1:
            return False
        restarted = (window[1] or 1e18) + 1
        return begin <= restarted or (opened is not None and opened <= restarted)

    def record(self, kind, status, seconds, t, allowed, detail=""):
        with LOCK:
            self.counts[(kind, status)] += 1
            if not allowed:
                self.unexpected.append((round(t, 1), kind, status, detail[:300]))
            if seconds > 0 and WARMUP <= t and t + seconds < KILL_AT - 1 and isinstance(status, int) and status < 400:
                self.latency[kind].append(seconds)


STATS = Stats()


class Ledger:
    """Acknowledged writes and what must be true of them after the restart."""
    def __init__(self):
        self.accounts = {}        # accountId → token (201 acknowledged)
        self.subscriptions = {}   # accountId → originalTransactionId (receipt 200)
        self.expect = {}          # accountId → ("renewed", expiresDate) or ("revoked", None)
        self.issues = {}          # (publication, issueId) → set of acceptable (title, state)
        self.writes = collections.Counter()


LEDGER = Ledger()

# A refused or reset connection, a timeout, or a closed socket: the request was not answered.
CONNECTION_ERRORS = (OSError, http.client.HTTPException)


class Client:
    """One keep-alive connection per worker; a failure closes it and is reported to the caller."""
    def __init__(self, port):
        self.port = port
        self.connection = None
        self.opened = None  # when the current connection was opened (seconds since the start)
        self.used = 0.0     # when it last carried a request

    # Servers close keep-alive connections idle for 60 s (HTTPServerConfiguration.idleTimeout);
    # a connection idle for half that is not reused, as browsers and HTTP libraries do.
    IDLE_REUSE = 30.0

    def request(self, method, path, body=None, headers=None):
        headers = dict(headers or {})
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        try:
            if self.connection is not None and elapsed() - self.used > self.IDLE_REUSE:
                self.connection.close()
                self.connection = None
            if self.connection is None:
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
                self.opened = elapsed()
            self.used = elapsed()
            self.connection.request(method, path, body=data, headers=headers)
            response = self.connection.getresponse()
            return response.status, response.read(), response
        except CONNECTION_ERRORS as error:
            if self.connection is not None:
                self.connection.close()
            self.connection = None
            raise ConnectionError(f"{type(error).__name__}: {error}") from error


def allowed_error(status, body):
    """503 app_store_unavailable / storage_busy and 429 may happen under faults; nothing else."""
    if status == 429:
        return True
    if status == 503:
        try:
            return json.loads(body)["error"]["code"] in ("app_store_unavailable", "storage_busy")
        except (ValueError, KeyError, TypeError):
            return False
    return False


def call(client, kind, method, path, body=None, headers=None, ok=(200,), also=(), around_kill=()):
    """Sends one request, records it; answers (status, parsed JSON or None) or (None, None) when
    it was not answered. `ok` are the expected statuses, `also` further acceptable ones,
    `around_kill` statuses acceptable only when the request overlaps the kill window."""
    t = elapsed()
    began = time.monotonic()
    opened = client.opened if client.connection is not None else None
    try:
        status, raw, response = client.request(method, path, body, headers)
    except ConnectionError as error:
        STATS.record(kind, "connection error", time.monotonic() - began, t,
                     STATS.in_kill_window(t, elapsed(), opened), f"{method} {path}: {error}")
        STOP.wait(0.1)  # while the gateway restarts, do not spin on refused connections
        return None, None
    seconds = time.monotonic() - began
    parsed = None
    if raw and response.getheader("Content-Type", "").startswith("application/json"):
        try:
            parsed = json.loads(raw)
        except ValueError:
            STATS.record(kind, f"{status} malformed JSON", seconds, t, False, f"{method} {path}: {raw[:200]!r}")
            return status, None
    allowed = (status in ok or status in also or allowed_error(status, raw)
               or (status in around_kill and STATS.in_kill_window(t, elapsed())))
    STATS.record(kind, status, seconds, t, allowed, f"{method} {path}: {raw[:200]!r}")
    return status, parsed


def auth(token):
    return {"Authorization": "Bearer " + token}


# ---------------------------------------------------------------------------------------------
# The gateway process

class Gateway:
    def __init__(self):
        self.process = None
        self.env = dict(os.environ)
        self.env.update({
            "ISSUE_GATEWAY_LISTEN": f"127.0.0.1:{GATEWAY_PORT}",
            "ISSUE_GATEWAY_DATABASE": os.path.join(WORK, "gateway", "db.sqlite"),
            "ISSUE_GATEWAY_CATALOG": "catalog",
            "ISSUE_GATEWAY_ADMIN_KEY": ADMIN_KEY,
            "ISSUE_GATEWAY_APPSTORE_PRODUCTION_URL": f"http://127.0.0.1:{PROXY_PORT}/verifyReceipt",
            "ISSUE_GATEWAY_APPSTORE_SANDBOX_URL": f"http://127.0.0.1:{PROXY_PORT}/sandbox/verifyReceipt",
            "ISSUE_GATEWAY_APPSTORE_SHARED_SECRET": SHARED_SECRET,
            "ISSUE_GATEWAY_APPLE_ROOT_CERTS": os.path.join(WORK, "root.pem"),
            "ISSUE_GATEWAY_BUNDLE_ID": BUNDLE_ID,
            "ISSUE_GATEWAY_APP_APPLE_ID": APP_APPLE_ID,
            # Every client here is 127.0.0.1: the per-client account creation limit would stop
            # the creators, which stand for many readers.
            "ISSUE_GATEWAY_ACCOUNT_CREATION_RATE": "100000000",
            "ISSUE_GATEWAY_ACCOUNT_CREATION_BURST": "100000",
        })
        if DATABASE_URL:
            del self.env["ISSUE_GATEWAY_DATABASE"]
            self.env["ISSUE_GATEWAY_DATABASE_URL"] = DATABASE_URL
        self.starts = 0

    def start(self):
        self.starts += 1
        log = open(os.path.join(LOG_DIR, f"gateway-{self.starts}.log"), "wb")
        self.process = subprocess.Popen([GATEWAY, "serve"], env=self.env, stdout=subprocess.DEVNULL, stderr=log)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", GATEWAY_PORT), timeout=1).close()
                return
            except OSError:
                if self.process.poll() is not None:
                    raise SystemExit(f"the gateway exited with {self.process.returncode}; see {log.name}")
                time.sleep(0.05)
        raise SystemExit("the gateway did not listen within 60 s")

    def kill9(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def rss_kib(self):
        try:
            with open(f"/proc/{self.process.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except OSError:
            return None
        return None


GATEWAY_PROCESS = Gateway()


# ---------------------------------------------------------------------------------------------
# Faults: the App Store proxy and the busy database

class FaultProxy:
    """TCP proxy from the gateway to the simulator; each mode change drops open connections so
    the next request meets the new mode."""
    MODES = ["normal", "slow", "normal", "failing", "normal", "unreachable"]

    def __init__(self, port, target_port):
        self.port, self.target_port = port, target_port
        self.mode = "normal"
        self.listener = None
        self.sockets = set()
        self.lock = threading.Lock()
        self.served = collections.Counter()
        self._listen()

    def _listen(self):
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(128)
        listener.settimeout(0.2)
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def set_mode(self, mode):
        with self.lock:
            self.mode = mode
            for s in list(self.sockets):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
            self.sockets.clear()
            if mode == "unreachable" and self.listener is not None:
                self.listener.close()   # connection refused from now on
                self.listener = None
            elif mode != "unreachable" and self.listener is None:
                self._listen()

    def _accept(self, listener):
        while True:
            try:
                client, _ = listener.accept()
            except socket.timeout:
                if listener.fileno() == -1:
                    return
                continue
            except OSError:
                return
            threading.Thread(target=self._serve, args=(client,), daemon=True).start()

    def _serve(self, client):
        mode = self.mode
        self.served[mode] += 1
        with self.lock:
            self.sockets.add(client)
        try:
            if mode == "failing":
                client.recv(65536)
                if random.random() < 0.5:
                    client.sendall(b"HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                else:  # a reset: RST instead of FIN
                    client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                client.close()
                return
            upstream = socket.create_connection(("127.0.0.1", self.target_port))
            with self.lock:
                self.sockets.add(upstream)
            threading.Thread(target=self._pipe, args=(upstream, client, False), daemon=True).start()
            self._pipe(client, upstream, True)
        except OSError:
            client.close()

    def _pipe(self, source, target, requests):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                if requests and self.mode == "slow":
                    time.sleep(SLOW_DELAY)  # each request (one chunk here) answered late
                target.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, target):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass


def fault_turns(proxy):
    turn = 0
    while not STOP.wait(FAULT_PHASE):
        turn += 1
        proxy.set_mode(FaultProxy.MODES[turn % len(FaultProxy.MODES)])
    proxy.set_mode("normal")


BUSY_HELD = collections.Counter()


def busy_database():
    """Another writer: BEGIN IMMEDIATE on the gateway's SQLite file, held BUSY_HOLD seconds."""
    path = os.path.join(WORK, "gateway", "db.sqlite")
    turn = 0
    while not STOP.wait(BUSY_EVERY):
        hold = BUSY_HOLDS[turn % len(BUSY_HOLDS)]
        turn += 1
        try:
            db = sqlite3.connect(path, timeout=10, isolation_level=None)
            db.execute("BEGIN IMMEDIATE")
            BUSY_HELD[f"{hold:g}s"] += 1
            STOP.wait(hold)
            db.execute("ROLLBACK")
            db.close()
        except sqlite3.Error as error:
            BUSY_HELD[f"failed: {error}"] += 1


DB_RESTART = {}  # what the PostgreSQL restart saw


def restart_database():
    """PostgreSQL stopped mid-run (between warm-up and the kill) for DB_DOWN seconds: meanwhile a
    list must be answered 503 with Retry-After (from memory only within FEED_STALE_AFTER of the
    pause, before the process can know); after the server is back, one must be answered 200
    within DB_BACK_WITHIN seconds."""
    if STOP.wait(WARMUP + (KILL_AT - WARMUP) / 2):
        return
    token = next(iter(LEDGER.accounts.items()), (None, None))
    if token[0] is None:
        DB_RESTART["problem"] = "no account to probe with"
        return
    account_id, secret = token
    path = f"/v1/accounts/{account_id}/entitlements"
    script = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "pg-cluster")
    with LOCK:
        DB_RESTART["down_at"] = elapsed()
    subprocess.run([script, "pause", PG_CLUSTER_DIR], check=True)
    probes = collections.Counter()
    paused = time.monotonic()
    down_until = paused + DB_DOWN
    while time.monotonic() < down_until:
        try:
            sent = time.monotonic()
            connection = http.client.HTTPConnection("127.0.0.1", GATEWAY_PORT, timeout=10)
            connection.request("GET", path, headers=auth(secret))
            response = connection.getresponse()
            response.read()
            retry_after = response.getheader("Retry-After")
            answer = f"{response.status}{' with Retry-After' if retry_after else ''}"
            if response.status == 200 and sent - paused < FEED_STALE_AFTER:
                answer = "200 before the feed was stale"
            probes[answer] += 1
            connection.close()
        except CONNECTION_ERRORS as error:
            probes[f"connection error: {error}"] += 1
        time.sleep(0.2)
    subprocess.run([script, "resume", PG_CLUSTER_DIR], check=True)
    back = time.monotonic()
    serving = None
    while time.monotonic() - back < 60:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", GATEWAY_PORT, timeout=10)
            connection.request("GET", path, headers=auth(secret))
            response = connection.getresponse()
            response.read()
            connection.close()
            if response.status == 200:
                serving = time.monotonic() - back
                break
        except CONNECTION_ERRORS:
            pass
        time.sleep(0.05)
    with LOCK:
        DB_RESTART.update({"probes while down": dict(probes), "back_at": elapsed(),
                           "serving again after s": None if serving is None else round(serving, 2)})


def database_restart_failures():
    """What the PostgreSQL restart broke of the promise: empty when all was as it should be."""
    if not DATABASE_URL:
        return []
    problems = [DB_RESTART["problem"]] if "problem" in DB_RESTART else []
    probes = DB_RESTART.get("probes while down", {})
    if not probes:
        problems.append("the database was not restarted")
    elif set(probes) - {"200 before the feed was stale"} != {"503 with Retry-After"}:
        problems.append(f"answers while the database was away: {probes} (only 503 with Retry-After expected, "
                        f"or 200 from memory within {FEED_STALE_AFTER:g} s of the pause)")
    serving = DB_RESTART.get("serving again after s")
    if serving is None or serving > DB_BACK_WITHIN:
        problems.append(f"serving again {serving} s after the database's return (at most {DB_BACK_WITHIN:g} s)")
    return problems


def cache_bytes():
    """The bytes the gateway's caches say they hold (`issue_gateway_cache_bytes`, summed), or
    None: RSS growth beside it tells the caches filling towards their budget from the rest."""
    try:
        connection = http.client.HTTPConnection("127.0.0.1", GATEWAY_PORT, timeout=5)
        connection.request("GET", "/metrics")
        text = connection.getresponse().read().decode()
        connection.close()
    except (OSError, http.client.HTTPException):
        return None
    return sum(int(float(line.split()[-1])) for line in text.splitlines() if line.startswith("issue_gateway_cache_bytes"))


def sample_rss():
    turn = 0
    while not STOP.wait(2):
        kib = GATEWAY_PROCESS.rss_kib()
        held = cache_bytes() if turn % 5 == 0 else None
        turn += 1
        with LOCK:
            if kib:
                STATS.rss.append((elapsed(), kib))
            if held is not None:
                STATS.cache.append((elapsed(), held))


def killer():
    """SIGKILL under load at KILL_AT, restart at once on the same database and secrets.
    LOSE_WRITES=1 (a check of this driver, not of the gateway) restarts instead on a copy of the
    database taken 10 s before the kill, so the writes acknowledged since must be reported lost."""
    path = os.path.join(WORK, "gateway", "db.sqlite")
    if ENV.get("LOSE_WRITES") == "1":
        if STOP.wait(KILL_AT - 10):
            return
        with sqlite3.connect(path, timeout=30) as source, sqlite3.connect(path + ".old") as copy:
            source.backup(copy)
        if STOP.wait(10):
            return
    elif STOP.wait(KILL_AT):
        return
    with LOCK:
        STATS.kill_window = (elapsed(), None)
    GATEWAY_PROCESS.kill9()
    if ENV.get("LOSE_WRITES") == "1":
        for suffix in ("-wal", "-shm"):
            if os.path.exists(path + suffix):
                os.remove(path + suffix)
        os.replace(path + ".old", path)
    GATEWAY_PROCESS.start()
    with LOCK:
        STATS.kill_window = (STATS.kill_window[0], elapsed())


# ---------------------------------------------------------------------------------------------
# Load

NEXT_INDEX = iter(range(10**9))
SUBSCRIBED = []  # accounts with an acknowledged receipt: (accountId, token, receipt, history)
NOTIFY_QUEUE = collections.deque()


CREATION_SLOTS = threading.Semaphore(0)


def creation_pace():
    """After INITIAL_ACCOUNTS, new accounts at CREATE_RATE per second, so the data grows slowly
    and RSS after warm-up says something about leaks."""
    while not STOP.wait(1 / CREATE_RATE):
        CREATION_SLOTS.release()


def creator(proxy):
    gateway, simulator = Client(GATEWAY_PORT), Client(SIMULATOR_PORT)
    retry = collections.deque()  # accounts whose receipt was not acknowledged yet
    while not STOP.is_set():
        if retry and random.random() < 0.3:
            account_id, token, receipt, history = retry.popleft()
        else:
            with LOCK:
                index = next(NEXT_INDEX)
            while index >= INITIAL_ACCOUNTS and not CREATION_SLOTS.acquire(timeout=0.5):
                if STOP.is_set():
                    return
            receipt = base64.b64encode(f"SOAK-ACCOUNT-{index}".encode()).decode()
            history = create_accounts.history(index)
            status, _ = call(simulator, "simulator control", "POST", "/simulator/receipts",
                             {"receipt": receipt, "history": history})
            if status != 200:
                continue
            status, answer = call(gateway, "POST accounts", "POST", "/v1/accounts", ok=(201,))
            if status != 201:
                continue
            account_id, token = answer["accountId"], answer["accountToken"]
            with LOCK:
                LEDGER.accounts[account_id] = token
                LEDGER.writes["account created"] += 1
        status, answer = call(gateway, f"POST receipts [{proxy.mode}]", "POST", f"/v1/accounts/{account_id}/receipts",
                              {"receiptData": receipt}, auth(token))
        if status == 200:
            original = history["renewals"][0]["originalTransactionId"]
            with LOCK:
                LEDGER.subscriptions[account_id] = original
                LEDGER.writes["receipt taken"] += 1
                SUBSCRIBED.append((account_id, token, receipt, history))
                NOTIFY_QUEUE.append((account_id, token, receipt, history))
        elif len(retry) < 1000:
            retry.append((account_id, token, receipt, history))


def iso_ms(text):
    return datetime.datetime.strptime(text[:19], "%Y-%m-%dT%H:%M:%S")


def notifier():
    simulator = Client(SIMULATOR_PORT)
    while not STOP.is_set():
        with LOCK:
            item = NOTIFY_QUEUE.popleft() if NOTIFY_QUEUE and len(SUBSCRIBED) > 20 else None
        if item is None:
            STOP.wait(0.5)
            continue
        account_id, token, receipt, history = item
        latest = history["transactions"][-1]
        version = random.choice([1, 2])
        if random.random() < 0.5:  # a renewal: a new transaction after the latest, then DID_RENEW
            begin = iso_ms(latest["expiresDate"])
            new = dict(latest, transactionId="9" + latest["transactionId"],  # no other history uses it
                       purchaseDate=create_accounts.iso(begin),
                       expiresDate=create_accounts.iso(create_accounts.add_months(begin, 1)))
            new.pop("cancellationDate", None)
            new.pop("cancellationReason", None)
            status, _ = call(simulator, "simulator control", "POST", "/simulator/transactions",
                             {"receipt": receipt, "transaction": new})
            if status != 200:
                continue
            kind, expectation, transaction = "renewal", ("renewed", new["expiresDate"]), new["transactionId"]
            history["transactions"].append(new)
        else:  # a refund of the latest transaction, then REFUND
            status, _ = call(simulator, "simulator control", "POST", "/simulator/refunds",
                             {"receipt": receipt, "transactionId": latest["transactionId"]})
            if status != 200:
                continue
            kind, expectation, transaction = "refund", ("revoked", None), latest["transactionId"]
        body = {"gateway": GATEWAY_URL + "/v1/appstore/notifications", "receipt": receipt,
                "version": version, "type": "DID_RENEW" if kind == "renewal" else "REFUND"}
        if version == 2:
            body["transactionId"] = transaction
        # The simulator answers 400 when the gateway cannot be reached (allowed in the kill window).
        t = elapsed()
        status, answer = call(simulator, f"notification V{version}", "POST", "/simulator/notifications", body,
                              around_kill=(400,))
        if status != 200 or answer is None:
            with LOCK:  # the simulator's state changed but the gateway did not take it: no claim
                LEDGER.expect[account_id] = ("unknown", None)
            continue
        gateway_status = answer.get("gatewayStatus")
        STATS.record(f"notification V{version} (gateway)", gateway_status, 0, t,
                     gateway_status == 200 or allowed_error(gateway_status, answer.get("gatewayBody", "")),
                     answer.get("gatewayBody", ""))
        with LOCK:
            if gateway_status == 200:
                LEDGER.expect[account_id] = expectation
                LEDGER.writes[f"notification taken ({kind})"] += 1
            else:
                LEDGER.expect[account_id] = ("unknown", None)


def reader():
    client = Client(GATEWAY_PORT)
    while not STOP.is_set():
        with LOCK:
            pick = random.choice(SUBSCRIBED) if SUBSCRIBED else None
        publication = random.choice(PUBLICATIONS)
        call(client, "GET publication issues (cached)", "GET", f"/v1/publications/{publication}/issues")
        if pick is None:
            STOP.wait(0.2)
            continue
        account_id, token, _, _ = pick
        status, answer = call(client, "GET account issues (cached)", "GET",
                              f"/v1/accounts/{account_id}/issues?publication={publication}", headers=auth(token))
        call(client, "GET entitlements", "GET", f"/v1/accounts/{account_id}/entitlements", headers=auth(token))
        if status != 200 or answer is None:
            continue
        entitled = [i for i in answer["issues"] if i["entitled"]]
        if not entitled:
            continue
        issue = random.choice(entitled)
        # 403 not_entitled when a refund arrived since the list was read; 404 when the editor
        # retracted the issue meanwhile.
        status, answer = call(client, "POST token", "POST",
                              f"/v1/accounts/{account_id}/publications/{issue['publicationId']}/issues/{issue['id']}/token",
                              headers=auth(token), also=(403, 404))
        if status != 200 or answer is None:
            continue
        url = urllib.parse.urlsplit(answer["urls"][0])
        call(client, "GET edge verify", "GET", "/v1/edge/verify",
             headers={"X-Original-URI": f"{url.path}?{url.query}"}, ok=(204,))


def editor(editor_key):
    client = Client(GATEWAY_PORT)
    mine = []  # (publication, issueId, body) acknowledged as existing
    serial = 0
    while not STOP.wait(EDIT_EVERY):
        roll = random.random()
        if roll < 0.5 or not mine:
            serial += 1
            publication = random.choice(PUBLICATIONS)
            issue_id = f"soak-{serial}"
            body = {"id": issue_id, "title": f"Soak issue {serial}",
                    "publishedAt": create_accounts.iso(datetime.datetime.now(datetime.timezone.utc)
                                                      - datetime.timedelta(hours=1)),
                    "free": False,
                    "assets": [{"path": f"/content/{publication}/{issue_id}/issue.pdf", "bytes": 1000 + serial,
                                "sha256": "%064x" % serial}]}
            status, _ = call(client, "POST issue", "POST", f"/v1/publications/{publication}/issues", body,
                             auth(editor_key), ok=(201,))
            key = (publication, issue_id)
            with LOCK:
                if status == 201:
                    LEDGER.issues[key] = {(body["title"], "published")}
                    LEDGER.writes["issue published"] += 1
                    mine.append((publication, issue_id, body))
                elif status is None:
                    LEDGER.issues.pop(key, None)  # maybe stored, maybe not: no claim
        elif roll < 0.8:
            publication, issue_id, body = random.choice(mine)
            body = dict(body, title=body["title"].split(" (")[0] + f" (corrected {serial})")
            serial += 1
            before = LEDGER.issues.get((publication, issue_id))
            status, answer = call(client, "PUT issue", "PUT", f"/v1/publications/{publication}/issues/{issue_id}",
                                  body, auth(editor_key))
            with LOCK:
                state = answer.get("state") if status == 200 and answer else None
                if status == 200:
                    LEDGER.issues[(publication, issue_id)] = {(body["title"], state)}
                    LEDGER.writes["issue corrected"] += 1
                    mine[:] = [(p, i, body if (p, i) == (publication, issue_id) else b) for p, i, b in mine]
                elif status is None and before is not None:
                    # not answered: either state may be stored
                    LEDGER.issues[(publication, issue_id)] = before | {(body["title"], s) for _, s in before}
        else:
            publication, issue_id, body = random.choice(mine)
            before = LEDGER.issues.get((publication, issue_id))
            status, _ = call(client, "DELETE issue", "DELETE", f"/v1/publications/{publication}/issues/{issue_id}",
                             headers=auth(editor_key))
            with LOCK:
                if status == 200:
                    LEDGER.issues[(publication, issue_id)] = {(body["title"], "retracted")}
                    LEDGER.writes["issue retracted"] += 1
                    mine[:] = [m for m in mine if (m[0], m[1]) != (publication, issue_id)]
                elif status is None and before is not None:
                    LEDGER.issues[(publication, issue_id)] = before | {(t, "retracted") for t, _ in before}


# ---------------------------------------------------------------------------------------------
# After the restart: is every acknowledged write there?

def verify():
    client = Client(GATEWAY_PORT)
    lost = []

    def get(path, token):
        for _ in range(5):  # a storage_busy or connection hiccup is not a loss: ask again
            try:
                status, raw, _ = client.request("GET", path, headers=auth(token))
            except ConnectionError:
                time.sleep(1)
                continue
            if status == 503:
                time.sleep(1)
                continue
            return status, (json.loads(raw) if raw else None)
        return None, None

    for account_id, token in LEDGER.accounts.items():
        status, answer = get(f"/v1/accounts/{account_id}/entitlements", token)
        if status != 200:
            lost.append(f"account {account_id}: its token answers {status} on GET entitlements")
            continue
        original = LEDGER.subscriptions.get(account_id)
        if original is None:
            continue
        subscription = next((s for s in answer["subscriptions"] if s["originalTransactionId"] == original), None)
        if subscription is None:
            lost.append(f"account {account_id}: receipt acknowledged but subscription {original} is missing")
            continue
        expectation, value = LEDGER.expect.get(account_id, (None, None))
        if expectation == "revoked" and subscription["state"] != "revoked":
            lost.append(f"account {account_id}: refund acknowledged but state is {subscription['state']}")
        if expectation == "renewed" and (subscription["expiresAt"] or "")[:19] != value[:19]:
            lost.append(f"account {account_id}: renewal to {value} acknowledged but expiresAt is {subscription['expiresAt']}")
    stored = {}
    for publication in PUBLICATIONS:
        path = f"/v1/publications/{publication}/issues?include=all&limit=500"
        while path:
            status, answer = get(path, ADMIN_KEY)
            if status != 200:
                lost.append(f"publication {publication}: GET issues answers {status}")
                break
            for issue in answer["issues"]:
                stored[(publication, issue["id"])] = (issue["title"], issue["state"])
            cursor = answer.get("next")
            path = f"/v1/publications/{publication}/issues?include=all&limit=500&after={urllib.parse.quote(cursor)}" if cursor else None
    for key, acceptable in LEDGER.issues.items():
        if stored.get(key) not in acceptable:
            lost.append(f"issue {key[0]}/{key[1]}: expected one of {sorted(acceptable)}, found {stored.get(key)}")
    return lost


# ---------------------------------------------------------------------------------------------

def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def main():
    print(f"load before: {open('/proc/loadavg').read().strip()}", flush=True)
    proxy = FaultProxy(PROXY_PORT, SIMULATOR_PORT)
    GATEWAY_PROCESS.start()
    admin = Client(GATEWAY_PORT)
    status, key = call(admin, "POST keys", "POST", "/v1/keys", {"role": "editor", "publications": PUBLICATIONS},
                       auth(ADMIN_KEY), ok=(201,))
    if status != 201:
        raise SystemExit(f"could not create an editor key: {status} {key}")
    threads = [threading.Thread(target=f, args=a, daemon=True) for f, a in
               [(fault_turns, (proxy,)), (restart_database if DATABASE_URL else busy_database, ()), (sample_rss, ()), (killer, ()),
                (notifier, ()), (editor, (key["key"],)), (creation_pace, ())]
               + [(creator, (proxy,))] * CREATORS + [(reader, ())] * READERS]
    for thread in threads:
        thread.start()
    try:
        while elapsed() < DURATION:
            time.sleep(min(10, DURATION - elapsed() + 0.01))
            with LOCK:
                n = sum(STATS.counts.values())
            print(f"  {elapsed():6.0f}s  proxy {proxy.mode:<11} requests {n:>8}  accounts {len(LEDGER.accounts):>6}"
                  f"  unexpected {len(STATS.unexpected)}", flush=True)
        STOP.set()
        for thread in threads:
            thread.join(90)
        print(f"load after:  {open('/proc/loadavg').read().strip()}", flush=True)
        lost = verify()
        report(proxy, lost)
    finally:
        STOP.set()
        GATEWAY_PROCESS.stop()
    failed = bool(lost) or bool(STATS.unexpected) or not rss_flat()[2] or bool(database_restart_failures())
    sys.exit(1 if failed else 0)


def rss_flat():
    """RSS at the start and the end of the steady window, and whether it grew within the tolerance.

    The caches fill towards the readers' working set, which keeps growing while accounts are
    created: that growth is bounded by ISSUE_GATEWAY_CACHE_MEMORY and is not a leak. So the
    window that must stay flat begins at the first sample (after the warm-up) where the caches
    already held within CACHE_SETTLED of what they held before the kill, and must last at least
    STEADY_MIN of the run; a run whose caches never settle fails. Decision 122."""
    window = steady_window()
    if window is None:
        return None, None, False
    start, _ = window
    warm = [kib for t, kib in STATS.rss if start <= t < start + 10]
    end = [kib for t, kib in STATS.rss if KILL_AT - 10 <= t < KILL_AT]
    if not warm or not end:
        return None, None, False
    return warm[0], end[-1], end[-1] <= warm[0] * (1 + RSS_TOLERANCE)


def steady_window():
    """(start, seconds) of the window before the kill in which the caches' bytes stayed within
    CACHE_SETTLED of their last value, or None when it is shorter than STEADY_MIN × DURATION."""
    held = [(t, n) for t, n in STATS.cache if t < KILL_AT]
    if not held:
        return None
    last = held[-1][1]
    start = next((t for t, n in held if t >= WARMUP and n >= last * (1 - CACHE_SETTLED)), None)
    if start is None or KILL_AT - start < STEADY_MIN * DURATION:
        return None
    return start, KILL_AT - start


def report(proxy, lost):
    print(f"\nsoak run: {DURATION:.0f}s, warm-up {WARMUP:.0f}s, kill -9 at {STATS.kill_window[0]:.1f}s, "
          f"listening again after {STATS.kill_window[1] - STATS.kill_window[0]:.2f}s")
    print(f"proxy connections by mode: {dict(proxy.served)}; database write locks held: {dict(BUSY_HELD)}")
    if DATABASE_URL:
        print(f"PostgreSQL restarted: {DB_RESTART}")
        for problem in database_restart_failures():
            print(f"DATABASE RESTART: {problem}")
    print(f"\n{'requests by kind and status':<44} {'count':>8}")
    for (kind, status), n in sorted(STATS.counts.items(), key=lambda kv: (kv[0][0], str(kv[0][1]))):
        print(f"  {kind:<36} {str(status):<22} {n:>8}")
    print(f"\n{'latency (warm window, answered < 400)':<40} {'n':>8} {'p50 ms':>8} {'p99 ms':>8}")
    for kind, values in sorted(STATS.latency.items()):
        print(f"  {kind:<38} {len(values):>8} {percentile(values, .5) * 1000:8.1f} {percentile(values, .99) * 1000:8.1f}")
    warm, end, flat = rss_flat()
    peak = max((kib for _, kib in STATS.rss), default=0)
    after_warmup = next((kib for t, kib in STATS.rss if t >= WARMUP), None)
    window = steady_window()
    print(f"\nRSS after warm-up ({WARMUP:.0f}s): {after_warmup and after_warmup // 1024} MiB; peak {peak // 1024} MiB")
    if window is None:
        print(f"caches never settled (within {CACHE_SETTLED:.0%} for {STEADY_MIN:.0%} of the run): RSS not judged: NO")
    else:
        print(f"steady window {window[0]:.0f}-{KILL_AT:.0f}s (caches within {CACHE_SETTLED:.0%} of their last bytes): "
              f"RSS {warm and warm // 1024} -> {end and end // 1024} MiB "
              f"({(end - warm) / warm:+.1%}); flat within +{RSS_TOLERANCE:.0%}: {'yes' if flat else 'NO'}")
    print(f"RSS samples (s: MiB): " + " ".join(f"{t:.0f}:{kib // 1024}" for t, kib in STATS.rss[::15]))
    print(f"cache bytes (s: MiB): " + " ".join(f"{t:.0f}:{held / 1048576:.1f}" for t, held in STATS.cache[::3]))
    print(f"\nacknowledged writes: {dict(LEDGER.writes)}")
    print(f"ledger checked after the restart: {len(LEDGER.accounts)} accounts, {len(LEDGER.subscriptions)} subscriptions, "
          f"{sum(1 for e, _ in LEDGER.expect.values() if e in ('renewed', 'revoked'))} notifications, {len(LEDGER.issues)} issues")
    if lost:
        print(f"\nLOST ({len(lost)}):")
        for line in lost:
            print("  " + line)
    else:
        print("nothing acknowledged was lost")
    if STATS.unexpected:
        print(f"\nUNEXPECTED answers ({len(STATS.unexpected)}; first 30):")
        for t, kind, status, detail in STATS.unexpected[:30]:
            print(f"  {t:>7}s {kind} {status}: {detail}")
    else:
        print("no unexpected answers")


if __name__ == "__main__":
    main()
