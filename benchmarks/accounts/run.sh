#!/usr/bin/env bash
# Memory and issue-list throughput of the real gateway (`issue-gateway serve`, release build) with
# many accounts: creates ACCOUNTS accounts with multi-year App Store histories through the real
# routes (the App Store simulator plays Apple), then reads every account's issue list twice with
# a small C client (benchmarks/accounts/issue-reader.c: first touch, then warm) and reports the gateway's RSS (VmRSS and peak VmHWM from
# /proc/PID/status) after creation and after each pass, and requests/s of each pass.
#
#   benchmarks/accounts/run.sh                 # 100,000 accounts (takes minutes)
#   ACCOUNTS=2000 benchmarks/accounts/run.sh   # a smoke run in seconds
#
# Settings (environment): ACCOUNTS=100000, CONNECTIONS=64, CREATE_WORKERS=6,
# ISSUES_QUERY='?publication=monthly' (appended to /v1/accounts/{id}/issues; '' for every
# publication), GATEWAY (a built issue-gateway; default: build this checkout in release),
# SIMULATOR (the App Store simulator command; default: this checkout's appstore-simulator, release),
# CACHE_MEMORY (ISSUE_GATEWAY_CACHE_MEMORY; unset: the gateway's default), GATEWAY_PORT,
# SIMULATOR_PORT (all accounts come from 127.0.0.1, so the per-address creation limit is lifted
# to ACCOUNTS); KEEP_STATE=DIR keeps the database, secrets and "accountId token" lines of a
# run in DIR, and FROM_STATE=DIR starts from them instead of creating accounts (to read the same
# accounts with another build: the creation through the App Store is by far the longest part).
# DATABASE_URL=postgresql://… runs the gateway on that PostgreSQL database instead of SQLite
# (benchmarks/postgres/run.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."

ACCOUNTS="${ACCOUNTS:-100000}"
CONNECTIONS="${CONNECTIONS:-64}"
CREATE_WORKERS="${CREATE_WORKERS:-6}"
ISSUES_QUERY="${ISSUES_QUERY-?publication=monthly}"
GATEWAY_PORT="${GATEWAY_PORT:-18280}"
SIMULATOR_PORT="${SIMULATOR_PORT:-18282}"
CORES="$(nproc)"

source benchmarks/lib/processes.sh
require_free_ports "$GATEWAY_PORT" "$SIMULATOR_PORT"

source benchmarks/lib/binaries.sh
build_release_binaries

if [ -n "${FROM_STATE:-}" ]; then
  cp -r "$FROM_STATE/gateway" "$WORK/gateway"
  cp "$FROM_STATE/accounts.txt" "$WORK/accounts.txt"
  ACCOUNTS="$(wc -l <"$WORK/accounts.txt")"
else
  # The simulator starts with no receipts: the creation adds one per account.
  echo '{"bundleId":"com.example.magazines","sharedSecret":"benchmark-secret","receipts":{}}' > "$WORK/script.json"
  $SIMULATOR --listen "127.0.0.1:$SIMULATOR_PORT" --script "$WORK/script.json" --root-cert "$WORK/root.pem" \
    >"$WORK/simulator.log" 2>&1 &
  PIDS+=($!)
  wait_for_port "$SIMULATOR_PORT"
fi

# The gateway on the sample catalog, SQLite in the temp dir, configured only through its variables.
env ISSUE_GATEWAY_LISTEN="127.0.0.1:$GATEWAY_PORT" ISSUE_GATEWAY_DATABASE="$WORK/gateway/db.sqlite" \
  ISSUE_GATEWAY_CATALOG=catalog ISSUE_GATEWAY_THREADS="$CORES" \
  ISSUE_GATEWAY_APPSTORE_PRODUCTION_URL="http://127.0.0.1:$SIMULATOR_PORT/verifyReceipt" \
  ISSUE_GATEWAY_APPSTORE_SANDBOX_URL="http://127.0.0.1:$SIMULATOR_PORT/sandbox/verifyReceipt" \
  ISSUE_GATEWAY_APPSTORE_SHARED_SECRET=benchmark-secret \
  ISSUE_GATEWAY_ACCOUNT_CREATION_RATE=100000000 ISSUE_GATEWAY_ACCOUNT_CREATION_BURST="$ACCOUNTS" \
  ${CACHE_MEMORY:+ISSUE_GATEWAY_CACHE_MEMORY="$CACHE_MEMORY"} \
  ${DATABASE_URL:+ISSUE_GATEWAY_DATABASE_URL="$DATABASE_URL"} \
  "$GATEWAY" serve >/dev/null 2>"$WORK/gateway.log" &
