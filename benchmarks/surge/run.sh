#!/usr/bin/env bash
# Publication morning (issue 32): ACCOUNTS readers with multi-year facts (several stores, lapses,
# refunds, grants, some histories 14 years long), each with a session and an iPhone, loaded
# straight through the store's units of work (`issue-gateway-bench surge-load`); the gateway
# started (start time with the accounts loaded: until /healthz answers); a new issue published
# through the catalog route, its pushes going to a fake APNs (Tests/Fakes/fake_apns.py, as in
# benchmarks/push); then the surge: every reader, in a random order, fetches its issue list once
# and asks for a token for the new issue, over CONNECTIONS connections (benchmarks/surge/
# surge-reader.c). Reported: time until every reader was served, lists/s over the whole surge,
# p50/p99, non-2xx answers (403 not_entitled for a reader without the issue is the rules' answer
# and counted apart), peak RSS, database size and bytes per reader, pushes answered by the fake,
# and the facts read and evaluations per reader (`/metrics`, the first process).
# SQLite runs one process; PostgreSQL two processes on one database, the connections split
# between their ports. Each build (this checkout's and the release before) reads the same loaded
# data: a copy of it per build and backend.
#
# Then the durability checks (DURABILITY=1): a second surge with an acknowledged-write stream
# beside it (each reader registers one more device; every 2xx is logged by the client at once)
# in which a gateway process is killed with SIGKILL a third of the way through and restarted:
# every acknowledged device must be in the store afterwards. On PostgreSQL, the database is also
# stopped two thirds of the way through for DB_DOWN seconds: meanwhile the gateway must answer 503 with Retry-After,
# and serve again within 5 s of the database's return.
#
#   benchmarks/surge/run.sh                                 # 1,000,000 accounts: an hour or more
#   ACCOUNTS=20000 SKIP_BEFORE=1 benchmarks/surge/run.sh     # a smoke run in minutes
#
# Settings (environment): ACCOUNTS=1000000, CONNECTIONS=64, BACKENDS="sqlite postgres",
# GATEWAY and BENCH (built issue-gateway and issue-gateway-bench; default: this checkout, release),
# BEFORE_GATEWAY (the release before's issue-gateway; default: built from BEFORE=4407e8f),
# BEFORE_BENCH (a surge-load writing the release before's schema: its own SQLite load; PostgreSQL
# measures this checkout only then),
# SKIP_BEFORE=1 (this checkout only), PG_LOAD=copy|direct (PostgreSQL gets the SQLite load through
# `issue-gateway store copy`, the same facts, or its own load through the units of work),
# DURABILITY=1 (0: skip the kill and restart checks), DB_DOWN=3 (seconds PostgreSQL is away),
# PROFILE=1 (perf record of the first gateway process during this checkout's surges, when perf exists;
# PROFILE=machine: every process on the machine, reported by process first; 0: none;
# PERF_STACKS=FILE keeps its samples' stacks by thread), PG_CLUSTER_STATEMENTS=1 (the surge's
# statements on PostgreSQL by their time in the database, pg_stat_statements),
# PG_THREADS (event loops of each PostgreSQL process; default: one a core, as SQLite's process),
# SESSION_IDLE_HOURS=2-48 (each reader's session was last used that long before: over an hour,
# its first request moves the last use, a write, E34; 0-0 for none),
# DEADLINE=900 (seconds a surge may take before unserved readers are counted), CACHE_MEMORY
# (ISSUE_GATEWAY_CACHE_MEMORY; unset: the default budget), PORT (first of three ports, 18480),
# DATA_DIR (where the databases go; default a temp dir, deleted at the end), RESULTS (a file the
# figures are appended to as key=value lines), KEEP_LOAD=FILE (keeps the SQLite load there, its
# secret seed in FILE.seed) and LOAD_FROM=FILE (starts from such a load instead of loading; the
# accounts' count must be ACCOUNTS).
set -euo pipefail
cd "$(dirname "$0")/../.."

