#!/usr/bin/env bash
# Ingest throughput of the real gateway (`issue-gateway serve`, release build), on SQLite and then
# on PostgreSQL (fsync on), with the App Store simulator answering at once: receipts/s (each
# verified by the simulator), StoreKit 2 signed transactions/s (E2 verification, E1/E4 ingest) and
# V2 notifications/s (three JWS verified, facts stored before the 200), each with p50/p99, and
# `GET /healthz` through the same Python client as the peer measured in the same run.
# Google Play and Stripe notifications: benchmarks/googleplay/run.sh and benchmarks/stripe/run.sh.
#
#   benchmarks/ingest/run.sh                 # COUNT=2000 of each, WORKERS=4 client processes
#   COUNT=500 BACKENDS=sqlite benchmarks/ingest/run.sh
#
# Settings: COUNT, WORKERS, BACKENDS ("sqlite postgresql"), GATEWAY, SIMULATOR (release builds of
# this checkout unless set), GATEWAY_PORT, SIMULATOR_PORT.
set -euo pipefail
cd "$(dirname "$0")/../.."

COUNT="${COUNT:-2000}"
WORKERS="${WORKERS:-4}"
BACKENDS="${BACKENDS:-sqlite postgresql}"
GATEWAY_PORT="${GATEWAY_PORT:-18380}"
SIMULATOR_PORT="${SIMULATOR_PORT:-18382}"
CORES="$(nproc)"

source benchmarks/lib/processes.sh
require_free_ports "$GATEWAY_PORT" "$SIMULATOR_PORT"
source benchmarks/lib/binaries.sh
build_release_binaries

if [[ " $BACKENDS " == *" postgresql "* ]]; then
  cluster="$(PG_CLUSTER_DURABLE=1 scripts/pg-cluster start)"
  eval "$cluster"
  trap 'cleanup; scripts/pg-cluster stop "$PG_CLUSTER_DIR"' EXIT
fi

echo "load before: $(uptime)" >&2
for backend in $BACKENDS; do
  run="$WORK/$backend"
  mkdir -p "$run"
  database_url=""
  if [ "$backend" = postgresql ]; then
    psql -q "$ISSUE_GATEWAY_TEST_DATABASE_URL" -c "DROP DATABASE IF EXISTS ingest" -c "CREATE DATABASE ingest"
    database_url="${ISSUE_GATEWAY_TEST_DATABASE_URL%/postgres}/ingest"
  fi
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
    "$GATEWAY" serve >/dev/null 2>"$run/gateway.log" &
  gateway_pid=$!
  PIDS+=("$gateway_pid")
  wait_for_port "$GATEWAY_PORT"
  python3 benchmarks/ingest/ingest.py "http://127.0.0.1:$GATEWAY_PORT" "http://127.0.0.1:$SIMULATOR_PORT" \
    "$COUNT" "$WORKERS" "$backend"
  kill "$gateway_pid" "$simulator_pid"
  wait "$gateway_pid" "$simulator_pid" 2>/dev/null || true
done
echo "load after: $(uptime)" >&2
