/// An answer as it leaves (`RequestPipeline.finish`): its header fields completed and checked,
/// and which of its content goes on the wire.
public struct FinishedResponse: Sendable {
    /// Status, header fields and content; the server adds Content-Length, Date and Connection.
    public let response: HTTPResponse
    /// The status allows content, so Content-Length is announced: every status but 1xx, 204 and
    /// 304 (RFC 9110 §15.2, §15.3.5, §15.4.5).
    public let hasContent: Bool
    /// The content's bytes follow the head: not for HEAD, whose Content-Length is still the one
    /// GET would announce (RFC 9110 §9.3.2).
    public let sendsBody: Bool

    /// The answer as a client receives it: without the bytes that are not sent.
    public var received: HTTPResponse {
        guard !sendsBody else { return response }
        var received = response
        received.body = []
        return received
    }
}

extension RequestPipeline {
    /// The answer's last step before it is written, whoever made it (handler, fast path, head
    /// check, the server itself); `headOnly` for a HEAD request.
    public func finish(_ response: HTTPResponse, headOnly: Bool) -> FinishedResponse {
        Self.finish(response, headOnly: headOnly, errors: router.errors)
    }

    /// First every 429 and 503 gets its `Retry-After` (RFC 9110 §10.2.3; one already written is
    /// its author's), then the header fields are checked: a name that is not a token or a value
    /// with CR, LF or another control character could split the response (RFC 9110 §5.5), so such
    /// an answer is replaced by `errors`' 500, finished the same way. Should that one be unsendable
    /// too, the plain-text renderer's is sent, which always is.
    static func finish(_ response: HTTPResponse, headOnly: Bool, errors: HTTPErrorRenderer) -> FinishedResponse {
        let response = response.withRetryAfter(clamping: false)
        guard response.isSendable else {
            return finish(errors(.invalidResponse), headOnly: headOnly, errors: HTTPServerError.plainText)
        }
        let hasContent = !HTTPStatus.forbidsBody(response.status)
        return FinishedResponse(response: response, hasContent: hasContent, sendsBody: hasContent && !headOnly)
    }
}

extension HTTPResponse {
    /// Every header name is a token and no value holds CR, LF or another control character: sent
    /// otherwise, a value could split the response (RFC 9110 §5.5). The server answers 500 instead.
    public var isSendable: Bool {
        headers.allSatisfy { HTTPSyntax.isToken($0.0) && HTTPSyntax.isValidFieldValue($0.1) }
    }
}
