#!/usr/bin/env bash
# A whole print subscriber list (E29) of ROWS rows (default 1,000,000) sent to a fresh gateway as
# one CSV `PUT`: the time from the first byte sent to the answer, and the gateway's peak RSS
# (VmHWM) over its RSS when idle (goal: at most 256 MiB). Then the same list again (every row
# unchanged). GATEWAY may name a built binary; otherwise this checkout's release build.
set -euo pipefail
cd "$(dirname "$0")/../.."
. benchmarks/lib/processes.sh
. benchmarks/lib/binaries.sh
. benchmarks/lib/tools.sh
ROWS="${ROWS:-1000000}"
PORT="${PRINT_PORT:-18090}"
ADMIN="bench-admin-key-0123456789abcdefghijklmnop"
require_tools curl
require_free_ports "$PORT"
build_release_binaries gateway

awk -v rows="$ROWS" 'BEGIN {
  print "customerNumber,verification,start,end"
  for (i = 1; i <= rows; i++) printf "C%07d,AB%d %dCD,2026-01-01T00:00:00Z,%s\n", i, i % 97, i % 9, (i % 10 == 0 ? "2026-12-31T00:00:00Z" : "")
}' >"$WORK/list.csv"
echo "list: $ROWS rows, $(stat -c %s "$WORK/list.csv") bytes" >&2

ISSUE_GATEWAY_LISTEN="127.0.0.1:$PORT" ISSUE_GATEWAY_DATABASE="$WORK/gateway.sqlite" ISSUE_GATEWAY_CATALOG=none \
  ISSUE_GATEWAY_ADMIN_KEY="$ADMIN" "$GATEWAY" serve >"$WORK/gateway.log" 2>&1 &
GW=$!
PIDS+=("$GW")
wait_for_port "$PORT"
curl -sf -X PUT "http://127.0.0.1:$PORT/v1/publications/monthly" -H "Authorization: Bearer $ADMIN" \
  -H 'Content-Type: application/json' -d '{"title":"The Monthly"}' >/dev/null
sleep 1
rss_kib() { awk -v k="$1" '$1 == k":" { print $2 }' "/proc/$GW/status"; }
IDLE=$(rss_kib VmRSS)

put_list() {  # label
  local start end
  start=$(date +%s.%N)
  curl -sf -X PUT "http://127.0.0.1:$PORT/v1/publications/monthly/subscribers" -H "Authorization: Bearer $ADMIN" \
    -H 'Content-Type: text/csv' --data-binary @"$WORK/list.csv" -o "$WORK/answer.json"
  end=$(date +%s.%N)
  printf '%s: %.1f s, peak RSS %d MiB over idle %d MiB: %s\n' "$1" "$(echo "$end - $start" | bc)" \
    $(( ($(rss_kib VmHWM) - IDLE) / 1024 )) $(( IDLE / 1024 )) "$(head -c 200 "$WORK/answer.json")"
}
put_list "first import"
put_list "same list again"