ACCOUNTS="${ACCOUNTS:-1000000}"
CONNECTIONS="${CONNECTIONS:-64}"
BACKENDS="${BACKENDS:-sqlite postgres}"
BEFORE="${BEFORE:-4407e8f}"
PG_LOAD="${PG_LOAD:-copy}"
DURABILITY="${DURABILITY:-1}"
DB_DOWN="${DB_DOWN:-3}"
PROFILE="${PROFILE:-1}"
DEADLINE="${DEADLINE:-900}"
SESSION_IDLE_HOURS="${SESSION_IDLE_HOURS:-2-48}"
PORT="${PORT:-18480}"
PORT2=$((PORT + 1)); APNS_PORT_WANTED=$((PORT + 2))
ADMIN="surge-admin-key-0123456789abcdef"
SEED="s$(date +%s)"
ISSUE="surge-issue"

source benchmarks/lib/processes.sh
require_free_ports "$PORT" "$PORT2"
DATA="${DATA_DIR:-$WORK/data}"
mkdir -p "$DATA"
RESULTS="${RESULTS:-$WORK/results.txt}"
record() { echo "$*" | tee -a "$RESULTS"; }

SIMULATOR="${SIMULATOR:-unused}"  # no App Store here
source benchmarks/lib/binaries.sh
build_release_binaries
if [ -z "${BENCH:-}" ]; then
  swift build -c release --product issue-gateway-bench >>"$WORK/build.log" 2>&1 || { cat "$WORK/build.log" >&2; exit 1; }
  BENCH="$(swift build -c release --show-bin-path)/issue-gateway-bench"
fi
BUILDS="current"
if [ "${SKIP_BEFORE:-0}" != 1 ]; then
  build_before_gateway "$BEFORE"
  BUILDS="current before"
fi
binary_of() { if [ "$1" = before ]; then echo "$BEFORE_GATEWAY"; else echo "$GATEWAY"; fi; }

cc -O2 -o "$WORK/surge-reader" benchmarks/surge/surge-reader.c -lpthread

# The fake APNs of benchmarks/push: HTTP/2 over TLS, checking every provider token.
source benchmarks/lib/fake-apns.sh
start_fake_apns
pushes() { wc -l <"$WORK/apns/requests.jsonl" 2>/dev/null || echo 0; }

# PostgreSQL: a throw-away cluster of this run's own, fsync on (durable commits, as SQLite's).
PG_DIR=""
if [[ " $BACKENDS " == *" postgres "* ]]; then
  cluster="$(PG_CLUSTER_DURABLE=1 scripts/pg-cluster start)"
  PG_DIR="$(sed -n 's/^PG_CLUSTER_DIR=//p' <<<"$cluster")"
  PG_ADMIN_URL="$(sed -n 's/^ISSUE_GATEWAY_TEST_DATABASE_URL=//p' <<<"$cluster")"
  PG_BASE="${PG_ADMIN_URL%/postgres}"
fi
stop_cluster() { [ -z "$PG_DIR" ] || scripts/pg-cluster stop "$PG_DIR"; }
trap 'cleanup; stop_cluster' EXIT

# --- 1. the load: once into SQLite (PostgreSQL from it, or its own), then a copy per build ----------
echo "load before: $(uptime)" >&2
GOLDEN="$DATA/golden.sqlite"
if [ -n "${LOAD_FROM:-}" ]; then  # an earlier run's load (KEEP_LOAD), its secret seed beside it
  rm -f "$GOLDEN"*; cp "$LOAD_FROM" "$GOLDEN"
  SEED="$(cat "$LOAD_FROM.seed")"
  record "load_sqlite: from $LOAD_FROM ($(cat "$LOAD_FROM.load" 2>/dev/null || echo 'an earlier run'))"
