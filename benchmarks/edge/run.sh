#!/usr/bin/env bash
# Load benchmark of the ways an nginx edge can guard downloads, all serving the same 16 KiB file
# from one nginx (workers = cores) on the same machine, in the same run (issue #14):
#   static       no check: the ceiling
#   njs          the in-process token check, deploy/nginx/edge-njs.conf (goal: >= 85% of static)
#   auth_request a subrequest per download to the gateway's GET /v1/edge/verify, deploy/nginx/edge.conf
#   secure_link  nginx's own MD5 signed links, deploy/nginx/edge-secure-link.conf with its
#                unknown-key guard (ISSUE_GATEWAY_EDGE_FORMAT=nginx-secure-link; goal: >= 85% of static)
#
#   benchmarks/edge/run.sh     # DURATION=10 CONNECTIONS=64 WRK_THREADS=2 ROUNDS=2 EDGE_WORKERS=1 by default
#   SCENARIOS="static secure_link" benchmarks/edge/run.sh    # a subset (static is always measured)
#
# One core each: nginx runs EDGE_WORKERS worker processes (default 1) and the gateway behind
# auth_request as many threads, so each path is measured per core while wrk has the rest.
# wrk on loopback, keep-alive; the scenarios alternate within each round so that a change in the
# machine's load hits all of them; ratios are over the summed requests/s of all rounds.
set -euo pipefail
cd "$(dirname "$0")/../.."
source benchmarks/lib/wrk.sh  # DURATION, CONNECTIONS, WRK_THREADS, ROUNDS and measure()

STATIC_PORT="${STATIC_PORT:-18280}"
NJS_PORT="${NJS_PORT:-18281}"
AUTH_REQUEST_PORT="${AUTH_REQUEST_PORT:-18282}"
SECURE_LINK_PORT="${SECURE_LINK_PORT:-18283}"
GATEWAY_PORT="${GATEWAY_PORT:-18284}"
CORES="$(nproc)"
WORKERS="${EDGE_WORKERS:-1}"

scripts/setup >/dev/null
source benchmarks/lib/tools.sh
require_tools wrk
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
MODULE="$(dpkg -L libnginx-mod-http-js | grep '/ngx_http_js_module\.so$' | head -n 1)"

source benchmarks/lib/processes.sh
require_free_ports "$STATIC_PORT" "$NJS_PORT" "$AUTH_REQUEST_PORT" "$SECURE_LINK_PORT" "$GATEWAY_PORT"

source benchmarks/lib/binaries.sh
build_release_binaries gateway

# One key for the gateway and the njs edge; a token for the file signed with it, as the gateway
# signs them (tokens.md), valid for the longest lifetime allowed.
ASSET="/content/monthly/2026-11/issue.pdf"
read -r KEYS TOKEN SECURE_QUERY EDGE_SECRETS < <(python3 - "$ASSET" <<'PY'
import base64, hashlib, hmac, json, os, sys, time
b64 = lambda b: base64.urlsafe_b64encode(b).rstrip(b"=").decode()
secret, now, path = os.urandom(32), int(time.time()), sys.argv[1]
header = b64(json.dumps({"alg": "HS256", "typ": "JWT", "kid": "bench"}, separators=(",", ":")).encode())
claims = b64(json.dumps({"iss": "issue-gateway", "aud": "edge", "sub": "acct-bench", "pub": "monthly",
                         "issue": "2026-11", "paths": [path, "/content/monthly/2026-11/cover.jpg"],
                         "iat": now, "nbf": now, "exp": now + 3600, "jti": b64(os.urandom(16))},
                        separators=(",", ":")).encode())
mac = b64(hmac.new(secret, f"{header}.{claims}".encode(), hashlib.sha256).digest())
expires = now + 3600
# tokens.md, nginx `secure_link`: MD5 of "{exp}{path} {secret}", base64url, and the kid.
edge_secret = b64(os.urandom(32))
md5 = b64(hashlib.md5(f"{expires}{path} {edge_secret}".encode()).digest())
print(f"bench:{b64(secret)} {header}.{claims}.{mac} md5={md5}&expires={expires}&kid=b1 b1:{edge_secret}")
PY
)

