#!/usr/bin/env bash
# The reader flow against `scripts/run`: the gateway on a free port with a throw-away data folder
# and the sample catalog, real nginx running deploy/nginx/edge.conf as its CDN (every download
# checked by the gateway's GET /v1/edge/verify), then `swift run ReaderFlow`. Everything it
# started is stopped, and the folder removed, however it ends.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
gateway_pid="" nginx_pid=""
cleanup() {
  [ -n "$gateway_pid" ] && kill "$gateway_pid" 2>/dev/null && wait "$gateway_pid" 2>/dev/null || true
  [ -n "$nginx_pid" ] && kill -9 "$nginx_pid" 2>/dev/null && wait "$nginx_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
gateway_port=$(free_port)
cdn_port=$(free_port)
admin_key="reader-flow-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"

# The CDN's files: every asset path of the sample catalog, a few bytes each.
python3 - "$repo/catalog/publications" "$work/content" <<'PY'
import json, os, sys
for name in os.listdir(sys.argv[1]):
    for issue in json.load(open(os.path.join(sys.argv[1], name)))["issues"]:
        for asset in issue["assets"]:
            path = os.path.join(sys.argv[2], asset["path"].lstrip("/"))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            open(path, "w").write(f"{issue['title']}: {asset['path']}\n")
PY
sed -e "s|server 127.0.0.1:8080;|server 127.0.0.1:$gateway_port;|" -e "s|listen 8081;|listen 127.0.0.1:$cdn_port;|" \
    -e "s|root /srv/issue-gateway;|root $work/content;|" -e "s|/var/log/nginx/issue-edge.access.log|$work/edge.access.log|" \
    "$repo/deploy/nginx/edge.conf" > "$work/edge.conf"
cp "$repo/deploy/nginx/log-format.conf" "$work/"
cat > "$work/nginx.conf" <<CONF
daemon off;
master_process off;
pid $work/nginx.pid;
error_log $work/error.log warn;
events { worker_connections 64; }
http {
    client_body_temp_path $work/body; proxy_temp_path $work/proxy; fastcgi_temp_path $work/fastcgi;
    uwsgi_temp_path $work/uwsgi; scgi_temp_path $work/scgi;
    access_log off;
    include $work/log-format.conf;
    include $work/edge.conf;
}
CONF
/usr/sbin/nginx -p "$work/" -c "$work/nginx.conf" -e "$work/error.log" &
nginx_pid=$!

ISSUE_GATEWAY_LISTEN="127.0.0.1:$gateway_port" ISSUE_GATEWAY_DATABASE="$work/data/issue-gateway.sqlite" \
ISSUE_GATEWAY_ADMIN_KEY="$admin_key" ISSUE_GATEWAY_CDN_BASE_URL="http://127.0.0.1:$cdn_port" \
  "$repo/scripts/run" > "$work/gateway.log" 2>&1 &
gateway_pid=$!
echo "scripts/run: gateway on 127.0.0.1:$gateway_port (data in $work/data), nginx edge on 127.0.0.1:$cdn_port"
for _ in $(seq 1 1800); do
  curl -sf "http://127.0.0.1:$gateway_port/healthz" > /dev/null && break
  kill -0 "$gateway_pid" 2>/dev/null || { cat "$work/gateway.log"; exit 1; }
  sleep 1
done

cd "$here"
GATEWAY_URL="http://127.0.0.1:$gateway_port" ADMIN_KEY="$admin_key" swift run ReaderFlow