GATEWAY_PID=$!
PIDS+=("$GATEWAY_PID")
wait_for_port "$GATEWAY_PORT"

rss() {  # "VmRSS MiB / VmHWM MiB" of the gateway
  awk '/^VmRSS:/ {rss=$2} /^VmHWM:/ {hwm=$2} END {printf "%.0f MiB (peak %.0f MiB)", rss/1024, hwm/1024}' \
    "/proc/$GATEWAY_PID/status"
}

cc -O2 -o "$WORK/issue-reader" benchmarks/accounts/issue-reader.c -lpthread
pass() {  # one pass over every account; prints "requests/s requests non-200 seconds"
  "$WORK/issue-reader" 127.0.0.1 "$GATEWAY_PORT" "$WORK/accounts.txt" "$ISSUES_QUERY" "$CONNECTIONS"
}

echo "load before: $(uptime)" >&2
if [ -n "${FROM_STATE:-}" ]; then
  creation="$ACCOUNTS accounts read from $FROM_STATE (created through the routes by an earlier run)"
else
  started=$(date +%s)
  python3 benchmarks/accounts/create-accounts.py "http://127.0.0.1:$GATEWAY_PORT" "http://127.0.0.1:$SIMULATOR_PORT" \
    "$ACCOUNTS" "$CREATE_WORKERS" "$WORK/accounts.txt"
  creation="$ACCOUNTS accounts created in $(( $(date +%s) - started ))s"
  [ "$(wc -l <"$WORK/accounts.txt")" -eq "$ACCOUNTS" ] || { echo "not every account was created" >&2; exit 1; }
fi
read -r first_id first_token < "$WORK/accounts.txt"
BYTES="$(curl -sf -H "Authorization: Bearer $first_token" \
  "http://127.0.0.1:$GATEWAY_PORT/v1/accounts/$first_id/issues$ISSUES_QUERY" | wc -c)"
rss_created="$(rss)"
read -r rps_first n_first bad_first s_first <<<"$(pass)"
rss_first="$(rss)"
read -r rps_warm n_warm bad_warm s_warm <<<"$(pass)"
rss_warm="$(rss)"
echo "load after:  $(uptime)" >&2
curl -s "http://127.0.0.1:$GATEWAY_PORT/metrics" | grep -E '^issue_gateway_cache_' >"$WORK/cache-metrics.txt" || true

echo "gateway: $GATEWAY"
echo "$creation; GET /v1/accounts/{id}/issues$ISSUES_QUERY (first account: $BYTES bytes)"
echo "$CONNECTIONS keep-alive connections; $CORES cores, $(awk -F: '/model name/ {gsub(/^ +/,"",$2); print $2; exit}' /proc/cpuinfo)"
printf '%-22s %-30s %12s %10s %8s\n' stage "gateway RSS" "requests/s" requests non-200
printf '%-22s %-30s\n' "after creation" "$rss_created"
printf '%-22s %-30s %12s %10s %8s\n' "after first touch" "$rss_first" "$rps_first" "$n_first" "$bad_first"
printf '%-22s %-30s %12s %10s %8s\n' "after warm pass" "$rss_warm" "$rps_warm" "$n_warm" "$bad_warm"
if [ -s "$WORK/cache-metrics.txt" ]; then echo "cache metrics at the end:"; cat "$WORK/cache-metrics.txt"; fi
if [ -n "${KEEP_STATE:-}" ]; then
  kill -TERM "$GATEWAY_PID"; wait "$GATEWAY_PID" || true
  mkdir -p "$KEEP_STATE" && cp -r "$WORK/gateway" "$WORK/accounts.txt" "$KEEP_STATE/"
fi
