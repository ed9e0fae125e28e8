import GatewayCore
import HTTPServer

/// gzip for JSON answers over 1 KiB when the request accepts it (http-api.md, "Reader lists are
/// cheap to poll"). Smaller answers go out as they are: the gzip header and trailer and the
/// compression time would cost more than they save.
package enum JSONCoding {
    /// Bodies of more than this many bytes are compressed (http-api.md: "over 1 KiB").
    package static let minimumBytes = 1024

    package static let vary = ("Vary", "Accept-Encoding")

    /// Whether the answer's coding depends on `Accept-Encoding`: a JSON body over 1 KiB.
    package static func isNegotiated(_ response: HTTPResponse) -> Bool {
        response.body.count > minimumBytes && response.header("Content-Type") == "application/json"
    }

    /// The answer in the coding the request accepts, with `Vary: Accept-Encoding` (RFC 9110
    /// §12.5.5) whenever the coding was chosen by it. Answers that chose their coding themselves
    /// (a `Vary` already present: the cached lists) and answers with no body are left alone.
    package static func encode(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        guard isNegotiated(response), response.header("Vary") == nil, response.header("Content-Encoding") == nil else {
            return response
        }
        return precoded(response, gzip: AcceptEncoding.allowsGzip(request))
    }

    /// A negotiated JSON answer in the identity or gzip coding, with `Vary`, so that a route whose
    /// body never changes can code it once, before serving (`encode` leaves such answers alone).
    package static func precoded(_ response: HTTPResponse, gzip: Bool) -> HTTPResponse {
        guard isNegotiated(response) else { return response }
        var coded = response
        coded.headers.append(vary)
        guard gzip, let gzipped = Gzip.compress(response.body) else { return coded }
        coded.body = gzipped
        coded.headers.append(("Content-Encoding", "gzip"))
        return coded
    }
}