else
  rm -f "$GOLDEN"*
  ISSUE_GATEWAY_DATABASE="$GOLDEN" "$GATEWAY" catalog import catalog >/dev/null
  started=$(date +%s.%N)
  loaded="$("$BENCH" surge-load "$GOLDEN" "$ACCOUNTS" secret="$SEED" idle-hours="$SESSION_IDLE_HOURS")"
  record "load_sqlite: $loaded"
  record "load_sqlite_seconds=$(echo "$(date +%s.%N) - $started" | bc -l | xargs printf '%.1f')"
  # The load marks every account's report rows due (decision 96); derived here, as a drain after
  # ingest would, so the surge does not share the machine with a million derivations.
  started=$(date +%s.%N)
  ISSUE_GATEWAY_DATABASE="$GOLDEN" "$GATEWAY" reports rebuild >/dev/null
  record "report_rows_sqlite_seconds=$(echo "$(date +%s.%N) - $started" | bc -l | xargs printf '%.1f')"
fi
sqlite3 "$GOLDEN" 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null
if [ -n "${KEEP_LOAD:-}" ] && [ -z "${LOAD_FROM:-}" ]; then
  cp "$GOLDEN" "$KEEP_LOAD"; echo "$SEED" >"$KEEP_LOAD.seed"; echo "$loaded" >"$KEEP_LOAD.load"
fi
# The release before cannot open this release's schema: with BEFORE_BENCH (a loader writing the
# release before's schema, e.g. issue-gateway-bench built at 0c34b0c: 4407e8f plus surge-load)
# it gets its own load of the same size and kind (the facts are drawn at random by each load).
GOLDEN_BEFORE="$GOLDEN"
if [[ " $BUILDS " == *" before "* ]] && [ -n "${BEFORE_BENCH:-}" ]; then
  GOLDEN_BEFORE="$DATA/golden-before.sqlite"
  rm -f "$GOLDEN_BEFORE"*
  ISSUE_GATEWAY_DATABASE="$GOLDEN_BEFORE" "$BEFORE_GATEWAY" catalog import catalog >/dev/null
  started=$(date +%s.%N)
  record "load_sqlite_before: $("$BEFORE_BENCH" surge-load "$GOLDEN_BEFORE" "$ACCOUNTS" secret="$SEED" idle-hours="$SESSION_IDLE_HOURS")"
  record "load_sqlite_before_seconds=$(echo "$(date +%s.%N) - $started" | bc -l | xargs printf '%.1f')"
  sqlite3 "$GOLDEN_BEFORE" 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null
fi
golden_of() { if [ "$1" = before ]; then echo "$GOLDEN_BEFORE"; else echo "$GOLDEN"; fi; }
if [ -n "$PG_DIR" ]; then
  psql -q "$PG_ADMIN_URL" -c "CREATE DATABASE surge_golden"
  started=$(date +%s.%N)
  if [ "$PG_LOAD" = direct ]; then
    ISSUE_GATEWAY_DATABASE_URL="$PG_BASE/surge_golden" "$GATEWAY" catalog import catalog >/dev/null
    record "load_postgres_direct: $("$BENCH" surge-load "$PG_BASE/surge_golden" "$ACCOUNTS" secret="$SEED" idle-hours="$SESSION_IDLE_HOURS")"
    ISSUE_GATEWAY_DATABASE_URL="$PG_BASE/surge_golden" "$GATEWAY" reports rebuild >/dev/null
  else
    ISSUE_GATEWAY_DATABASE="$GOLDEN" "$GATEWAY" store copy --to "$PG_BASE/surge_golden" >"$WORK/copy.log"
  fi
  record "load_postgres_${PG_LOAD}_seconds=$(echo "$(date +%s.%N) - $started" | bc -l | xargs printf '%.1f')"
  psql -q "$PG_BASE/surge_golden" -c "VACUUM ANALYZE" >/dev/null
fi
echo "load after: $(uptime)" >&2

