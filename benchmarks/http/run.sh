#!/usr/bin/env bash
# HTTP server benchmark: wrk on loopback, keep-alive, 64 connections, GET of a trivial route,
# against the gateway's HTTP server and against nginx answering 204, in the same run.
#   benchmarks/http/run.sh      # DURATION=10 CONNECTIONS=64 WRK_THREADS=2 ROUNDS=2 by default
# The two servers are measured in alternation (ROUNDS times each), so a change in the machine's
# load during the run hits both; the ratio is taken over the totals.
# Goal (issue #4): gateway requests/s >= 70% of nginx's, gateway p99 < 5 ms.
set -euo pipefail
cd "$(dirname "$0")/../.."

DURATION="${DURATION:-10}"
CONNECTIONS="${CONNECTIONS:-64}"
WRK_THREADS="${WRK_THREADS:-2}"
ROUNDS="${ROUNDS:-2}"
GATEWAY_PORT="${GATEWAY_PORT:-18080}"
NGINX_PORT="${NGINX_PORT:-18081}"
CORES="$(nproc)"

need=()
command -v wrk >/dev/null 2>&1 || need+=(wrk)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || need+=(nginx)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"

# The gateway side is an in-process server started by a test that only runs when asked
# (Tests/IssueGatewayTests/HTTP/HTTPBenchmarkServerTests.swift), built in release mode.
WORK="$(mktemp -d)"
echo "building (release, testable)..." >&2
swift build -c release --build-tests -Xswiftc -enable-testing >"$WORK/build.log" 2>&1 \
  || { cat "$WORK/build.log" >&2; rm -rf "$WORK"; exit 1; }

NGINX_PID=""
GATEWAY_PID=""
cleanup() {
  [ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2>/dev/null && wait "$NGINX_PID" 2>/dev/null || true
  touch "$WORK/stop"
  [ -n "$GATEWAY_PID" ] && wait "$GATEWAY_PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

wait_for_port() {  # port: waits until something answers there (at most ~60 s)
  for _ in $(seq 1 300); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.2
  done
  echo "nothing listens on $1" >&2
  return 1
}

measure() {  # name port: prints "name rps p99_ms" after a short warm-up
  wrk -t"$WRK_THREADS" -c"$CONNECTIONS" -d2s "http://127.0.0.1:$2/bench" >/dev/null
  local out
  out="$(wrk -t"$WRK_THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency "http://127.0.0.1:$2/bench")"
  echo "$out" > "$WORK/$1.wrk"
  local rps p99
  rps="$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")"
  p99="$(awk '$1 == "99%" {v=$2; if (v ~ /us$/) {sub(/us$/,"",v); v=v/1000} else if (v ~ /ms$/) {sub(/ms$/,"",v)} else if (v ~ /s$/) {sub(/s$/,"",v); v=v*1000}; print v}' <<<"$out")"
  local errors
  errors="$(awk '/Non-2xx|Socket errors/ {print}' <<<"$out" | tr '\n' ' ')"
  echo "$1 $rps $p99 $errors"
}

# Something already answering on a port would be measured instead of the server started here.
for port in "$NGINX_PORT" "$GATEWAY_PORT"; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "port $port is already in use; set NGINX_PORT / GATEWAY_PORT" >&2
    exit 1
  fi
done

# nginx, workers = cores, own prefix and pid file under the temp dir.
mkdir -p "$WORK/nginx"
sed -e "s|@PREFIX@|$WORK/nginx|g" -e "s|@PORT@|$NGINX_PORT|g" -e "s|@WORKERS@|$CORES|g" \
  benchmarks/http/nginx.conf.template > "$WORK/nginx/nginx.conf"
"$NGINX" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/error.log" &
NGINX_PID=$!
wait_for_port "$NGINX_PORT"

ISSUE_GATEWAY_HTTP_BENCH_PORT="$GATEWAY_PORT" ISSUE_GATEWAY_HTTP_BENCH_STOP_FILE="$WORK/stop" \
ISSUE_GATEWAY_HTTP_BENCH_SECONDS=$((DURATION * 4 + 120)) ISSUE_GATEWAY_THREADS="$CORES" \
  swift test -c release --skip-build -Xswiftc -enable-testing --filter serveForBenchmark >"$WORK/gateway.log" 2>&1 &
GATEWAY_PID=$!
wait_for_port "$GATEWAY_PORT"
kill -0 "$GATEWAY_PID" 2>/dev/null || { echo "gateway bench server did not start:" >&2; cat "$WORK/gateway.log" >&2; exit 1; }

echo "load before: $(uptime)"
results=()
for round in $(seq 1 "$ROUNDS"); do
  results+=("$(measure nginx "$NGINX_PORT")")
  results+=("$(measure gateway "$GATEWAY_PORT")")
done
echo "load after:  $(uptime)"
echo "gateway's own count of answers:"
curl -s "http://127.0.0.1:$GATEWAY_PORT/metrics" | grep '^http_requests_total' || true

kill "$NGINX_PID" 2>/dev/null; wait "$NGINX_PID" 2>/dev/null || true; NGINX_PID=""
touch "$WORK/stop"; wait "$GATEWAY_PID" || { echo "gateway bench server failed:" >&2; cat "$WORK/gateway.log" >&2; }
GATEWAY_PID=""

echo
echo "wrk -t$WRK_THREADS -c$CONNECTIONS -d${DURATION}s, keep-alive, GET /bench, $CORES cores, $ROUNDS rounds"
printf '%-8s %12s %10s  %s\n' server "requests/s" "p99 ms" notes
for line in "${results[@]}"; do
  read -r name rps p99 notes <<<"$line"
  printf '%-8s %12s %10s  %s\n' "$name" "$rps" "$p99" "${notes:-}"
done
printf '%s\n' "${results[@]}" | awk '
  $1 == "nginx"   { n += $2; if ($3 > np) np = $3 }
  $1 == "gateway" { g += $2; if ($3 > gp) gp = $3 }
  END { printf "gateway/nginx: %.1f%% of requests/s (goal >= 70%%); worst p99: gateway %s ms, nginx %s ms (goal < 5 ms)\n", 100 * g / n, gp, np }'
