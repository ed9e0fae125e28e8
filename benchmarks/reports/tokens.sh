#!/usr/bin/env bash
# reports.md, How fast: the token route (`POST …/token`) with E36's download records against a
# build without them (`BEFORE_GATEWAY`, the release before the records existed), alternating the
# two builds ROUNDS times, each on a fresh store with the same readers (goal: ≥ 95 %).
# READERS accounts, each entitled by a grant, ask for tokens for the newest ISSUES issues of
# `monthly`, a random (reader, issue) pair per request: READERS=1 ISSUES=1 is run.sh's token
# phase (one pair, always already pending); more pairs make the recorder add new pairs after
# every flush. Each round reports the rate and the gateway's CPU time per request.
#
#   GATEWAY=… BEFORE_GATEWAY=… benchmarks/reports/tokens.sh
#   READERS=500 ISSUES=20 GATEWAY=… BEFORE_GATEWAY=… benchmarks/reports/tokens.sh
#
# Settings: GATEWAY (this checkout's release build unless set), BEFORE_GATEWAY (required),
# READERS (1), ISSUES (1), ROUNDS (3), DURATION (wrk seconds, 8), CONNECTIONS (32), PORT.
set -euo pipefail
cd "$(dirname "$0")/../.."

READERS="${READERS:-1}"
ISSUES="${ISSUES:-1}"
ROUNDS="${ROUNDS:-3}"
DURATION="${DURATION:-8}"
CONNECTIONS="${CONNECTIONS:-32}"
PORT="${PORT:-18481}"
ADMIN="bench-admin-key-0123456789abcdefghijklmnop"
BASE="http://127.0.0.1:$PORT"
: "${BEFORE_GATEWAY:?set BEFORE_GATEWAY to a release build without download records}"

source benchmarks/lib/processes.sh
source benchmarks/lib/tools.sh
require_tools curl wrk python3
require_free_ports "$PORT"
source benchmarks/lib/binaries.sh
build_release_binaries gateway

serve() {  # binary database: the gateway on PORT with the sample catalog, its pid in SERVED
  env ISSUE_GATEWAY_LISTEN="127.0.0.1:$PORT" ISSUE_GATEWAY_DATABASE="$2" ISSUE_GATEWAY_ADMIN_KEY="$ADMIN" \
    ISSUE_GATEWAY_THREADS="$(nproc)" ISSUE_GATEWAY_ACCOUNT_CREATION_RATE=100000000 \
    ISSUE_GATEWAY_CATALOG=catalog ISSUE_GATEWAY_TOKEN_TTL=3600 \
    "$1" serve >/dev/null 2>>"$WORK/gateway.log" &
  SERVED=$!
  PIDS+=("$SERVED")
  wait_for_port "$PORT"
}
stop() { kill "$SERVED"; wait "$SERVED" 2>/dev/null || true; }
# The gateway's CPU time so far (user + system, clock ticks): on a shared machine the CPU time a
# request costs compares better than the rate, which the other processes' load moves.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# The readers and pairs, made by a script so both builds get the same requests.
readers() {  # writes $WORK/pairs.lua: one {path, token} per (reader, issue)
  python3 - "$BASE" "$ADMIN" "$READERS" "$ISSUES" >"$WORK/pairs.lua" <<'EOF'
import json, sys, urllib.request
base, admin, readers, issues = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
def call(method, path, token=None, body=None):
    request = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    if token: request.add_header("Authorization", "Bearer " + token)
    if body is not None: request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request) as answer: return json.load(answer)
ids = [i["id"] for i in call("GET", f"/v1/publications/monthly/issues?limit={issues}", admin)["issues"]]
pairs = []
for n in range(readers):
    account = call("POST", "/v1/accounts")
    call("POST", f"/v1/accounts/{account['accountId']}/grants", admin,
         {"source": "support", "externalId": f"bench-{n}", "publications": ["monthly"], "start": "2000-01-01T00:00:00Z"})
    for issue in ids:
        path = f"/v1/accounts/{account['accountId']}/publications/monthly/issues/{issue}/token"
        call("POST", path, account["accountToken"])
        pairs.append((path, account["accountToken"]))
print("targets = {")
for path, token in pairs: print(f'  {{"{path}", "Bearer {token}"}},')
print("}")
print('wrk.method = "POST"')
print("request = function()")
print("  local p = targets[math.random(#targets)]")
print('  return wrk.format(nil, p[1], {["Authorization"] = p[2]})')
print("end")
EOF
}

rate() {  # label binary round
  rm -f "$WORK/tokens.sqlite"*
  serve "$2" "$WORK/tokens.sqlite"
  readers
  wrk -t2 -c"$CONNECTIONS" -d2s -s "$WORK/pairs.lua" "$BASE" >/dev/null
  local out before after requests
  before="$(cpu_ticks "$SERVED")"
  out="$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s "$WORK/pairs.lua" "$BASE")"
  after="$(cpu_ticks "$SERVED")"
  requests="$(awk '/requests in/ { print $1 }' <<<"$out")"
  echo "$1, round $3: $(awk '/Requests\/sec/ { print $2 }' <<<"$out") req/s, p99 $(awk '$1 == "99%" { print $2 }' <<<"$out"), non-2xx: $(awk '/Non-2xx/ { print $5 }' <<<"$out" | grep . || echo 0), gateway CPU $(( (after - before) * 1000000 / $(getconf CLK_TCK) / requests )) µs a request"
  stop
}

echo "load before: $(uptime)"
echo "readers: $READERS, issues: $ISSUES, pairs: $((READERS * ISSUES)), wrk -c$CONNECTIONS -d${DURATION}s"
for round in $(seq 1 "$ROUNDS"); do
  rate "with download records ($GATEWAY)" "$GATEWAY" "$round"
  rate "without ($BEFORE_GATEWAY)" "$BEFORE_GATEWAY" "$round"
  echo "uptime: $(uptime)"
done
echo "load after: $(uptime)"
