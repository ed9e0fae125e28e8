"""Schemathesis hooks for scripts/fuzz-api: the subscriber-list routes take CSV and JSON lines
(http-api.md, Print subscribers), which schemathesis cannot send on its own. Their schema is a
string, sent as its UTF-8 bytes, like text/plain."""
import schemathesis


def _as_bytes(value):
    return value if isinstance(value, bytes) else str(value).encode("utf8")


@schemathesis.serializer("text/csv", aliases=["application/x-ndjson"])
class LinesSerializer:
    def as_requests(self, context, value):
        return {"data": _as_bytes(value)}

    def as_werkzeug(self, context, value):
        return {"data": _as_bytes(value)}
