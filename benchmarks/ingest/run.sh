#!/usr/bin/env bash
# Ingest throughput of the real gateway (`issue-gateway serve`, release build), on SQLite and then
# on PostgreSQL (fsync on), with the App Store simulator answering at once: receipts/s (each
# verified by the simulator), StoreKit 2 signed transactions/s (E2 verification, E1/E4 ingest) and
# V2 notifications/s (three JWS verified, facts stored before the 200), each with p50/p99, and
# `GET /healthz` through the same Python client as the peer measured in the same run.
# Google Play and Stripe notifications: benchmarks/googleplay/run.sh and benchmarks/stripe/run.sh.
# With PEER set, that gateway binary (the release before) is measured too, before this one on each
# backend, each on a fresh database; on PostgreSQL the statements of each run are listed
# (pg_stat_statements).
#
#   benchmarks/ingest/run.sh                 # COUNT=2000 of each, WORKERS=4 client processes
#   COUNT=500 BACKENDS=sqlite benchmarks/ingest/run.sh
#   PEER=/work/before/.build/release/issue-gateway ROUNDS=2 WORKERS=16 benchmarks/ingest/run.sh
#
# Settings: COUNT, WORKERS, BACKENDS ("sqlite postgresql"), ROUNDS=1, PEER, GATEWAY, SIMULATOR
# (release builds of this checkout unless set), GATEWAY_PORT, SIMULATOR_PORT. With V2_WRK=1 the
# Python client only sets up: the COUNT V2 notifications are then posted by wrk (CONNECTIONS=64,
# DURATION=4 s; the Python client, not the gateway, limits its own V2 figure) and the rate is
# what the gateway's metrics count as taken.
set -euo pipefail
cd "$(dirname "$0")/../.."

COUNT="${COUNT:-2000}"
WORKERS="${WORKERS:-4}"
BACKENDS="${BACKENDS:-sqlite postgresql}"
ROUNDS="${ROUNDS:-1}"
PEER="${PEER:-}"
GATEWAY_PORT="${GATEWAY_PORT:-18380}"
SIMULATOR_PORT="${SIMULATOR_PORT:-18382}"
V2_WRK="${V2_WRK:-}"
CONNECTIONS="${CONNECTIONS:-64}"
DURATION="${DURATION:-4}"
CORES="$(nproc)"

source benchmarks/lib/processes.sh
require_free_ports "$GATEWAY_PORT" "$SIMULATOR_PORT"
source benchmarks/lib/binaries.sh
build_release_binaries

source benchmarks/lib/postgres.sh
[[ " $BACKENDS " != *" postgresql "* ]] || start_durable_cluster

wrk_notifications() {  # label backend run gateway-pid: the captured V2 notifications posted by wrk, each once
  local out taken ticks
  echo "$1 $2 notificationsV2(wrk) load before: $(uptime)" >&2
  ticks="$(cpu_ticks "$4")"
  out="$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s benchmarks/lib/post-lines.lua \
    "http://127.0.0.1:$GATEWAY_PORT" -- "$3/notifications.txt" 2 /v1/appstore/notifications)"
  taken="$(curl -s "http://127.0.0.1:$GATEWAY_PORT/metrics" \
    | awk '/^issue_gateway_appstore_notifications_total/ && /result="taken"/ {print $2}')"
  echo "$1-$2 notificationsV2(wrk) taken ${taken:-0} in ${DURATION} s = $(( ${taken:-0} / DURATION ))/s;" \
    "p50 $(awk '$1 == "50%" {print $2}' <<<"$out") p99 $(awk '$1 == "99%" {print $2}' <<<"$out");" \
    "gateway CPU $(cpu_per_item "$ticks" "$(cpu_ticks "$4")" "${taken:-0}") ms/notification;" \
    "$(awk '/Non-2xx|Socket errors/ {print}' <<<"$out" | tr '\n' ' ')"
}

run_once() {  # label binary backend: one gateway and simulator on a fresh database
  local label="$1" binary="$2" backend="$3" run="$WORK/$1-$3" database_url="" gateway_pid simulator_pid
  rm -rf "$run"  # a fresh SQLite file each round, as PostgreSQL's fresh_database
  mkdir -p "$run"
  [ "$backend" != postgresql ] || database_url="$(fresh_database ingest)"
  echo '{"bundleId":"com.example.magazines","appAppleId":1234567890,"sharedSecret":"benchmark-secret","receipts":{}}' \
    > "$run/script.json"
  $SIMULATOR --listen "127.0.0.1:$SIMULATOR_PORT" --script "$run/script.json" --root-cert "$run/root.pem" \
    >"$run/simulator.log" 2>&1 &
  simulator_pid=$!
  PIDS+=("$simulator_pid")
  wait_for_port "$SIMULATOR_PORT"
  env ISSUE_GATEWAY_LISTEN="127.0.0.1:$GATEWAY_PORT" ISSUE_GATEWAY_DATABASE="$run/db.sqlite" \
    ISSUE_GATEWAY_CATALOG=catalog ISSUE_GATEWAY_THREADS="$CORES" \
    ISSUE_GATEWAY_APPSTORE_PRODUCTION_URL="http://127.0.0.1:$SIMULATOR_PORT/verifyReceipt" \
    ISSUE_GATEWAY_APPSTORE_SANDBOX_URL="http://127.0.0.1:$SIMULATOR_PORT/sandbox/verifyReceipt" \
    ISSUE_GATEWAY_APPSTORE_SHARED_SECRET=benchmark-secret \
    ISSUE_GATEWAY_APPLE_ROOT_CERTS="$run/root.pem" ISSUE_GATEWAY_BUNDLE_ID=com.example.magazines \
    ISSUE_GATEWAY_APP_APPLE_ID=1234567890 \
    ISSUE_GATEWAY_ACCOUNT_CREATION_RATE=100000000 ISSUE_GATEWAY_ACCOUNT_CREATION_BURST=$((COUNT * 2 + 10)) \
    ${database_url:+ISSUE_GATEWAY_DATABASE_URL="$database_url"} \
    "$binary" serve >/dev/null 2>"$run/gateway.log" &
  gateway_pid=$!
  PIDS+=("$gateway_pid")
  wait_for_port "$GATEWAY_PORT"
  echo "$label $backend load before: $(uptime)" >&2
  ${V2_WRK:+env NOTIFICATIONS_OUT="$run/notifications.txt"} python3 benchmarks/ingest/ingest.py \
    "http://127.0.0.1:$GATEWAY_PORT" "http://127.0.0.1:$SIMULATOR_PORT" "$COUNT" "$WORKERS" "$label-$backend"
  [ -z "$V2_WRK" ] || wrk_notifications "$label" "$backend" "$run" "$gateway_pid"
  echo "$label $backend load after: $(uptime)" >&2
  if [ "$backend" = postgresql ]; then
    echo "$label $backend statements run over setup and the timed phases (calls, statement):"
    statement_counts ingest | sed 's/^/  /'
  fi
  kill "$gateway_pid" "$simulator_pid"
  wait "$gateway_pid" "$simulator_pid" 2>/dev/null || true
}

alternate_with_peer run_once