mkdir -p "$WORK/nginx/root/content/monthly/2026-11"
head -c 16384 /dev/urandom > "$WORK/nginx/root$ASSET"
printf 'js_var $issue_edge_token_keys "%s";\n' "$KEYS" > "$WORK/nginx/token-keys.conf"
chmod -R a+rX "$WORK"
cp deploy/nginx/log-format.conf "$WORK/nginx/"
sed -e "s|^js_path .*|js_path $PWD/deploy/edge;|" -e "s|listen 8081;|listen 127.0.0.1:$NJS_PORT reuseport;|" \
    -e "s|root /srv/issue-gateway;|root $WORK/nginx/root;|" -e "s|/var/log/nginx/issue-edge|$WORK/nginx/njs|" \
    -e "s|^include /etc/nginx/issue-gateway/token-keys.conf;|include $WORK/nginx/token-keys.conf;|" \
    deploy/nginx/edge-njs.conf > "$WORK/nginx/edge-njs.conf"
sed -e "s|server 127.0.0.1:8080;|server 127.0.0.1:$GATEWAY_PORT;|" -e "s|listen 8081;|listen 127.0.0.1:$AUTH_REQUEST_PORT reuseport;|" \
    -e "s|root /srv/issue-gateway;|root $WORK/nginx/root;|" -e "s|/var/log/nginx/issue-edge|$WORK/nginx/auth-request|" \
    deploy/nginx/edge.conf > "$WORK/nginx/edge.conf"
# The secrets file deploy/nginx/edge-secure-link.conf documents, from ISSUE_GATEWAY_EDGE_SECRETS.
printf '%s\n' "$EDGE_SECRETS" | tr ',' '\n' | sed 's/^\([^:]*\):\(.*\)$/\1 "\2";/' > "$WORK/nginx/edge-secrets.conf"
sed -e "s|listen 8081;|listen 127.0.0.1:$SECURE_LINK_PORT reuseport;|" \
    -e "s|root /srv/issue-gateway;|root $WORK/nginx/root;|" -e "s|/var/log/nginx/issue-edge|$WORK/nginx/secure-link|" \
    -e "s|include /etc/nginx/issue-gateway/edge-secrets.conf;|include $WORK/nginx/edge-secrets.conf;|" \
    deploy/nginx/edge-secure-link.conf > "$WORK/nginx/edge-secure-link.conf"
sed -e "s|@PREFIX@|$WORK/nginx|g" -e "s|@WORKERS@|$WORKERS|g" -e "s|@MODULE@|$MODULE|g" \
    -e "s|@STATIC_PORT@|$STATIC_PORT|g" \
    benchmarks/edge/nginx.conf.template > "$WORK/nginx/nginx.conf"

ISSUE_GATEWAY_LISTEN="127.0.0.1:$GATEWAY_PORT" ISSUE_GATEWAY_DATABASE="$WORK/gateway/db.sqlite" \
ISSUE_GATEWAY_CATALOG=none ISSUE_GATEWAY_THREADS="$WORKERS" ISSUE_GATEWAY_TOKEN_KEYS="$KEYS" \
ISSUE_GATEWAY_ADMIN_KEY=benchmark-admin-key-0123456789 \
  "$GATEWAY" serve >"$WORK/gateway-access.log" 2>"$WORK/gateway.log" &
GATEWAY_PID=$!
PIDS+=($GATEWAY_PID)
"$NGINX" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -e "$WORK/nginx/error.log" &
NGINX_PID=$!
PIDS+=($NGINX_PID)
for port in "$GATEWAY_PORT" "$STATIC_PORT" "$NJS_PORT" "$AUTH_REQUEST_PORT" "$SECURE_LINK_PORT"; do wait_for_port "$port"; done
WORKER_PIDS=($(pgrep -P "$NGINX_PID"))

# Requests per CPU-second: the answers a scenario's access log gained over its measurement
# (warm-up included) over the CPU time its servers used meanwhile (nginx's workers; for
# auth_request the gateway too). On a machine shared with other work, requests/s follows the
# load of the moment; CPU time per request barely does.
declare -A LOG=([static]=static [njs]=njs [auth_request]=auth-request [secure_link]=secure-link)
TICKS="$(getconf CLK_TCK)"
cpu_ticks() {  # pid…: user + system clock ticks used so far
  local total=0 pid stat
  for pid in "$@"; do
    stat="$(cat "/proc/$pid/stat")"; stat="${stat##*) }"  # past the command name, which may hold blanks
    read -r -a f <<<"$stat"
    total=$((total + f[11] + f[12]))                    # utime and stime: fields 14 and 15
  done
  echo "$total"
}

