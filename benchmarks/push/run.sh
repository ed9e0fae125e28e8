#!/usr/bin/env bash
# Pushes for one published issue (issue #16): ACCOUNTS accounts entitled to the `monthly`
# publication (a grant each, E21), one APNs device each; an issue is published through the API and
# the time until the fake APNs (Tests/Fakes/fake_apns.py: HTTP/2 over TLS, checking every provider
# token, header and payload) has answered every push is measured, with pushes/s. The peer, in the
# same run: curl's command line (libcurl, HTTP/2, --parallel, 100 streams) sending the same number
# of requests with the same headers and payload to the same fake: the fake's own ceiling.
#
#   benchmarks/push/run.sh                  # 100,000 accounts
#   ACCOUNTS=2000 benchmarks/push/run.sh    # a smoke run
#
# Settings (environment): ACCOUNTS=100000, GATEWAY_PORT=18380, GATEWAY (a built issue-gateway;
# default: build this checkout in release).
set -euo pipefail
cd "$(dirname "$0")/../.."

ACCOUNTS="${ACCOUNTS:-100000}"
GATEWAY_PORT="${GATEWAY_PORT:-18380}"
ADMIN_KEY="benchmark-admin-key-0123456789"

source benchmarks/lib/processes.sh
require_free_ports "$GATEWAY_PORT"
SIMULATOR="${SIMULATOR:-unused}"  # this benchmark needs no App Store
source benchmarks/lib/binaries.sh
build_release_binaries

# An APNs key and the fake APNs that checks tokens signed with it.
source benchmarks/lib/fake-apns.sh
start_fake_apns

# The database: the sample catalog, then ACCOUNTS accounts with a grant of `monthly` and a device
# each, written in bulk (the accounts benchmark measures creating accounts through the routes).
export ISSUE_GATEWAY_DATABASE="$WORK/db.sqlite" ISSUE_GATEWAY_ADMIN_KEY="$ADMIN_KEY"
"$GATEWAY" catalog import catalog >/dev/null
sqlite3 "$WORK/db.sqlite" <<SQL
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $ACCOUNTS)
INSERT INTO accounts (id, token_hash, created_at) SELECT printf('acct-%08d', i), printf('%064x', i), 0 FROM n;
INSERT INTO grants (grant_id, account_id, source, external_id, publications, start, created_at)
  SELECT 'grant-' || id, id, 'bench', id, 'monthly', 0, 0 FROM accounts;
INSERT INTO devices (apns_token, account_id, environment, platform, registered_at)
  SELECT printf('%064x', rowid), id, 'production', 'ios', 0 FROM accounts;
SQL

env ISSUE_GATEWAY_LISTEN="127.0.0.1:$GATEWAY_PORT" ISSUE_GATEWAY_CATALOG=none \
  ISSUE_GATEWAY_APNS_KEY_ID=BENCHKEY01 ISSUE_GATEWAY_APNS_TEAM_ID=BENCHTEAM1 \
  ISSUE_GATEWAY_APNS_PRIVATE_KEY="$WORK/AuthKey.p8" ISSUE_GATEWAY_APNS_TOPIC=com.example.reader \
  ISSUE_GATEWAY_APNS_URL="https://127.0.0.1:$APNS_PORT" ISSUE_GATEWAY_APNS_SANDBOX_URL="https://127.0.0.1:$APNS_PORT/sandbox" \
  ISSUE_GATEWAY_APNS_CA_FILE="$APNS_CERT" \
  "$GATEWAY" serve >/dev/null 2>"$WORK/gateway.log" &
PIDS+=($!)
wait_for_port "$GATEWAY_PORT"

count() { wc -l <"$WORK/apns/requests.jsonl" 2>/dev/null || echo 0; }
echo "load before: $(uptime)" >&2
now="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
issue='{"id":"bench-issue","title":"Benchmark issue","publishedAt":"'"$now"'","free":false,"assets":[{"path":"/content/monthly/bench/issue.pdf","bytes":1,"sha256":"'"$(printf 'ab%.0s' $(seq 32))"'"}]}'
started=$(date +%s.%N)
curl -sf -X POST -H "Authorization: Bearer $ADMIN_KEY" -H 'Content-Type: application/json' \
  --data "$issue" "http://127.0.0.1:$GATEWAY_PORT/v1/publications/monthly/issues" >/dev/null
while [ "$(count)" -lt "$ACCOUNTS" ]; do sleep 0.2; done
finished=$(date +%s.%N)
sent=$(grep -c '"status": 200' "$WORK/apns/requests.jsonl" || true)
problems=$(grep -c '"problem": "' "$WORK/apns/requests.jsonl" || true)
seconds=$(echo "$finished - $started" | bc -l)
gateway_rate=$(echo "$ACCOUNTS / $seconds" | bc -l)
printf 'gateway: %d pushes answered 200 by the fake APNs (%d failed its checks) in %.1f s: %.0f pushes/s\n' \
  "$sent" "$problems" "$seconds" "$gateway_rate"
curl -s "http://127.0.0.1:$GATEWAY_PORT/metrics" | grep -E '^issue_gateway_(apns|push|publication)' >&2 || true

# The peer: curl's command line, one HTTP/2 connection, 100 streams, the same requests.
: >"$WORK/apns/requests.jsonl"
jwt=$(python3 - "$WORK/AuthKey.p8" <<'PY'
import base64, json, sys, time
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils
key = serialization.load_pem_private_key(open(sys.argv[1], "rb").read(), None)
b = lambda d: base64.urlsafe_b64encode(d).rstrip(b"=").decode()
head = b(json.dumps({"alg": "ES256", "kid": "BENCHKEY01"}, separators=(",", ":")).encode())
body = b(json.dumps({"iss": "BENCHTEAM1", "iat": int(time.time())}, separators=(",", ":")).encode())
r, s = utils.decode_dss_signature(key.sign((head + "." + body).encode(), ec.ECDSA(hashes.SHA256())))
print(head + "." + body + "." + b(r.to_bytes(32, "big") + s.to_bytes(32, "big")))
PY
)
{
  echo 'header = "apns-push-type: background"'
  echo 'header = "apns-priority: 5"'
  echo 'header = "apns-topic: com.example.reader"'
  echo 'header = "content-type: application/json"'
  echo "header = \"authorization: bearer $jwt\""
  echo 'data = "{\"aps\":{\"content-available\":1},\"publicationId\":\"monthly\",\"issueId\":\"bench-issue\"}"'
  for i in $(seq 1 "$ACCOUNTS"); do printf 'url = "https://127.0.0.1:%s/3/device/%064x"\noutput = "/dev/null"\n' "$APNS_PORT" "$i"; done
} >"$WORK/curl.conf"
started=$(date +%s.%N)
curl -s --no-progress-meter --http2 --parallel --parallel-max 100 --cacert "$APNS_CERT" -K "$WORK/curl.conf" 2>/dev/null || true
finished=$(date +%s.%N)
peer_sent=$(grep -c '"status": 200' "$WORK/apns/requests.jsonl" || true)
seconds=$(echo "$finished - $started" | bc -l)
printf 'peer (curl --http2 --parallel-max 100): %d requests answered 200 in %.1f s: %.0f requests/s\n' \
  "$peer_sent" "$seconds" "$(echo "$peer_sent / $seconds" | bc -l)"
echo "load after: $(uptime)" >&2
