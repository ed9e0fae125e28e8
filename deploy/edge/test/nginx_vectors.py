#!/usr/bin/env python3
"""Sends every vector of deploy/edge/vectors.json to a running nginx with deploy/nginx/edge-njs.conf
(scripts/test-edge starts it) as a raw HTTP/1.1 request, and checks the answer as auth_request's
edge would give it: 204 vectors (and absolute-form ones, as their path) get the file (200, its bytes, Cache-Control private), 401 and 403
vectors get that status. A request nginx refuses itself before any check (400 or 414, e.g. an empty
or over-long request line) counts as refused for a 401/403 vector and is listed. A vector without
a request target cannot be sent and is counted apart.

    nginx_vectors.py VECTORS PORT CONTENT_ROOT
"""
import json
import socket
import sys


def exchange(port, method, target, authorization):
    lines = [f"{method} {target} HTTP/1.1", "Host: edge.test", "Connection: close"]
    if authorization is not None:
        lines.append(f"Authorization: {authorization}")
    request = ("\r\n".join(lines) + "\r\n\r\n").encode("utf-8", "surrogateescape")
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(request)
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in header_lines)}
    return int(status_line.split()[1]), headers, body


def main():
    vectors_file, port, root = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    vector_set = json.load(open(vectors_file))
    failures, refused_by_nginx, unsendable = [], [], 0
    for v in vector_set["vectors"]:
        if "target" not in v:
            unsendable += 1
            continue
        method = v.get("method", "GET")
        status, headers, body = exchange(port, method, v["target"], v.get("authorization"))
        # Absolute-form (RFC 9112 §3.2.2): nginx takes the host from it and gives the check (and an
        # auth_request subrequest, in $request_uri) only the path, so it serves what that path is
        # allowed: the file, for the vectors' granted path.
        absolute = v["target"].startswith("http://")
        if absolute:
            v = dict(v, status=204, target="/" + v["target"].split("/", 3)[3])
        if v["status"] == 204:
            path = v["target"].split("?")[0]
            expected = open(root + path.replace("%20", " ").replace("%2E", "."), "rb").read()
            expected = b"" if method == "HEAD" else expected
            if status != 200 or body != expected or "private" not in headers.get("cache-control", ""):
                failures.append(f"{v['name']}: expected the file, got {status} ({len(body)} bytes)")
        elif status in (400, 414) and status != v["status"]:
            refused_by_nginx.append(f"{v['name']}: {status}")
        elif status != v["status"]:
            failures.append(f"{v['name']}: expected {v['status']}, got {status}")
    for line in refused_by_nginx:
        print(f"refused by nginx before the check: {line}")
    for line in failures:
        print(f"FAIL {line}")
    sent = len(vector_set["vectors"]) - unsendable
    print(f"nginx + njs: {sent} vectors sent ({unsendable} without a request target), "
          f"{len(refused_by_nginx)} refused by nginx itself, {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
