#!/usr/bin/env bash
# Stripe events taken per second end to end: the real gateway (`issue-gateway serve`, release, no
# Stripe API key) takes signed `invoice.paid` events on POST /v1/stripe/webhooks: each verified
# (HMAC-SHA256), parsed, deduplicated and stored with its owner in its own unit of work. Events
# need no call to Stripe (the subscription names its account in its metadata). On SQLite and on a
# throw-away PostgreSQL cluster of the script's own with fsync on (benchmarks/lib/postgres.sh); with
# PEER set, that gateway binary (the release before) is measured too, alternating with this one,
# each on a fresh database. On PostgreSQL the statements each run executed are listed
# (pg_stat_statements), divided by the events taken.
#
#   benchmarks/stripe/run.sh                  # 40,000 events over 2,000 accounts, 64 connections
#   PEER=/work/before/.build/release/issue-gateway ROUNDS=2 benchmarks/stripe/run.sh
#
# Settings (environment): EVENTS=40000, ACCOUNTS=2000, CONNECTIONS=64, WRK_THREADS=2, DURATION=10,
# BACKENDS ("sqlite postgresql"), ROUNDS=1, PEER (another issue-gateway), GATEWAY (a built
# issue-gateway; default: build this checkout in release), GATEWAY_PORT.
set -euo pipefail
cd "$(dirname "$0")/../.."

EVENTS="${EVENTS:-40000}"
ACCOUNTS="${ACCOUNTS:-2000}"
CONNECTIONS="${CONNECTIONS:-64}"
WRK_THREADS="${WRK_THREADS:-2}"
DURATION="${DURATION:-10}"
BACKENDS="${BACKENDS:-sqlite postgresql}"
ROUNDS="${ROUNDS:-1}"
PEER="${PEER:-}"
GATEWAY_PORT="${GATEWAY_PORT:-18290}"
SECRET=whsec_benchmark_secret

source benchmarks/lib/processes.sh
require_free_ports "$GATEWAY_PORT"
source benchmarks/lib/binaries.sh
build_release_binaries gateway
source benchmarks/lib/postgres.sh
[[ " $BACKENDS " != *" postgresql "* ]] || start_durable_cluster

run_once() {  # label binary backend: one gateway on a fresh database, one wrk run
  local label="$1" binary="$2" backend="$3" run="$WORK/$1-$3" database_url="" pid
  rm -rf "$run"  # a fresh SQLite file each round, as PostgreSQL's fresh_database
  mkdir -p "$run"
  [ "$backend" != postgresql ] || database_url="$(fresh_database stripe)"
  env ISSUE_GATEWAY_LISTEN="127.0.0.1:$GATEWAY_PORT" ISSUE_GATEWAY_DATABASE="$run/db.sqlite" \
    ISSUE_GATEWAY_CATALOG=catalog ISSUE_GATEWAY_THREADS="$(nproc)" ISSUE_GATEWAY_STRIPE_WEBHOOK_SECRETS="$SECRET" \
    ISSUE_GATEWAY_ACCOUNT_CREATION_RATE=100000000 ISSUE_GATEWAY_ACCOUNT_CREATION_BURST="$ACCOUNTS" \
    ${database_url:+ISSUE_GATEWAY_DATABASE_URL="$database_url"} \
    "$binary" serve >/dev/null 2>"$run/gateway.log" &
  pid=$!
  PIDS+=("$pid")
  wait_for_port "$GATEWAY_PORT"
  python3 benchmarks/stripe/make-events.py "http://127.0.0.1:$GATEWAY_PORT" "$SECRET" "$EVENTS" "$ACCOUNTS" "$run/events.txt"
  [ "$backend" != postgresql ] || statement_counts stripe >/dev/null
  echo "$label $backend load before: $(uptime)" >&2
  local out metrics taken ticks
  ticks="$(cpu_ticks "$pid")"
  out="$(wrk -t"$WRK_THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency -s benchmarks/lib/post-lines.lua \
    "http://127.0.0.1:$GATEWAY_PORT" -- "$run/events.txt" "$WRK_THREADS" /v1/stripe/webhooks Stripe-Signature)"
  echo "$label $backend load after:  $(uptime)" >&2
  metrics="$(curl -s "http://127.0.0.1:$GATEWAY_PORT/metrics" | grep '^issue_gateway_stripe_events_total')"
  taken="$(awk -F' ' '/result="taken"/ {print $2}' <<<"$metrics")"
  echo "$label $backend events taken: ${taken:-0} in ${DURATION} s = $(( ${taken:-0} / DURATION ))/s;" \
    "p50 $(awk '$1 == "50%" {print $2}' <<<"$out") p99 $(awk '$1 == "99%" {print $2}' <<<"$out");" \
    "gateway CPU $(cpu_per_item "$ticks" "$(cpu_ticks "$pid")" "${taken:-0}") ms/event;" \
    "$(awk '/Non-2xx|Socket errors/ {print}' <<<"$out" | tr '\n' ' ')"
  if [ "$backend" = postgresql ]; then
    echo "$label $backend statements run during the load (calls, statement), per event taken:"
    statement_counts stripe | awk -v taken="${taken:-1}" '{ printf "  %7d %6.2f/event %s\n", $1, $1 / taken, substr($0, index($0, " ") + 1) }'
  fi
  kill "$pid"
  wait "$pid" 2>/dev/null || true
}

alternate_with_peer run_once
