#!/usr/bin/env bash
# E30's check on a token request: wrk against POST /v1/institution/…/token (1,000 institutions, the
# client's among them, the check on every request) beside the account token route for the same
# free issue (no check), DURATION seconds each. GATEWAY may name a built binary.
set -euo pipefail
cd "$(dirname "$0")/../.."
. benchmarks/lib/processes.sh
. benchmarks/lib/binaries.sh
. benchmarks/lib/tools.sh
PORT="${PRINT_PORT:-18091}"
DURATION="${DURATION:-8}"
ADMIN="bench-admin-key-0123456789abcdefghijklmnop"
require_tools curl wrk
require_free_ports "$PORT"
build_release_binaries gateway
BASE="http://127.0.0.1:$PORT"
ISSUE_GATEWAY_LISTEN="127.0.0.1:$PORT" ISSUE_GATEWAY_DATABASE="$WORK/gateway.sqlite" ISSUE_GATEWAY_CATALOG=none \
  ISSUE_GATEWAY_ADMIN_KEY="$ADMIN" "$GATEWAY" serve >"$WORK/gateway.log" 2>&1 &
PIDS+=("$!")
wait_for_port "$PORT"
admin() { curl -sf -X "$1" "$BASE$2" -H "Authorization: Bearer $ADMIN" -H 'Content-Type: application/json' -d "$3"; }
admin PUT /v1/publications/monthly '{"title":"The Monthly"}' >/dev/null
admin POST /v1/publications/monthly/issues '{"id":"2026-01","title":"January","publishedAt":"2026-01-01T00:00:00Z","free":true,"assets":[{"path":"/content/monthly/2026-01/issue.pdf","bytes":1234,"sha256":"'"$(printf 'ab%.0s' $(seq 32))"'"}]}' >/dev/null
for i in $(seq 0 998); do
  admin POST /v1/institutions '{"name":"Library '"$i"'","publications":["monthly"],"networks":["10.'"$((i / 256))"'.'"$((i % 256))"'.0/24"],"start":"2025-01-01T00:00:00Z"}' >/dev/null
done
admin POST /v1/institutions '{"name":"Loopback","publications":["monthly"],"networks":["127.0.0.0/8"],"start":"2025-01-01T00:00:00Z"}' >/dev/null
ACCOUNT="$(curl -sf -X POST "$BASE/v1/accounts")"
ID="$(echo "$ACCOUNT" | sed -E 's/.*"accountId":"([^"]+)".*/\1/')"
TOKEN="$(echo "$ACCOUNT" | sed -E 's/.*"accountToken":"([^"]+)".*/\1/')"
printf 'wrk.method = "POST"\n' >"$WORK/post.lua"
run() {  # label, path, extra wrk args
  local label="$1" path="$2"; shift 2
  curl -sf -X POST "$BASE$path" "$@" >/dev/null || { echo "$label: the route refused" >&2; exit 1; }
  local rate
  rate="$(wrk -t2 -c32 -d"${DURATION}s" -s "$WORK/post.lua" "$@" "$BASE$path" | awk '/Requests\/sec/ { print $2 }')"
  echo "$label: $rate req/s"
}
run "account token (no institution check)" "/v1/accounts/$ID/publications/monthly/issues/2026-01/token" -H "Authorization: Bearer $TOKEN"
run "institution token (check among 1,000)" "/v1/institution/publications/monthly/issues/2026-01/token"
