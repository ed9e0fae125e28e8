#!/usr/bin/env python3
"""A fake APNs for issue-gateway's push tests and benchmark: HTTP/2 over TLS (hypercorn + h2) with
a self-signed certificate made at start (its PEM is the CA the gateway is told to trust).

It checks what Apple checks and a test cares about: HTTP/2, POST /3/device/<hex token>, the
provider token (an ES256 JWT: alg ES256, kid, iss, iat within the hour, the signature verified
with the public key), apns-push-type background, apns-priority 5, apns-topic, and the body
{"aps":{"content-available":1},"publicationId":…,"issueId":…}. A path under /sandbox/ is recorded
as the sandbox endpoint's. A failed check is a 400 with the
reason "FakeCheckFailed: …". Tokens starting with a status answer it on purpose:
  410…  -> 410 Unregistered, always
  429…  -> 429 TooManyRequests the first two times, then 200
  500…  -> 500 InternalServerError the first time, then 200
  400…  -> 400 BadDeviceToken, always
Every request is appended as a JSON line to <dir>/requests.jsonl: token, status, http version,
publicationId, issueId, the check that failed if any.

usage: fake_apns.py --dir DIR --public-key PEM --key-id ID --team-id ID --topic TOPIC
Prints "READY <port> <cert.pem>" once it accepts connections; stops on SIGTERM.
"""
import argparse, asyncio, base64, json, os, signal, socket, subprocess, sys, time

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, utils
from hypercorn.asyncio import serve
from hypercorn.config import Config


def b64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Fake:
    def __init__(self, args):
        with open(args.public_key, "rb") as f:
            self.public_key = serialization.load_pem_public_key(f.read())
        self.key_id, self.team_id, self.topic = args.key_id, args.team_id, args.topic
        self.log = open(os.path.join(args.dir, "requests.jsonl"), "a", buffering=1)
        self.seen = {}
        self.verified = set()

    def check_jwt(self, authorization):
        if not authorization.startswith("bearer "):
            return "authorization is not a bearer token"
        token = authorization[len("bearer "):]
        if token in self.verified:
            return self.check_claims(token)
        parts = token.split(".")
        if len(parts) != 3:
            return "provider token is not a JWS"
        header = json.loads(b64url(parts[0]))
        if header != {"alg": "ES256", "kid": self.key_id}:
            return "provider token header %r" % header
        signature = b64url(parts[2])
        if len(signature) != 64:
            return "ES256 signature is not raw r||s"
        der = utils.encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
        try:
            self.public_key.verify(der, (parts[0] + "." + parts[1]).encode(), ec.ECDSA(hashes.SHA256()))
        except InvalidSignature:
            return "provider token signature does not verify"
        self.verified.add(token)
        return self.check_claims(token)

    def check_claims(self, token):
        claims = json.loads(b64url(token.split(".")[1]))
        if set(claims) != {"iss", "iat"} or claims["iss"] != self.team_id:
            return "provider token claims %r" % claims
        if abs(time.time() - claims["iat"]) > 3600:
            return "provider token older than an hour"
        return None

    def check(self, scope, headers, body, token):
        if scope["http_version"] != "2":
            return "HTTP/%s, not HTTP/2" % scope["http_version"]
        if scope["method"] != "POST":
            return "method " + scope["method"]
        if not token or len(token) % 2 or any(c not in "0123456789abcdef" for c in token):
            return "device token %r" % token
        problem = self.check_jwt(headers.get("authorization", ""))
        if problem:
            return problem
        for name, value in (("apns-push-type", "background"), ("apns-priority", "5"), ("apns-topic", self.topic)):
            if headers.get(name) != value:
                return "%s is %r" % (name, headers.get(name))
        try:
            payload = json.loads(body)
        except ValueError:
            return "body is not JSON"
        if set(payload) != {"aps", "publicationId", "issueId"} or payload["aps"] != {"content-available": 1}:
            return "payload %r" % payload
        return None

    def answer(self, token):
        count = self.seen.get(token, 0) + 1
        self.seen[token] = count
        if token.startswith("410"):
            return 410, {"reason": "Unregistered", "timestamp": int(time.time() * 1000)}
        if token.startswith("429") and count <= 2:
            return 429, {"reason": "TooManyRequests"}
        if token.startswith("500") and count == 1:
            return 500, {"reason": "InternalServerError"}
        if token.startswith("400"):
            return 400, {"reason": "BadDeviceToken"}
        return 200, None

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        path = scope["path"]
        # The tests point the sandbox endpoint at <url>/sandbox to tell the two apart.
        sandbox = path.startswith("/sandbox/")
        if sandbox:
            path = path[len("/sandbox"):]
        token = path[len("/3/device/"):] if path.startswith("/3/device/") else ""
        problem = self.check(scope, headers, body, token)
        if problem:
            status, reply = 400, {"reason": "FakeCheckFailed: " + problem}
        else:
            status, reply = self.answer(token)
        try:
            payload = json.loads(body)
        except ValueError:
            payload = {}
        self.log.write(json.dumps({"token": token, "status": status, "http": scope["http_version"], "problem": problem,
                                   "sandbox": sandbox,
                                   "publicationId": payload.get("publicationId"), "issueId": payload.get("issueId")}) + "\n")
        data = json.dumps(reply).encode() if reply else b""
        response_headers = [(b"apns-id", b"00000000-0000-0000-0000-000000000000")]
        if data:
            response_headers.append((b"content-type", b"application/json"))
        await send({"type": "http.response.start", "status": status, "headers": response_headers})
        await send({"type": "http.response.body", "body": data})


async def announce_when_ready(port, cert):
    while True:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            print("READY %d %s" % (port, cert), flush=True)
            return
        except OSError:
            await asyncio.sleep(0.02)


def main():
    parser = argparse.ArgumentParser()
    for name in ("--dir", "--public-key", "--key-id", "--team-id", "--topic"):
        parser.add_argument(name, required=True)
    args = parser.parse_args()
    cert, key = os.path.join(args.dir, "apns-cert.pem"), os.path.join(args.dir, "apns-key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                    "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = Config()
    config.bind = ["127.0.0.1:%d" % port]
    config.certfile, config.keyfile = cert, key
    config.alpn_protocols = ["h2"]
    config.h2_max_concurrent_streams = 1000
    config.graceful_timeout = 0.2  # clients keep their connection open, as APNs asks
    # APNs keeps a provider's connection for hours: no closing after N requests or a few idle seconds.
    config.keep_alive_max_requests = 1 << 40
    config.keep_alive_timeout = 3600
    config.accesslog = None
    config.errorlog = None
    stop = asyncio.Event()

    async def run():
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, stop.set)
        asyncio.ensure_future(announce_when_ready(port, cert))
        await serve(Fake(args), config, shutdown_trigger=stop.wait)

    asyncio.run(run())


if __name__ == "__main__":
    sys.exit(main())
