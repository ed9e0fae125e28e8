import Wire

extension HTTPResponse {
    /// The response with `Retry-After` when its status needs one: none gets `fallbackSeconds`; a
    /// value already there is clamped into `RetryAfter.range` when `clamping` (the gateway's own
    /// answers), else kept as the handler wrote it (a simulator playing Apple sends Apple's
    /// milliseconds). Other statuses are untouched.
    public func withRetryAfter(fallbackSeconds: Int = RetryAfter.fallbackSeconds, clamping: Bool = true) -> HTTPResponse {
        guard RetryAfter.isRequired(for: status) else { return self }
        var response = self
        if let index = headers.firstIndex(where: { $0.0.equalsIgnoringASCIICase("Retry-After") }) {
            guard clamping else { return self }
            let given = Int(headers[index].1) ?? fallbackSeconds
            response.headers[index] = ("Retry-After", String(RetryAfter.clamped(given)))
        } else {
            response.headers.append(("Retry-After", String(RetryAfter.clamped(fallbackSeconds))))
        }
        return response
    }
}
