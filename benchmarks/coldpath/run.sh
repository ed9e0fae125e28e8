#!/usr/bin/env bash
# The cold path of issue lists (issue 32: after the catalog revision moves, every reader's first
# list reads its facts from the store and evaluates them), this build against the release before,
# alternating in one run, on the same accounts:
#   1. ACCOUNTS accounts with realistic multi-year facts loaded straight through the store's units
#      of work (`issue-gateway-bench reports-load` of the release before, into SQLite; with
#      DATABASE_URL also copied to two PostgreSQL schemas with `issue-gateway store copy`);
#   2. ROUNDS times, each build in turn: a NEW gateway process on that database (nothing kept),
#      then every account's issue list once, in order, as admin (benchmarks/accounts/issue-reader.c,
#      CONNECTIONS keep-alive connections): lists/s of that cold pass; then an issue is published
#      (the catalog revision moves, every kept answer is stale) and every list is read again:
#      lists/s of that pass (the facts of the accounts the facts cache still holds are not read).
#
#   ACCOUNTS=20000 BEFORE_GATEWAY=/work/before/.build/release/issue-gateway \
#     BEFORE_BENCH=/work/before/.build/release/issue-gateway-bench benchmarks/coldpath/run.sh
#   DATABASE_URL=postgresql://…/postgres …                # the same on PostgreSQL (two schemas)
#
# Settings: ACCOUNTS (20000), ROUNDS (2), CONNECTIONS (64), PORT, GATEWAY (this checkout's release
# build unless set), BEFORE_GATEWAY and BEFORE_BENCH (required: the release before's binaries),
# DATABASE_URL (a PostgreSQL server this script may create two schemas on, dropped at the end).
set -euo pipefail
cd "$(dirname "$0")/../.."

ACCOUNTS="${ACCOUNTS:-20000}"
ROUNDS="${ROUNDS:-2}"
CONNECTIONS="${CONNECTIONS:-64}"
PORT="${PORT:-18580}"
ADMIN="bench-admin-key-0123456789abcdefghijklmnop"
: "${BEFORE_GATEWAY:?the release before's issue-gateway}" "${BEFORE_BENCH:?the release before's issue-gateway-bench}"

source benchmarks/lib/processes.sh
require_free_ports "$PORT"
source benchmarks/lib/binaries.sh
build_release_binaries gateway

echo "load before: $(uptime)"
DATABASE="$WORK/cold.sqlite"
ISSUE_GATEWAY_DATABASE="$DATABASE" "$BEFORE_GATEWAY" catalog import catalog >/dev/null
"$BEFORE_BENCH" reports-load "$DATABASE" "$ACCOUNTS"
for n in $(seq 0 $((ACCOUNTS - 1))); do echo "bench-$n $ADMIN"; done >"$WORK/accounts.txt"
cc -O2 -o "$WORK/issue-reader" benchmarks/accounts/issue-reader.c -lpthread

declare -A LOCATION
if [ -n "${DATABASE_URL:-}" ]; then
  separator="?"; [[ "$DATABASE_URL" == *"?"* ]] && separator="&"
  for which in before this; do
    schema="cold_${which}_$$"
    psql -q "$DATABASE_URL" -c "CREATE SCHEMA $schema"
    LOCATION[$which]="$DATABASE_URL${separator}options=-csearch_path%3D$schema"
    ISSUE_GATEWAY_DATABASE="$DATABASE" "$BEFORE_GATEWAY" store copy --to "${LOCATION[$which]}" >/dev/null
  done
  trap 'for w in before this; do psql -q "$DATABASE_URL" -c "DROP SCHEMA IF EXISTS cold_${w}_$$ CASCADE" || true; done; cleanup' EXIT
else
  cp "$DATABASE" "$WORK/before.sqlite"
  cp "$DATABASE" "$WORK/this.sqlite"
  LOCATION[before]="$WORK/before.sqlite"
  LOCATION[this]="$WORK/this.sqlite"
fi
echo "database: $(du -h "$DATABASE" | cut -f1) SQLite, $ACCOUNTS accounts; lists as admin, ?publication=monthly"

pass() { "$WORK/issue-reader" 127.0.0.1 "$PORT" "$WORK/accounts.txt" "?publication=monthly" "$CONNECTIONS"; }
publish() {  # a new issue of monthly: the catalog revision moves
  local id="cold-$1-$RANDOM"
  curl -sf -X POST -H "Authorization: Bearer $ADMIN" -H 'Content-Type: application/json' \
    "http://127.0.0.1:$PORT/v1/publications/monthly/issues" \
    -d "{\"id\":\"$id\",\"title\":\"$id\",\"publishedAt\":\"$(date -u +%FT%TZ)\",\"assets\":[]}" >/dev/null
}
for round in $(seq 1 "$ROUNDS"); do
  for which in before this; do
    binary="$GATEWAY"; [ "$which" = before ] && binary="$BEFORE_GATEWAY"
    location="${LOCATION[$which]}"
    variable=ISSUE_GATEWAY_DATABASE; [ -n "${DATABASE_URL:-}" ] && variable=ISSUE_GATEWAY_DATABASE_URL
    env ISSUE_GATEWAY_LISTEN="127.0.0.1:$PORT" "$variable=$location" ISSUE_GATEWAY_ADMIN_KEY="$ADMIN" \
      ISSUE_GATEWAY_THREADS="$(nproc)" "$binary" serve >/dev/null 2>>"$WORK/gateway.log" &
    SERVED=$!
    PIDS+=("$SERVED")
    wait_for_port "$PORT"
    cold="$(pass)"
    publish "$round"
    published="$(pass)"
    echo "round $round, $which: new process, cold pass: $cold; after a publication: $published (requests/s requests non-200 seconds); load $(cut -d' ' -f1-3 /proc/loadavg)"
    kill "$SERVED"; wait "$SERVED" 2>/dev/null || true
  done
done
echo "load after: $(uptime)"
