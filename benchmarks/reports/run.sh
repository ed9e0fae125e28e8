#!/usr/bin/env bash
# reports.md, How fast: ACCOUNTS accounts with realistic facts (three stores, trials, lapses and
# returns, refunds, billing retry with grace, non-renewing purchases, grants) loaded straight
# through the store's units of work (`issue-gateway-bench reports-load`: each account's facts
# saved and bound to it, then its facts version bumped, which marks its reports' rows due as at
# ingest), the rows then derived as the product derives them (`issue-gateway reports rebuild`:
# every account marked and the marks drained, decision 96; its time is printed),
# then, against the release build serving that SQLite file:
#   - one issue's circulation (E36, goal ≤ 2 s) and a five-year daily series (E37, goal ≤ 5 s),
#     each asked three times (the first cold);
#   - the gateway's RSS after them;
#   - token requests per second (wrk, POST …/token) against the release before (BEFORE), each
#     on a fresh store, alternating ROUNDS times (goal ≥ 95 %): the release before records no
#     downloads and this one does, and this build has no switch to record none;
#   - ingest (benchmarks/ingest/run.sh on INGEST_BACKENDS, COUNT of each kind) against the
#     release before (goal ≥ 90 %), alternating ROUNDS times.
#
#   benchmarks/reports/run.sh                    # ACCOUNTS=1000000
#   ACCOUNTS=20000 benchmarks/reports/run.sh     # a quick run
#
# Settings: ACCOUNTS, BEFORE (git commit of the release before, e71728e), COUNT (ingest, 500),
# DURATION (wrk seconds, 8), ROUNDS (2), INGEST_BACKENDS ("sqlite"; "sqlite postgresql" adds the
# ingest script's own throw-away PostgreSQL cluster), PORT, GATEWAY, SIMULATOR, BENCH, BEFORE_GATEWAY (release
# builds; those of this checkout, and of BEFORE exported by `git archive` and built in the
# temporary folder, unless set), SKIP_BEFORE=1 (the load, circulation, series and RSS only),
# SKIP_TOKENS=1 (no token requests), KEEP_LOAD=FILE (the loaded and derived database is made
# there and kept), LOAD_FROM=FILE (starts from such a database: no load, no derivation).
set -euo pipefail
cd "$(dirname "$0")/../.."

ACCOUNTS="${ACCOUNTS:-1000000}"
BEFORE="${BEFORE:-e71728e}"
COUNT="${COUNT:-500}"
DURATION="${DURATION:-8}"
ROUNDS="${ROUNDS:-2}"
INGEST_BACKENDS="${INGEST_BACKENDS:-sqlite}"
PORT="${PORT:-18480}"
ADMIN="bench-admin-key-0123456789abcdefghijklmnop"
BASE="http://127.0.0.1:$PORT"

source benchmarks/lib/processes.sh
source benchmarks/lib/tools.sh
require_tools curl wrk python3
require_free_ports "$PORT"
source benchmarks/lib/binaries.sh
build_release_binaries
if [ -z "${BENCH:-}" ]; then
  swift build -c release --product issue-gateway-bench >>"$WORK/build.log" 2>&1 || { cat "$WORK/build.log" >&2; exit 1; }
  BENCH="$(swift build -c release --show-bin-path)/issue-gateway-bench"
fi
[ "${SKIP_BEFORE:-0}" = 1 ] || build_before_gateway "$BEFORE"

serve() {  # binary database [settings…]: the gateway on PORT, its pid in SERVED
  local binary="$1" database="$2"; shift 2
  env ISSUE_GATEWAY_LISTEN="127.0.0.1:$PORT" ISSUE_GATEWAY_DATABASE="$database" ISSUE_GATEWAY_ADMIN_KEY="$ADMIN" \
    ISSUE_GATEWAY_THREADS="$(nproc)" ISSUE_GATEWAY_ACCOUNT_CREATION_RATE=100000000 "$@" \
    "$binary" serve >/dev/null 2>>"$WORK/gateway.log" &
  SERVED=$!
  PIDS+=("$SERVED")
  wait_for_port "$PORT"
}
stop() { kill "$SERVED"; wait "$SERVED" 2>/dev/null || true; }
cpu_seconds() {  # pid: user + system CPU seconds the process has used
  awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$1/stat"
}
timed() {  # label path: three GETs as admin, "status seconds" each, and the gateway's CPU seconds
  local label="$1" path="$2" line before
  for attempt in 1 2 3; do
    before="$(cpu_seconds "$SERVED")"
    line="$(curl -s -o /dev/null -w '%{http_code} %{time_total}' -H "Authorization: Bearer $ADMIN" "$BASE$path")"
    echo "$label (#$attempt): HTTP ${line% *}, ${line#* } s, gateway CPU $(echo "$(cpu_seconds "$SERVED") - $before" | bc -l) s"
  done
}

