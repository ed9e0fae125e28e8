#!/usr/bin/env bash
# Stripe events taken per second end to end: the real gateway (`issue-gateway serve`, release,
# SQLite, no Stripe API key) takes signed `invoice.paid` events on POST /v1/stripe/webhooks: each
# verified (HMAC-SHA256), parsed, deduplicated and stored with its owner in its own unit of work.
# Events need no call to Stripe (the subscription names its account in its metadata).
#
#   benchmarks/stripe/run.sh                  # 40,000 events over 2,000 accounts, 64 connections
#
# Settings (environment): EVENTS=40000, ACCOUNTS=2000, CONNECTIONS=64, WRK_THREADS=2, DURATION=10,
# GATEWAY (a built issue-gateway; default: build this checkout in release), GATEWAY_PORT.
set -euo pipefail
cd "$(dirname "$0")/../.."

EVENTS="${EVENTS:-40000}"
ACCOUNTS="${ACCOUNTS:-2000}"
CONNECTIONS="${CONNECTIONS:-64}"
WRK_THREADS="${WRK_THREADS:-2}"
DURATION="${DURATION:-10}"
GATEWAY_PORT="${GATEWAY_PORT:-18290}"
SECRET=whsec_benchmark_secret

source benchmarks/lib/processes.sh
require_free_ports "$GATEWAY_PORT"
source benchmarks/lib/binaries.sh
build_release_binaries gateway

env ISSUE_GATEWAY_LISTEN="127.0.0.1:$GATEWAY_PORT" ISSUE_GATEWAY_DATABASE="$WORK/db.sqlite" \
  ISSUE_GATEWAY_CATALOG=catalog ISSUE_GATEWAY_THREADS="$(nproc)" ISSUE_GATEWAY_STRIPE_WEBHOOK_SECRETS="$SECRET" \
  ISSUE_GATEWAY_ACCOUNT_CREATION_RATE=100000000 ISSUE_GATEWAY_ACCOUNT_CREATION_BURST="$ACCOUNTS" \
  "$GATEWAY" serve >/dev/null 2>"$WORK/gateway.log" &
PIDS+=($!)
wait_for_port "$GATEWAY_PORT"

python3 benchmarks/stripe/make-events.py "http://127.0.0.1:$GATEWAY_PORT" "$SECRET" "$EVENTS" "$ACCOUNTS" "$WORK/events.txt"
echo "load before: $(uptime)" >&2
out="$(wrk -t"$WRK_THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency -s benchmarks/stripe/post-events.lua \
  "http://127.0.0.1:$GATEWAY_PORT" -- "$WORK/events.txt" "$WRK_THREADS")"
echo "load after:  $(uptime)" >&2
echo "$out"
metrics="$(curl -s "http://127.0.0.1:$GATEWAY_PORT/metrics" | grep '^issue_gateway_stripe_events_total')"
echo "$metrics"
taken="$(awk -F' ' '/result="taken"/ {print $2}' <<<"$metrics")"
echo "events taken: ${taken:-0} in ${DURATION} s = $(( ${taken:-0} / DURATION )) per s (distinct events, each stored)"
