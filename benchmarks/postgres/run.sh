#!/usr/bin/env bash
# PostgreSQL against SQLite, same run, same machine (issue 11): receipt ingest, first-touch and
# warm issue lists, through benchmarks/accounts/run.sh on each backend:
#   1. a gateway creates ACCOUNTS accounts, each with a multi-year App Store history sent as a
#      receipt (verified against the App Store simulator, E1/E4 ingest): accounts/s is receipt
#      ingest through the real route;
#   2. a NEW gateway process on the same database reads every account's issue list twice: the
#      first pass has nothing cached (first touch: facts from the database), the second is warm.
# PostgreSQL is a throw-away cluster of this script's own (scripts/pg-cluster) with fsync ON, so
# its commits are as durable as SQLite's synchronous=FULL.
#
#   benchmarks/postgres/run.sh                  # ACCOUNTS=5000
#   ACCOUNTS=20000 benchmarks/postgres/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
export ACCOUNTS="${ACCOUNTS:-5000}"

WORK_PG="$(mktemp -d /tmp/issue-gateway-pgbench.XXXXXX)"
cluster="$(PG_CLUSTER_DURABLE=1 scripts/pg-cluster start)"
eval "$cluster"
trap 'scripts/pg-cluster stop "$PG_CLUSTER_DIR"; rm -rf "$WORK_PG"' EXIT
psql -q "$ISSUE_GATEWAY_TEST_DATABASE_URL" -c "CREATE DATABASE bench"
PG_URL="${ISSUE_GATEWAY_TEST_DATABASE_URL%/postgres}/bench"

# Both runs use the same release binaries.
if [ -z "${GATEWAY:-}" ]; then
  swift build -c release --product issue-gateway >/dev/null
  swift build -c release --product appstore-simulator >/dev/null
  export GATEWAY="$(swift build -c release --show-bin-path)/issue-gateway"
  export SIMULATOR="$(swift build -c release --show-bin-path)/appstore-simulator"
fi

for backend in sqlite postgresql; do
  url=""
  [ "$backend" = postgresql ] && url="$PG_URL"
  echo "=== $backend: creation (receipt ingest) ==="
  DATABASE_URL="$url" KEEP_STATE="$WORK_PG/$backend" benchmarks/accounts/run.sh
  echo "=== $backend: a new process reads every list (first touch, then warm) ==="
  DATABASE_URL="$url" FROM_STATE="$WORK_PG/$backend" benchmarks/accounts/run.sh
done
