import GatewayCore
import HTTPServer
import Wire

/// The window of a backfill route (`POST /v1/appstore/backfill`, `/v1/stripe/backfill`,
/// `/v1/googleplay/backfill`): `start` before `end`, `start` before now (nothing has happened
/// at or after now to replay: a window cut to `[now, now)` would be empty), and not before what
/// the store keeps; `end` is cut to now.
package struct BackfillWindow {
    package let start: Instant
    package let end: Instant

    /// `keptDays`: how far back the store keeps what is replayed; `kept` says so in the 400.
    package init(_ body: RequestBody, now: Instant, keptDays: Int64, kept: String) throws(GatewayError) {
        let start = try body.instant("start"), end = try body.instant("end")
        guard start < end else { throw .invalid("start must be before end") }
        guard start < now else { throw .invalid("start must be earlier than now") }
        guard start >= now.adding(seconds: -keptDays * 86_400) else { throw .invalid(kept) }
        self.start = start
        self.end = min(end, now)
    }

    /// The 202 every backfill answers: the window it replays and what the route adds (what it
    /// counted, or how it replays).
    package func accepted(_ more: (inout JSONWriter) -> Void) -> HTTPResponse {
        .json(202) { w in
            w.object { w in
                w.field("status", "accepted")
                w.field("start", start.rfc3339)
                w.field("end", end.rfc3339)
                more(&w)
            }
        }
    }
}
