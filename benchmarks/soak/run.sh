#!/usr/bin/env bash
# Soak and fault run (issue #10 item 9): the real gateway (`issue-gateway serve`, release build)
# under mixed load for DURATION seconds (readers with edge checks, receipts, V1/V2 notifications,
# catalog edits) while the App Store (the simulator, behind a fault proxy) turns slow, failing and
# unreachable, another writer holds the SQLite write lock at intervals, and the gateway is killed
# with SIGKILL and restarted near the end. Then every acknowledged write is checked through the
# API. Prints request counts per kind and status, p50/p99 of the cached reads, RSS after warm-up
# and over the steady window, and the caches' bytes; exits nonzero on a lost write, an unexpected
# answer or RSS growth past the tolerance. Not part of `swift test`. The driver is
# benchmarks/soak/soak.py (standard library).
#
#   benchmarks/soak/run.sh                 # 10 minutes
#   DURATION=120 benchmarks/soak/run.sh    # a short run
#
# Settings (environment): DURATION=600, WARMUP (20% of DURATION, at most 90 s), READERS=4,
# CREATORS=2, INITIAL_ACCOUNTS=1000 (created at once), CREATE_RATE=0.5 (new accounts per second
# after those), EDIT_EVERY=2 (seconds between catalog edits), FAULT_PHASE=20 (seconds per App
# Store phase: normal, slow, normal, failing, normal, unreachable), SLOW_DELAY=4, BUSY_EVERY=30
# and BUSY_HOLD=3,7 (seconds between database write locks, and each lock's hold in turns: the
# gateway's busy timeout is 5 s), RSS_TOLERANCE=0.05 (RSS growth allowed over the steady window: from
# when the caches hold within CACHE_SETTLED=0.05 of their bytes before the kill; it must last
# STEADY_MIN=0.25 of the run: decision 122), GATEWAY (a built issue-gateway; default:
# build this checkout in release), SIMULATOR (appstore-simulator; default: this checkout's,
# release), GATEWAY_PORT, SIMULATOR_PORT, PROXY_PORT, LOG_DIR (keeps the gateway's stderr there);
# LOSE_WRITES=1 checks the checker: the restart uses a copy of the database from 10 s before the
# kill, so the run must fail with the writes acknowledged since listed as lost. BACKEND=postgres
# runs the gateway on a PostgreSQL cluster of the run's own (scripts/pg-cluster, fsync on) and,
# instead of the SQLite write locks, stops the database server mid-run for DB_DOWN=5 seconds: the
# gateway must answer 503 with Retry-After meanwhile (from memory only within FEED_STALE_AFTER=1 s
# of the pause: the change feed's staleness bound) and serve within DB_BACK_WITHIN=5 s of its
# return.
set -euo pipefail
cd "$(dirname "$0")/../.."

export DURATION="${DURATION:-600}"
export GATEWAY_PORT="${GATEWAY_PORT:-18380}"
export SIMULATOR_PORT="${SIMULATOR_PORT:-18382}"
export PROXY_PORT="${PROXY_PORT:-18383}"

source benchmarks/lib/processes.sh
require_free_ports "$GATEWAY_PORT" "$SIMULATOR_PORT" "$PROXY_PORT"
export WORK

if [ "${BACKEND:-sqlite}" = postgres ]; then
  cluster="$(PG_CLUSTER_DURABLE=1 scripts/pg-cluster start)"
  export PG_CLUSTER_DIR="$(sed -n 's/^PG_CLUSTER_DIR=//p' <<<"$cluster")"
  admin_url="$(sed -n 's/^ISSUE_GATEWAY_TEST_DATABASE_URL=//p' <<<"$cluster")"
  trap 'cleanup; scripts/pg-cluster stop "$PG_CLUSTER_DIR"' EXIT
  psql -q "$admin_url" -c "CREATE DATABASE soak"
  export DATABASE_URL="${admin_url%/postgres}/soak"
fi

source benchmarks/lib/binaries.sh
build_release_binaries
export GATEWAY

# The simulator starts with no receipts: the driver adds one per account.
echo '{"bundleId":"com.example.magazines","appAppleId":1234567890,"sharedSecret":"soak-secret","receipts":{}}' \
  > "$WORK/script.json"
$SIMULATOR --listen "127.0.0.1:$SIMULATOR_PORT" --script "$WORK/script.json" --root-cert "$WORK/root.pem" \
  >"$WORK/simulator.log" 2>&1 &
PIDS+=($!)
wait_for_port "$SIMULATOR_PORT"

echo "gateway: $GATEWAY (${BACKEND:-sqlite})"
echo "machine: $(nproc) cores, $(awk -F: '/model name/ {gsub(/^ +/,"",$2); print $2; exit}' /proc/cpuinfo)"
[ -n "${LOG_DIR:-}" ] && mkdir -p "$LOG_DIR" && cp "$WORK/simulator.log" "$LOG_DIR/" 2>/dev/null; export LOG_DIR
python3 benchmarks/soak/soak.py &
DRIVER=$!
PIDS+=("$DRIVER")
wait "$DRIVER"
