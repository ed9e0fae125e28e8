#!/usr/bin/env bash
# Load benchmark of the real gateway (`issue-gateway serve`, release build) against nginx answering
# 204 on the same machine, in the same run: wrk on loopback, keep-alive, 64 connections.
#
#   benchmarks/http/run.sh        # DURATION=10 CONNECTIONS=64 WRK_THREADS=2 ROUNDS=2 by default
#
# Scenarios, each measured in alternation with nginx (nginx, gateway, nginx, gateway, …) so that a
# change in the machine's load hits both; ratios are over the summed requests/s:
#   healthz  GET /healthz, a trivial route (issue #4: >= 70% of nginx, p99 < 5 ms)
#   verify   GET /v1/edge/verify with a valid token, as nginx auth_request sends it (issue #5: >= 60%)
#   issues   GET /v1/accounts/{id}/issues?publication=monthly of a 15-year subscriber (issue #5:
#            >= 20,000 requests/s); the account's receipt comes from the App Store simulator.
#   polling  the same list polled as issue 16 expects: gzip accepted (the compressed list kept by
#            its tag), and with If-None-Match of the current tag (304s); neither may cost more
#            than the plain cached list.
# SCENARIOS="healthz verify issues" picks a subset.
#   edge     downloads through nginx, one core each: static, njs, auth_request and secure_link in
#            one run (benchmarks/edge/run.sh, which SCENARIOS=edge runs with these wrk settings;
#            secure_link goal >= 85% of static).
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "${SCENARIOS:-}" = edge ]; then
  unset SCENARIOS
  exec benchmarks/edge/run.sh
fi
source benchmarks/lib/wrk.sh  # DURATION, CONNECTIONS, WRK_THREADS, ROUNDS and measure()

SCENARIOS="${SCENARIOS:-healthz verify issues}"
GATEWAY_PORT="${GATEWAY_PORT:-18180}"
NGINX_PORT="${NGINX_PORT:-18181}"
SIMULATOR_PORT="${SIMULATOR_PORT:-18182}"
CORES="$(nproc)"

source benchmarks/lib/tools.sh
require_tools wrk nginx curl
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"

source benchmarks/lib/processes.sh
require_free_ports "$NGINX_PORT" "$GATEWAY_PORT" "$SIMULATOR_PORT"

source benchmarks/lib/binaries.sh
build_release_binaries

# nginx: workers = cores, `return 204`, its own prefix and pid file under the temp dir.
mkdir -p "$WORK/nginx"
sed -e "s|@PREFIX@|$WORK/nginx|g" -e "s|@PORT@|$NGINX_PORT|g" -e "s|@WORKERS@|$CORES|g" \
  benchmarks/http/nginx.conf.template > "$WORK/nginx/nginx.conf"
"$NGINX" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/error.log" &
PIDS+=($!)

# The App Store simulator with one 15-year monthly subscriber (180 renewals, two lapses, a refund).
python3 benchmarks/http/subscriber-script.py > "$WORK/script.json"
"$SIMULATOR" --listen "127.0.0.1:$SIMULATOR_PORT" --script "$WORK/script.json" \
  --root-cert "$WORK/root.pem" >"$WORK/simulator.log" 2>&1 &
PIDS+=($!)
wait_for_port "$SIMULATOR_PORT"

# The gateway, configured only through its documented variables; access log to a file.
ISSUE_GATEWAY_LISTEN="127.0.0.1:$GATEWAY_PORT" ISSUE_GATEWAY_DATABASE="$WORK/gateway/db.sqlite" \
ISSUE_GATEWAY_THREADS="$CORES" ISSUE_GATEWAY_TOKEN_TTL=3600 \
ISSUE_GATEWAY_APPSTORE_PRODUCTION_URL="http://127.0.0.1:$SIMULATOR_PORT/verifyReceipt" \
ISSUE_GATEWAY_APPSTORE_SANDBOX_URL="http://127.0.0.1:$SIMULATOR_PORT/sandbox/verifyReceipt" \
ISSUE_GATEWAY_APPSTORE_SHARED_SECRET=benchmark-secret \
  "$GATEWAY" serve >"$WORK/access.log" 2>"$WORK/gateway.log" &
PIDS+=($!)
wait_for_port "$NGINX_PORT"
wait_for_port "$GATEWAY_PORT"

BASE="http://127.0.0.1:$GATEWAY_PORT"
json() { python3 -c "import json,sys; print(json.load(sys.stdin)$1)"; }
ACCOUNT="$(curl -sf -X POST "$BASE/v1/accounts")"
ACCOUNT_ID="$(json '["accountId"]' <<<"$ACCOUNT")"
ACCOUNT_TOKEN="$(json '["accountToken"]' <<<"$ACCOUNT")"
curl -sf -H "Authorization: Bearer $ACCOUNT_TOKEN" -d '{"receiptData":"QkVOQ0hNQVJLLVNVQlNDUklCRVI="}' \
  "$BASE/v1/accounts/$ACCOUNT_ID/receipts" >/dev/null
