#!/usr/bin/env bash
# reports.md, How fast: E37's five-year daily series on a store already loaded (by
# `issue-gateway-bench reports-load`, or run.sh's), asked COUNT times of a fresh gateway (the
# first answer cold), each with its wall time and the gateway's CPU time (user + system from
# /proc/PID/stat: on a shared machine the CPU time compares builds better than the wall time).
#
#   GATEWAY=… DATABASE=… benchmarks/reports/series.sh
#
# Settings: GATEWAY (a release build of issue-gateway), DATABASE (the SQLite file), COUNT (2), PORT.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${GATEWAY:?set GATEWAY}" "${DATABASE:?set DATABASE}"
COUNT="${COUNT:-2}"
PORT="${PORT:-18482}"
ADMIN="bench-admin-key-0123456789abcdefghijklmnop"

source benchmarks/lib/processes.sh
require_free_ports "$PORT"
env ISSUE_GATEWAY_LISTEN="127.0.0.1:$PORT" ISSUE_GATEWAY_DATABASE="$DATABASE" ISSUE_GATEWAY_ADMIN_KEY="$ADMIN" \
  ISSUE_GATEWAY_THREADS="$(nproc)" ISSUE_GATEWAY_CATALOG=none "$GATEWAY" serve >/dev/null 2>>"$WORK/gateway.log" &
SERVED=$!
PIDS+=("$SERVED")
wait_for_port "$PORT"
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$SERVED/stat"; }
FROM="$(date -u -d '5 years ago + 1 day' +%F)" TO="$(date -u +%F)"
echo "load before: $(uptime)"
for attempt in $(seq 1 "$COUNT"); do
  before="$(cpu_ticks)"
  line="$(curl -s -o /dev/null -w '%{http_code} %{time_total}' -H "Authorization: Bearer $ADMIN" \
    "http://127.0.0.1:$PORT/v1/publications/monthly/metrics?from=$FROM&to=$TO&interval=day")"
  after="$(cpu_ticks)"
  echo "five-year daily series $FROM..$TO (#$attempt): HTTP ${line% *}, ${line#* } s, gateway CPU $(( (after - before) * 1000 / $(getconf CLK_TCK) )) ms"
done
echo "gateway memory: $(awk '/^VmRSS|^VmHWM/ {printf "%s %s %s; ", $1, $2, $3}' "/proc/$SERVED/status")"
echo "load after: $(uptime)"
