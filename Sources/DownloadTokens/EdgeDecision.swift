/// What `GET /v1/edge/verify` answers (http-api.md, Edge).
public enum EdgeDecision: Equatable, Sendable {
    /// 204: the token allows this request.
    case allow(VerifiedDownloadToken)
    /// 401: no token, or one that is malformed, badly signed, under an unknown key, or expired.
    case unauthorized(TokenFailure)
    /// 403: a genuine, current token for another path, or a method other than GET/HEAD.
    case forbidden(TokenFailure)

    init(_ failure: TokenFailure) {
        self = failure.isForbidden ? .forbidden(failure) : .unauthorized(failure)
    }

    public var httpStatus: Int {
        switch self {
        case .allow: return 204
        case .unauthorized: return 401
        case .forbidden: return 403
        }
    }

    public var failure: TokenFailure? {
        switch self {
        case .allow: return nil
        case .unauthorized(let f), .forbidden(let f): return f
        }
    }
}
