import GatewayCore
import HTTPServer

/// Issue and catalog lists answered under a strong entity tag (http-api.md, "Reader lists are
/// cheap to poll"): 304 without rendering when the client holds the current list, the kept gzip
/// body without rendering when it accepts gzip and the list was compressed before.
package struct ListResponder: Sendable {
    /// gzip-coded issue and catalog lists by entity tag (http-api.md, cheap polling).
    package let compressed: CompressedBodies

    package init(compressed: CompressedBodies) { self.compressed = compressed }

    /// What a list request comes to before any compression.
    package enum ListAnswer {
        case ready(HTTPResponse)
        /// A rendered body to gzip (over 1 KiB, gzip accepted, not compressed before).
        case compress([UInt8])
    }

    /// The answer for a list whose content `tag` names; `render` writes the JSON body and runs only
    /// when one is needed. Compressing is left to the caller, so that a fast path on an event
    /// loop can hand it to its pool instead (`listPlan`).
    package func listAnswer(_ request: HTTPRequest, tag: EntityTag, render: () -> [UInt8]) -> ListAnswer {
        // RFC 9110 §15.4.5: a 304 carries the ETag and Vary the 200 would have.
        if let held = EntityTag.noneMatch(request, current: [tag, tag.gzipped]) {
            return .ready(HTTPResponse(status: 304, headers: [("ETag", held.field), JSONCoding.vary]))
        }
        let gzip = AcceptEncoding.allowsGzip(request)
        if gzip, let body = compressed.body(for: tag.gzipped) { return .ready(Self.gzipped(body, tag)) }
        let body = render()
        guard gzip, body.count > JSONCoding.minimumBytes else { return .ready(Self.identity(body, tag)) }
        return .compress(body)
    }

    /// `listAnswer`, compressing (and keeping the compressed body) when it must.
    package func listResponse(_ request: HTTPRequest, tag: EntityTag, render: () -> [UInt8]) -> HTTPResponse {
        switch listAnswer(request, tag: tag, render: render) {
        case .ready(let response): return response
        case .compress(let body): return compress(body, tag)
        }
    }

    /// `listAnswer` on an event loop: the answer, or the body rendered here with its compression
    /// left to the route's pool (which then renders nothing again).
    package func listPlan(_ request: HTTPRequest, tag: EntityTag, render: () -> [UInt8]) -> FastPathPlan {
        switch listAnswer(request, tag: tag, render: render) {
        case .ready(let response): return .answer(response)
        case .compress(let body): return .finishOnPool { [self] in compress(body, tag) }
        }
    }

    /// The body gzip-coded, and kept under its tag for the next request.
    private func compress(_ body: [UInt8], _ tag: EntityTag) -> HTTPResponse {
        guard let coded = Gzip.compress(body) else { return Self.identity(body, tag) }
        compressed.keep(coded, for: tag.gzipped)
        return Self.gzipped(coded, tag)
    }

    private static func identity(_ body: [UInt8], _ tag: EntityTag) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", "application/json"), ("ETag", tag.field), JSONCoding.vary],
                     body: body)
    }

    private static func gzipped(_ body: [UInt8], _ tag: EntityTag) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip"),
                                            ("ETag", tag.gzipped.field), JSONCoding.vary], body: body)
    }
}