# --- the gateway -------------------------------------------------------------------------------------
GATEWAY_PIDS=()
serve_one() {  # build backend database port: starts one gateway process, its pid appended to GATEWAY_PIDS
  local build="$1" backend="$2" database="$3" port="$4" db_setting
  local threads="$(nproc)"
  if [ "$backend" = sqlite ]; then db_setting="ISSUE_GATEWAY_DATABASE=$database"; else db_setting="ISSUE_GATEWAY_DATABASE_URL=$database"; threads="${PG_THREADS:-$threads}"; fi
  env ISSUE_GATEWAY_LISTEN="127.0.0.1:$port" "$db_setting" ISSUE_GATEWAY_ADMIN_KEY="$ADMIN" \
    ISSUE_GATEWAY_CATALOG=none ISSUE_GATEWAY_THREADS="$threads" ISSUE_GATEWAY_TOKEN_TTL=3600 \
    ISSUE_GATEWAY_APNS_KEY_ID=BENCHKEY01 ISSUE_GATEWAY_APNS_TEAM_ID=BENCHTEAM1 \
    ISSUE_GATEWAY_APNS_PRIVATE_KEY="$WORK/AuthKey.p8" ISSUE_GATEWAY_APNS_TOPIC=com.example.reader \
    ISSUE_GATEWAY_APNS_URL="https://127.0.0.1:$APNS_PORT" ISSUE_GATEWAY_APNS_SANDBOX_URL="https://127.0.0.1:$APNS_PORT/sandbox" \
    ISSUE_GATEWAY_APNS_CA_FILE="$APNS_CERT" ${CACHE_MEMORY:+ISSUE_GATEWAY_CACHE_MEMORY="$CACHE_MEMORY"} \
    "$(binary_of "$build")" serve >/dev/null 2>>"$WORK/gateway-$build-$backend.log" &
  GATEWAY_PIDS+=($!)
  PIDS+=($!)
}
healthy() { [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$1/healthz")" = 200 ]; }
wait_healthy() {  # port: seconds until /healthz answers 200 (at most 120 s)
  local started now
  started=$(date +%s.%N)
  for _ in $(seq 1 12000); do
    if healthy "$1"; then echo "$(date +%s.%N) - $started" | bc -l | xargs printf '%.2f'; return 0; fi
    sleep 0.01
  done
  echo "the gateway on $1 never answered /healthz" >&2; return 1
}
ports_of() { if [ "$1" = sqlite ]; then echo "$PORT"; else echo "$PORT,$PORT2"; fi; }
database_of() {  # build backend: that build's copy of the loaded data
  if [ "$2" = sqlite ]; then echo "$DATA/$1.sqlite"; else echo "$PG_BASE/surge_$1"; fi
}
fresh_copy() {  # build backend
  if [ "$2" = sqlite ]; then
    rm -f "$DATA/$1.sqlite"*; cp "$(golden_of "$1")" "$DATA/$1.sqlite"
  else
    psql -q "$PG_ADMIN_URL" -c "DROP DATABASE IF EXISTS surge_$1" -c "CREATE DATABASE surge_$1 TEMPLATE surge_golden"
  fi
}
start_gateways() {  # build backend: every process of that backend, its start time recorded
  local build="$1" backend="$2" port
  GATEWAY_PIDS=()
  for port in ${3:-$(ports_of "$backend" | tr , ' ')}; do
    serve_one "$build" "$backend" "$(database_of "$build" "$backend")" "$port"
    record "$build.$backend.start_seconds.$port=$(wait_healthy "$port")"
  done
}
stop_gateways() {
  local pid
  for pid in "${GATEWAY_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  GATEWAY_PIDS=()
}
peak_rss() {  # sum over the processes of VmHWM, MiB
  local pid total=0
  for pid in "${GATEWAY_PIDS[@]}"; do
    total=$((total + $(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status")))
  done
  echo $((total / 1024))
}
database_bytes() {  # build backend
  if [ "$2" = sqlite ]; then
    sqlite3 "$DATA/$1.sqlite" 'PRAGMA wal_checkpoint(TRUNCATE);' >/dev/null 2>&1 || true
    stat -c %s "$DATA/$1.sqlite"
  else
    psql -tA "$PG_BASE/surge_$1" -c "SELECT pg_database_size(current_database())"
  fi
}
publish() {  # port: the new issue, through the catalog route
  local now issue
  now="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  issue='{"id":"'"$ISSUE"'","title":"Publication morning","publishedAt":"'"$now"'","free":false,"assets":[{"path":"/content/monthly/surge/issue.pdf","bytes":1,"sha256":"'"$(printf 'ab%.0s' $(seq 32))"'"}]}'
  curl -sf -X POST -H "Authorization: Bearer $ADMIN" -H 'Content-Type: application/json' --data "$issue" \
    "http://127.0.0.1:$1/v1/publications/monthly/issues" >/dev/null
}
pending_pushes() {  # backend: push jobs pending, summed over the processes' metrics
  local port total=0 n
  for port in $(ports_of "$1" | tr , ' '); do
    n="$(curl -s "http://127.0.0.1:$port/metrics" | awk '/^issue_gateway_push_jobs_pending/ {print $2}')"
    total=$((total + ${n:-0}))
  done
  echo "$total"
}
surge() {  # build backend label: one surge over every reader; its key=value lines prefixed
  local build="$1" backend="$2" label="$3"
  "$WORK/surge-reader" surge 127.0.0.1 "$(ports_of "$backend")" "$ACCOUNTS" "$SEED" "$ISSUE" "$CONNECTIONS" "$DEADLINE" \
    "$WORK/progress" | sed "s/^/$build.$backend.$label./" | tee -a "$RESULTS"
}

# --- 2–4. start, publish, surge, per build and backend -------------------------------------------------
for backend in $BACKENDS; do
  for build in $BUILDS; do
    if [ "$build" = before ] && [ "$backend" = postgres ] && [ -n "${BEFORE_BENCH:-}" ]; then continue; fi
    echo "=== $build on $backend: $(uptime)" | tee -a "$RESULTS"
    fresh_copy "$build" "$backend"
    record "$build.$backend.database_bytes_loaded=$(database_bytes "$build" "$backend")"
    start_gateways "$build" "$backend"
    : >"$WORK/apns/requests.jsonl"
    publish "$PORT"
    perf_pid=""
    if [ "$PROFILE" != 0 ] && [ "$build" = current ] && command -v perf >/dev/null; then
      if [ "$PROFILE" = machine ]; then target=(-a); else target=(-p "${GATEWAY_PIDS[0]}"); fi
      perf record -F 499 -g "${target[@]}" -o "$DATA/perf-$backend.data" >/dev/null 2>&1 &
      perf_pid=$!
    fi
    statements=""
    if [ "$backend" = postgres ] && [ -n "${PG_CLUSTER_STATEMENTS:-}" ]; then
      statements="$PG_BASE/surge_$build"
      psql -q "$statements" -c "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" -c "SELECT pg_stat_statements_reset()" >/dev/null
    fi
    surge "$build" "$backend" surge
    if [ -n "$statements" ]; then
      echo "--- $build on postgres: the statements of the surge by time in the database (pg_stat_statements):" | tee -a "$RESULTS"
      psql -q "$statements" -c "SELECT calls, round(total_exec_time) AS ms, round(mean_exec_time::numeric, 3) AS mean_ms,
          rows, left(regexp_replace(query, '\s+', ' ', 'g'), 110) AS query
        FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
        ORDER BY total_exec_time DESC LIMIT 20" | tee -a "$RESULTS"
    fi
    [ -z "$perf_pid" ] || { kill -INT "$perf_pid"; wait "$perf_pid" 2>/dev/null || true; }
    record "$build.$backend.rss_peak_mib=$(peak_rss)"
    # Pushes still going out are waited for: until no process has push jobs pending and the
    # fake's count stayed put for 3 s (at most 10 minutes).
    last=-1; still=0
    for _ in $(seq 1 3000); do
      count="$(pushes)"
      if [ "$count" = "$last" ] && [ "$(pending_pushes "$backend")" = 0 ]; then
        still=$((still + 1)); [ "$still" -ge 15 ] && break
      else
        still=0
      fi
      last="$count"; sleep 0.2
    done
    record "$build.$backend.pushes_answered_200=$(grep -c '"status": 200' "$WORK/apns/requests.jsonl" || true)"
    record "$build.$backend.pushes_failed_checks=$(grep -c '"problem": "' "$WORK/apns/requests.jsonl" || true)"
    metrics="$(curl -s "http://127.0.0.1:$PORT/metrics" || true)"
    grep -E '^issue_gateway_(cache|push|apns|store)' <<<"$metrics" >"$WORK/metrics-$build-$backend.txt" || true
    # The cold path's costs per reader (the first process's, with its pushes), where counted.
    for family in facts_reads entitlement_evaluations; do
      n="$(awk -v f="issue_gateway_${family}_total" '$1 == f {print $2}' <<<"$metrics")"
      [ -z "$n" ] || record "$build.$backend.${family}=$n per_reader=$(echo "$n / $ACCOUNTS" | bc -l | xargs printf '%.2f')"
    done
    stop_gateways
    bytes="$(database_bytes "$build" "$backend")"
    record "$build.$backend.database_bytes=$bytes"
    record "$build.$backend.bytes_per_reader=$((bytes / ACCOUNTS))"
    if [ -n "$perf_pid" ]; then
      : >"$WORK/profile-$backend.txt"
      # The machine's samples by process first (the gateways, the database, the client, the kernel).
      [ "$PROFILE" != machine ] || perf report -i "$DATA/perf-$backend.data" --no-children -g none --percent-limit 1 --sort comm --stdio 2>/dev/null \
        | grep -v '^#' | grep '%' | sed "s/ *$//" >>"$WORK/profile-$backend.txt" || true
      perf report -i "$DATA/perf-$backend.data" --no-children -g none --percent-limit 1 --sort dso --stdio 2>/dev/null \
        | grep -v '^#' | grep '%' | sed "s/ *$//" >>"$WORK/profile-$backend.txt" || true
      perf report -i "$DATA/perf-$backend.data" --no-children -g none --percent-limit 0.7 --sort dso,symbol --stdio 2>/dev/null \
        | grep -v '^#' | grep '%' | head -40 | { if command -v swift >/dev/null; then swift demangle --simplified; else cat; fi; } \
        | cut -c1-200 | sed "s/ *$//" >>"$WORK/profile-$backend.txt" || true
      # The samples' stacks by thread, for a look at callers (PERF_STACKS=FILE, `perf script`).
      [ -z "${PERF_STACKS:-}" ] || perf script -i "$DATA/perf-$backend.data" -F comm,ip,sym >"$PERF_STACKS" 2>/dev/null || true
      rm -f "$DATA/perf-$backend.data"
      scope="first process"; [ "$PROFILE" != machine ] || scope="the whole machine by process"
      echo "--- where the $backend gateway's time went during the surge (perf, self time, $scope: by library, then the top 40 symbols):" | tee -a "$RESULTS"
      tee -a "$RESULTS" <"$WORK/profile-$backend.txt"
    fi
  done
done

# --- 5. durability: kill -9 mid-surge with acknowledged writes beside it; PostgreSQL restarted --------
mid_surge() {  # thirds: waits until that many thirds of the readers were served
  local target=$((ACCOUNTS * $1 / 3))
  for _ in $(seq 1 60000); do
    local served; served="$(cat "$WORK/progress" 2>/dev/null || true)"
    [ "${served:-0}" -ge "$target" ] && return 0
    sleep 0.05
  done
}
lost_devices() {  # build backend: acknowledged devices missing from the store
  local build="$1" backend="$2"
  sort -u "$WORK/acked.txt" >"$WORK/acked.sorted"
  if [ "$backend" = sqlite ]; then
    sqlite3 -separator ' ' "$DATA/$build.sqlite" "SELECT account_id, apns_token FROM devices"
  else
    psql -tA -F ' ' "$PG_BASE/surge_$build" -c "SELECT account_id, apns_token FROM devices"
  fi | sort -u >"$WORK/stored.sorted"
  comm -23 "$WORK/acked.sorted" "$WORK/stored.sorted" | wc -l
}
register_device() {  # port account token-prefix [curl options…]: a write that needs the database; prints the status
  local port="$1" n="$2" token; token="$(printf '%s%062x' "$3" "$n")"; shift 3
  curl -s -o /dev/null "$@" -w '%{http_code}' -X POST -H "Authorization: Bearer surge-$SEED-$n" \
    -H 'Content-Type: application/json' --data '{"platform":"ios","apnsToken":"'"$token"'","environment":"production"}' \
    "http://127.0.0.1:$port/v1/accounts/bench-$n/devices" | tr -d '\r'
}
if [ "$DURABILITY" = 1 ]; then
  for backend in $BACKENDS; do
    build=current
    echo "=== durability on $backend: $(uptime)" | tee -a "$RESULTS"
    fresh_copy "$build" "$backend"
    start_gateways "$build" "$backend" >/dev/null
    publish "$PORT"
    : >"$WORK/acked.txt"
    "$WORK/surge-reader" devices 127.0.0.1 "$(ports_of "$backend")" "$ACCOUNTS" "$SEED" "$WORK/acked.txt" 4 "$DEADLINE" \
      "$WORK/progress-devices" >"$WORK/devices.out" &
    writer=$!
    "$WORK/surge-reader" surge 127.0.0.1 "$(ports_of "$backend")" "$ACCOUNTS" "$SEED" "$ISSUE" "$CONNECTIONS" "$DEADLINE" \
      "$WORK/progress" >"$WORK/kill-surge.out" &
    reader=$!
    mid_surge 1
    victim="${GATEWAY_PIDS[0]}"
    acked_before_kill="$(wc -l <"$WORK/acked.txt")"
    kill -9 "$victim"; wait "$victim" 2>/dev/null || true
    killed_at=$(date +%s.%N)
    serve_one "$build" "$backend" "$(database_of "$build" "$backend")" "$PORT"
    GATEWAY_PIDS=("${GATEWAY_PIDS[@]:1}")
    record "$build.$backend.kill.restart_seconds=$(wait_healthy "$PORT")"
    if [ "$backend" = postgres ]; then
      # The database away for DB_DOWN seconds, mid-surge: 503 with Retry-After meanwhile.
      mid_surge 2
      scripts/pg-cluster pause "$PG_DIR"
      down_at=$(date +%s.%N)
      probe="$(register_device "$PORT" 0 e1 -D -)"
      record "$build.$backend.db_down.probe_status=$(tail -n1 <<<"$probe")"
      record "$build.$backend.db_down.probe_retry_after=$(awk -F': ' 'tolower($1)=="retry-after" {print $2}' <<<"$probe")"
      sleep "$DB_DOWN"
      scripts/pg-cluster resume "$PG_DIR"
      back_at=$(date +%s.%N)
      serving=""
      for _ in $(seq 1 600); do
        code="$(register_device "$PORT2" 1 e2)"
        if [ "$code" = 201 ] || [ "$code" = 200 ]; then serving=$(date +%s.%N); break; fi
        sleep 0.05
      done
      record "$build.$backend.db_down.seconds_down=$(echo "$back_at - $down_at" | bc -l | xargs printf '%.1f')"
      record "$build.$backend.db_down.serving_again_after_seconds=${serving:+$(echo "$serving - $back_at" | bc -l | xargs printf '%.2f')}"
    fi
    wait "$reader" || true
    wait "$writer" || true
    sed "s/^/$build.$backend.kill.surge./" "$WORK/kill-surge.out" | tee -a "$RESULTS"
    sed "s/^/$build.$backend.kill.devices./" "$WORK/devices.out" | tee -a "$RESULTS"
    stop_gateways
    record "$build.$backend.kill.acked_before_kill=$acked_before_kill"
    record "$build.$backend.kill.acked=$(wc -l <"$WORK/acked.txt")"
    record "$build.$backend.kill.lost=$(lost_devices "$build" "$backend")"
    : "$killed_at"
  done
fi
echo "load at the end: $(uptime)" | tee -a "$RESULTS"
echo "gateway: $GATEWAY; before: ${BEFORE_GATEWAY:-skipped}; $(nproc) cores, $(awk -F: '/model name/ {gsub(/^ +/,"",$2); print $2; exit}' /proc/cpuinfo)" | tee -a "$RESULTS"