declare -A URL=(
  [static]="http://127.0.0.1:$STATIC_PORT$ASSET"
  [njs]="http://127.0.0.1:$NJS_PORT$ASSET"
  [auth_request]="http://127.0.0.1:$AUTH_REQUEST_PORT$ASSET"
  [secure_link]="http://127.0.0.1:$SECURE_LINK_PORT$ASSET?$SECURE_QUERY"
)
read -r -a SCENARIOS <<<"static ${SCENARIOS:-njs auth_request secure_link}"
SCENARIOS=($(printf '%s\n' "${SCENARIOS[@]}" | awk '!seen[$0]++'))
# Every scenario must serve the file before it is measured, and the checks must refuse without
# their credential.
for s in "${SCENARIOS[@]}"; do
  got="$(curl -s -o /dev/null -w '%{http_code} %{size_download}' -H "Authorization: Bearer $TOKEN" "${URL[$s]}")"
  [ "$got" = "200 16384" ] || { echo "$s answered $got instead of the 16 KiB file" >&2; exit 1; }
done
for s in "${SCENARIOS[@]}"; do
  case "$s" in
    njs|auth_request) got="$(curl -s -o /dev/null -w '%{http_code}' "${URL[$s]}")"; want=401 ;;
    secure_link) got="$(curl -s -o /dev/null -w '%{http_code}' "${URL[$s]/kid=b1/kid=zz}")"; want=403 ;;
    *) continue ;;
  esac
  [ "$got" = "$want" ] || { echo "$s answered $got without its credential" >&2; exit 1; }
done

echo "load before: $(uptime)"
results=()
for round in $(seq 1 "$ROUNDS"); do
  for s in "${SCENARIOS[@]}"; do
    pids=("${WORKER_PIDS[@]}"); [ "$s" != auth_request ] || pids+=("$GATEWAY_PID")
    log="$WORK/nginx/${LOG[$s]}.access.log"
    lines="$(wc -l <"$log")" cpu="$(cpu_ticks "${pids[@]}")"
    line="$(measure "$s" "${URL[$s]}" -H "Authorization: Bearer $TOKEN")"
    lines=$(($(wc -l <"$log") - lines)) cpu=$(($(cpu_ticks "${pids[@]}") - cpu))
    results+=("$s $(awk -v n="$lines" -v t="$cpu" -v hz="$TICKS" 'BEGIN { printf "%.0f", t ? n * hz / t : 0 }') ${line#* }")
  done
done
echo "load after:  $(uptime)"

echo
echo "wrk -t$WRK_THREADS -c$CONNECTIONS -d${DURATION}s, keep-alive, 16 KiB file, nginx $("$NGINX" -v 2>&1 | sed 's|.*/||') with $WORKERS worker(s), njs $(njs -v), $CORES cores, $ROUNDS rounds; $(lscpu | awk -F: '/Model name/ {gsub(/^ +/,"",$2); print $2}')"
printf '%-14s %12s %10s %14s  %s\n' run "requests/s" "p99 ms" "req/CPU-s" notes
for line in "${results[@]}"; do
  read -r name percpu rps p99 notes <<<"$line"
  printf '%-14s %12s %10s %14s  %s\n' "$name" "$rps" "$p99" "$percpu" "${notes:-}"
done
printf '%s\n' "${results[@]}" | awk '
  { cpu[$1] += $2; sum[$1] += $3; n[$1]++ }
  END {
    for (s in sum) if (s != "static") printf "%-13s %8.0f requests/s on average, %5.1f%% of static; per CPU-second %5.1f%% of static%s\n", s, sum[s] / n[s], 100 * sum[s] / sum["static"], 100 * cpu[s] / cpu["static"], (s == "njs" || s == "secure_link" ? " (goal >= 85%)" : "")
    printf "%-13s %8.0f requests/s on average, %.0f requests per CPU-second\n", "static", sum["static"] / n["static"], cpu["static"] / n["static"]
  }' | sort