ISSUES_PATH="/v1/accounts/$ACCOUNT_ID/issues?publication=monthly"
ENTITLED="$(curl -sf -H "Authorization: Bearer $ACCOUNT_TOKEN" "$BASE$ISSUES_PATH&entitled=true" | json '["issues"].__len__()')"
LISTED="$(curl -sf -H "Authorization: Bearer $ACCOUNT_TOKEN" "$BASE$ISSUES_PATH" | json '["issues"].__len__()')"
BYTES="$(curl -sf -H "Authorization: Bearer $ACCOUNT_TOKEN" "$BASE$ISSUES_PATH" | wc -c)"
TOKEN="$(curl -sf -X POST -H "Authorization: Bearer $ACCOUNT_TOKEN" \
  "$BASE/v1/accounts/$ACCOUNT_ID/publications/monthly/issues/2026-11/token" | json '["token"]')"
ASSET="/content/monthly/2026-11/issue.pdf"
[ "$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $TOKEN" -H "X-Original-URI: $ASSET" \
  "$BASE/v1/edge/verify")" = 204 ] || { echo "the edge check refused the benchmark token" >&2; exit 1; }
echo "subscriber: $LISTED monthly issues listed ($BYTES bytes), $ENTITLED entitled" >&2
GZIP_BYTES="$(curl -sf -H "Authorization: Bearer $ACCOUNT_TOKEN" -H "Accept-Encoding: gzip" "$BASE$ISSUES_PATH" | wc -c)"
ETAG="$(curl -sf -D - -o /dev/null -H "Authorization: Bearer $ACCOUNT_TOKEN" "$BASE$ISSUES_PATH" \
  | awk 'tolower($1) == "etag:" {sub(/\r$/, "", $2); print $2}')"
[ -z "$ETAG" ] || echo "polling: $GZIP_BYTES bytes gzipped, ETag $ETAG" >&2

echo "load before: $(uptime)"
results=()
for round in $(seq 1 "$ROUNDS"); do
  for scenario in $SCENARIOS; do
    case "$scenario" in
      healthz)
        results+=("$(measure healthz:nginx "http://127.0.0.1:$NGINX_PORT/")")
        results+=("$(measure healthz:gateway "$BASE/healthz")") ;;
      verify)
        results+=("$(measure verify:nginx "http://127.0.0.1:$NGINX_PORT/" -H "Authorization: Bearer $TOKEN" -H "X-Original-URI: $ASSET")")
        results+=("$(measure verify:gateway "$BASE/v1/edge/verify" -H "Authorization: Bearer $TOKEN" -H "X-Original-URI: $ASSET")") ;;
      issues)
        results+=("$(measure issues:gateway "$BASE$ISSUES_PATH" -H "Authorization: Bearer $ACCOUNT_TOKEN")") ;;
      polling)
        results+=("$(measure issues-gzip:gateway "$BASE$ISSUES_PATH" -H "Authorization: Bearer $ACCOUNT_TOKEN" -H "Accept-Encoding: gzip")")
        results+=("$(measure issues-304:gateway "$BASE$ISSUES_PATH" -H "Authorization: Bearer $ACCOUNT_TOKEN" -H "If-None-Match: $ETAG")") ;;
    esac
  done
done
echo "load after:  $(uptime)"
echo "gateway's own count of answers:"
curl -s "$BASE/metrics" | grep -E '^(http_requests_total|issue_gateway_tokens_verified_total)' | grep -v ' 0$' || true

echo
echo "wrk -t$WRK_THREADS -c$CONNECTIONS -d${DURATION}s, keep-alive, $CORES cores, $ROUNDS rounds; $(lscpu | awk -F: '/Model name/ {gsub(/^ +/,"",$2); print $2}')"
printf '%-16s %12s %10s  %s\n' run "requests/s" "p99 ms" notes
for line in "${results[@]}"; do
  read -r name rps p99 notes <<<"$line"
  printf '%-16s %12s %10s  %s\n' "$name" "$rps" "$p99" "${notes:-}"
done
printf '%s\n' "${results[@]}" | awk -v issues_bytes="$BYTES" '
  { split($1, k, ":"); sum[k[1] ":" k[2]] += $2; n[k[1] ":" k[2]]++; if ($3 > p99[k[1] ":" k[2]]) p99[k[1] ":" k[2]] = $3 }
  END {
    if (sum["healthz:nginx"]) printf "healthz: gateway %.1f%% of nginx (goal >= 70%%), worst p99 %s ms (goal < 5 ms; nginx %s ms)\n", 100 * sum["healthz:gateway"] / sum["healthz:nginx"], p99["healthz:gateway"], p99["healthz:nginx"]
    if (sum["verify:nginx"]) printf "verify:  gateway %.1f%% of nginx (goal >= 60%%), worst p99 %s ms (nginx %s ms)\n", 100 * sum["verify:gateway"] / sum["verify:nginx"], p99["verify:gateway"], p99["verify:nginx"]
    if (n["issues:gateway"]) printf "issues:  %.0f requests/s on average (goal >= 20,000), %s-byte answers, worst p99 %s ms\n", sum["issues:gateway"] / n["issues:gateway"], issues_bytes, p99["issues:gateway"]
  }'
