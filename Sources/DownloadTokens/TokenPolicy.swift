import Wire

/// The limits and fixed values of download tokens (tokens.md), in one place.
public struct TokenPolicy: Equatable, Sendable {
    /// tokens.md step 1: "At most 4 KiB".
    public var maxTokenBytes: Int
    /// tokens.md step 4: clock skew tolerated between the gateway and an edge.
    public var leewaySeconds: Int64
    /// tokens.md step 4: "`exp - iat` is at most the longest lifetime the gateway allows".
    public var maxLifetimeSeconds: Int64
    /// tokens.md, Claims: `aud` is `"edge"`.
    public var audience: String
    /// The longest `X-Original-URI` the edge check reads; longer requests are refused unread.
    public var maxRequestTargetBytes: Int
    /// Header and claims are small objects; anything deeper or larger is not ours.
    public var segmentJSONLimits: JSONLimits

    public init(maxTokenBytes: Int, leewaySeconds: Int64, maxLifetimeSeconds: Int64, audience: String,
                maxRequestTargetBytes: Int, segmentJSONLimits: JSONLimits) {
        self.maxTokenBytes = maxTokenBytes
        self.leewaySeconds = leewaySeconds
        self.maxLifetimeSeconds = maxLifetimeSeconds
        self.audience = audience
        self.maxRequestTargetBytes = maxRequestTargetBytes
        self.segmentJSONLimits = segmentJSONLimits
    }

    public static let standard = TokenPolicy(maxTokenBytes: 4096, leewaySeconds: 30, maxLifetimeSeconds: 3600,
                                             audience: "edge", maxRequestTargetBytes: 8192,
                                             segmentJSONLimits: JSONLimits(maxBytes: 4096, maxDepth: 8))
}