echo "load before: $(uptime)"
DATABASE="${LOAD_FROM:-${KEEP_LOAD:-$WORK/reports.sqlite}}"
if [ -z "${LOAD_FROM:-}" ]; then
  rm -f "$DATABASE"*
  ISSUE_GATEWAY_DATABASE="$DATABASE" "$GATEWAY" catalog import catalog >/dev/null
  "$BENCH" reports-load "$DATABASE" "$ACCOUNTS"
  echo "database after the load: $(du -h "$DATABASE" | cut -f1)"
  started="$(date +%s.%N)"
  ISSUE_GATEWAY_DATABASE="$DATABASE" "$GATEWAY" reports rebuild
  echo "reports' rows derived for $ACCOUNTS accounts: $(python3 -c "print(f'{$(date +%s.%N) - $started:.1f}')") s"
fi
echo "database: $(du -h "$DATABASE" | cut -f1)"

serve "$GATEWAY" "$DATABASE" ISSUE_GATEWAY_CATALOG=none
# The gateway's own work after it starts listening (the status poller's first pass reads every
# subscription's latest expiry) is waited out, at most 60 s, so the reports are timed alone.
started="$(date +%s.%N)" last=-1
for _ in $(seq 1 120); do
  now_cpu="$(cpu_seconds "$SERVED")"
  [ "$now_cpu" = "$last" ] && break
  last="$now_cpu"; sleep 0.5
done
echo "start-up work after listening: $(cpu_seconds "$SERVED") s of CPU, settled after $(python3 -c "print(f'{$(date +%s.%N) - $started:.1f}')") s"
ISSUE="$(curl -sf -H "Authorization: Bearer $ADMIN" "$BASE/v1/publications/monthly/issues?limit=1" \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["issues"][0]["id"])')"
timed "circulation of monthly/$ISSUE (E36, goal <= 2 s)" "/v1/publications/monthly/issues/$ISSUE/circulation"
FROM="$(date -u -d '5 years ago + 1 day' +%F)" TO="$(date -u +%F)"
timed "five-year daily series $FROM..$TO (E37, goal <= 5 s)" "/v1/publications/monthly/metrics?from=$FROM&to=$TO&interval=day"
echo "gateway memory after the reports: $(awk '/^VmRSS|^VmHWM/ {printf "%s %s %s; ", $1, $2, $3}' "/proc/$SERVED/status")"
stop

if [ "${SKIP_BEFORE:-0}" = 1 ]; then echo "load after: $(uptime)"; exit 0; fi

printf 'wrk.method = "POST"\n' >"$WORK/post.lua"
tokens() {  # label binary: token requests/s of one reader entitled by a grant, on a fresh store
  local label="$1" binary="$2" round="$3"
  rm -f "$WORK/tokens.sqlite"*
  serve "$binary" "$WORK/tokens.sqlite" ISSUE_GATEWAY_CATALOG=catalog ISSUE_GATEWAY_TOKEN_TTL=3600
  local account id token path rate
  account="$(curl -sf -X POST "$BASE/v1/accounts")"
  id="$(python3 -c 'import json, sys; print(json.load(sys.stdin)["accountId"])' <<<"$account")"
  token="$(python3 -c 'import json, sys; print(json.load(sys.stdin)["accountToken"])' <<<"$account")"
  curl -sf -X POST -H "Authorization: Bearer $ADMIN" -H 'Content-Type: application/json' "$BASE/v1/accounts/$id/grants" \
    -d '{"source":"support","externalId":"bench","publications":["monthly"],"start":"2000-01-01T00:00:00Z"}' >/dev/null
  path="/v1/accounts/$id/publications/monthly/issues/$ISSUE/token"
  curl -sf -X POST -H "Authorization: Bearer $token" "$BASE$path" >/dev/null || { echo "$label: the token route refused" >&2; exit 1; }
  wrk -t2 -c32 -d2s -s "$WORK/post.lua" -H "Authorization: Bearer $token" "$BASE$path" >/dev/null
  rate="$(wrk -t2 -c32 -d"${DURATION}s" -s "$WORK/post.lua" -H "Authorization: Bearer $token" "$BASE$path" \
    | awk '/Requests\/sec/ { print $2 }')"
  echo "token requests, $label, round $round: $rate req/s"
  stop
}
for round in $(seq 1 "$ROUNDS"); do
  [ "${SKIP_TOKENS:-0}" = 1 ] && break
  tokens "with download records (this build)" "$GATEWAY" "$round"
  tokens "release before ($BEFORE)" "$BEFORE_GATEWAY" "$round"
done

for round in $(seq 1 "$ROUNDS"); do
  for which in this before; do
    binary="$GATEWAY"; [ "$which" = before ] && binary="$BEFORE_GATEWAY"
    echo "ingest, $which build, round $round:"
    GATEWAY="$binary" SIMULATOR="$SIMULATOR" COUNT="$COUNT" BACKENDS="$INGEST_BACKENDS" benchmarks/ingest/run.sh 2>/dev/null \
      | sed 's/^/  /'
  done
done
echo "load after: $(uptime)"
