import HTTPServer

extension HTTPResponse {
    /// A picture the gateway drew (the timeline, the subscribers chart): SVG that may load
    /// nothing (its CSP) and is never sniffed as anything else.
    package static func svg(_ text: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", "image/svg+xml; charset=utf-8"),
                                            ("Content-Security-Policy", "default-src 'none'"),
                                            ("X-Content-Type-Options", "nosniff")],
                     body: Array(text.utf8))
    }
}
