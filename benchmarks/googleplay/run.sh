#!/usr/bin/env bash
# Google Play notifications taken per second end to end: the real gateway (`issue-gateway serve`,
# release, SQLite) takes Pub/Sub pushes on POST /v1/googleplay/notifications: each push's OIDC token
# verified (RS256 against the simulator's JWKS), the envelope parsed, Google asked about the token
# (subscriptionsv2.get and the Orders API, the simulator answering at once on a real socket), the
# facts stored with their owner (E4) and the message id before the 200, then the purchase
# acknowledged (E28). p50/p99 per push and `GET /healthz` through the same client as the peer; at
# the end every purchase token must be owned by its account.
#
#   benchmarks/googleplay/run.sh              # COUNT=3000 purchases and pushes, WORKERS=4 clients
#
# Google's side is `issue-gateway-bench googleplay-simulator`: the GooglePlaySimulator library on a
# socket, as `googleplay-simulator` serves it, with COUNT purchases bought and their pushes signed
# ahead (the executable's control routes push each step themselves, one at a time, and keep the
# signing key: the benchmark sends its pushes from parallel clients).
# Settings: COUNT, WORKERS, GOOGLE_THREADS (the gateway's Google Play pool, 16), GATEWAY and BENCH
# (release builds of this checkout unless set), GATEWAY_PORT, SIMULATOR_PORT.
set -euo pipefail
cd "$(dirname "$0")/../.."

COUNT="${COUNT:-3000}"
WORKERS="${WORKERS:-4}"
GOOGLE_THREADS="${GOOGLE_THREADS:-16}"
GATEWAY_PORT="${GATEWAY_PORT:-18480}"
SIMULATOR_PORT="${SIMULATOR_PORT:-18482}"
AUDIENCE="https://gateway.benchmark/v1/googleplay/notifications"
ADMIN_KEY=benchmark-admin-key-0123456789

source benchmarks/lib/processes.sh
require_free_ports "$GATEWAY_PORT" "$SIMULATOR_PORT"
source benchmarks/lib/binaries.sh
build_release_binaries gateway
if [ -z "${BENCH:-}" ]; then
  swift build -c release --product issue-gateway-bench >>"$WORK/build.log" 2>&1 || { cat "$WORK/build.log" >&2; exit 1; }
  BENCH="$(swift build -c release --show-bin-path)/issue-gateway-bench"
fi

"$BENCH" googleplay-simulator "$SIMULATOR_PORT" "$COUNT" "$AUDIENCE" "$WORK" >"$WORK/simulator.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 1 600); do [ -e "$WORK/ready" ] && break; sleep 0.2; done
[ -e "$WORK/ready" ] || { cat "$WORK/simulator.log" >&2; exit 1; }

simulator="http://127.0.0.1:$SIMULATOR_PORT"
env ISSUE_GATEWAY_LISTEN="127.0.0.1:$GATEWAY_PORT" ISSUE_GATEWAY_DATABASE="$WORK/db.sqlite" \
  ISSUE_GATEWAY_CATALOG=catalog ISSUE_GATEWAY_THREADS="$(nproc)" ISSUE_GATEWAY_ADMIN_KEY="$ADMIN_KEY" \
  ISSUE_GATEWAY_GOOGLE_PACKAGES=com.example.magazine ISSUE_GATEWAY_GOOGLE_SERVICE_ACCOUNT="$WORK/service-account.json" \
  ISSUE_GATEWAY_GOOGLE_API_URL="$simulator" ISSUE_GATEWAY_GOOGLE_CERTS_URL="$simulator/oauth2/v3/certs" \
  ISSUE_GATEWAY_GOOGLE_PUSH_AUDIENCE="$AUDIENCE" \
  ISSUE_GATEWAY_GOOGLE_PUSH_EMAIL=pubsub-push@issue-gateway.iam.gserviceaccount.com \
  ISSUE_GATEWAY_GOOGLE_THREADS="$GOOGLE_THREADS" \
  ISSUE_GATEWAY_ACCOUNT_CREATION_RATE=100000000 ISSUE_GATEWAY_ACCOUNT_CREATION_BURST=$((COUNT + 10)) \
  "$GATEWAY" serve >/dev/null 2>"$WORK/gateway.log" &
PIDS+=($!)
wait_for_port "$GATEWAY_PORT"

echo "load before: $(uptime)" >&2
python3 benchmarks/googleplay/push.py "http://127.0.0.1:$GATEWAY_PORT" "$WORK/pushes.txt" "$WORKERS" "$ADMIN_KEY" \
  || { tail -20 "$WORK/gateway.log" >&2; exit 1; }
echo "load after:  $(uptime)" >&2
curl -s "http://127.0.0.1:$GATEWAY_PORT/metrics" | grep '^issue_gateway_googleplay' || true
