/// Why a download token or the request it came with was refused: one case per check of
/// tokens.md "Verification", for logs and metrics (`rawValue` is the metric label). Clients only
/// ever see the status class.
public enum TokenFailure: String, Error, Equatable, Sendable, CaseIterable {
    // Finding the token (http-api.md, Edge).
    /// No `Authorization: Bearer` credential and no `token` query parameter.
    case missingToken
    /// More than one `token` query parameter: which one was meant is not guessed.
    case ambiguousToken
    /// The `X-Original-URI` is longer than `TokenPolicy.maxRequestTargetBytes`.
    case requestTooLong
    /// The query string holds a malformed percent escape where the token was looked for.
    case queryEncoding

    // Step 1.
    case tooLong, segments, base64
    // Step 2.
    case headerJSON, duplicateHeaderName, algorithm, forbiddenHeader
    /// `typ`, when present, is not `JWT` (RFC 8725 §3.11: no confusion with other token types).
    case tokenType
    /// `kid` absent or not a string.
    case missingKid
    case unknownKid
    // Step 3.
    case signature
    // Step 4.
    case claimsJSON, duplicateClaimName, audience, claimTypes, notYetValid, expired, lifetimeTooLong
    /// `iat` later than now plus the leeway.
    case issuedInFuture
    // Step 5: the token is genuine and current, the request is what is not allowed.
    /// `X-Original-URI` absent: there is no path to authorise.
    case pathMissing
    /// Not an origin-form path, a bad percent escape, or after decoding a `..` segment, `//`,
    /// NUL or backslash.
    case pathRefused
    /// A well-formed path the token does not list (another issue's file).
    case pathNotGranted
    /// A method other than GET or HEAD.
    case method

    /// 401 for anything that leaves the bearer unauthenticated; 403 when a genuine, current
    /// token is presented for a request it does not cover (http-api.md, Edge).
    public var isForbidden: Bool {
        switch self {
        case .pathMissing, .pathRefused, .pathNotGranted, .method: return true
        default: return false
        }
    }

    public var httpStatus: Int { isForbidden ? 403 : 401 }
}
