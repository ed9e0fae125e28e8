/// Body admission: how large a body the matched route takes. The server's parser applies the
/// limit as bytes arrive (an announced length at once, chunks as they come); a whole body in hand
/// is checked with `refusal(ofBody:_:)`. Either way the answer is the router's 413.
extension RequestPipeline {
    /// The route's limit, else the server's.
    public func bodyLimit(_ match: Router.Match) -> Int {
        router.bodyLimit(match, default: maxBodyBytes)
    }

    /// A body of `byteCount` bytes over the limit: 413 (RFC 9110 §15.5.14); nil admits it.
    public func refusal(ofBody byteCount: Int, _ match: Router.Match) -> HTTPResponse? {
        let limit = bodyLimit(match)
        guard byteCount > limit else { return nil }
        return router.errors(.contentTooLarge(limit: limit))
    }
}
