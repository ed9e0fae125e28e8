/// The time limits an ID token's claims are held to (OpenID Connect Core §3.1.3.7 steps 9–10):
/// the clock skew allowed on every instant, how old `iat` may be, and whether `exp` is required.
public struct IDTokenChecks: Sendable, Equatable {
    public var clockSkewSeconds: Int64
    /// `iat` at most this long before now.
    public var maximumAgeSeconds: Int64
    /// A sign-in's token must carry `exp`; Sign in with Apple's notifications need not.
    public var expirationRequired: Bool
    /// A sign-in's token names its subject; a notification names it inside its `events`.
    public var subjectRequired: Bool

    public init(clockSkewSeconds: Int64 = 60, maximumAgeSeconds: Int64, expirationRequired: Bool, subjectRequired: Bool) {
        self.clockSkewSeconds = clockSkewSeconds; self.maximumAgeSeconds = maximumAgeSeconds
        self.expirationRequired = expirationRequired; self.subjectRequired = subjectRequired
    }

    /// readers.md E31 step 4: `exp` after now, `iat` at most 10 minutes old, 60 s of skew.
    public static let signIn = IDTokenChecks(maximumAgeSeconds: 600, expirationRequired: true, subjectRequired: true)
    /// readers.md, Sign in with Apple's server notifications: `iat` within 1 day; `exp` when present.
    public static let serverNotification = IDTokenChecks(maximumAgeSeconds: 86_400, expirationRequired: false,
                                                         subjectRequired: false)
}
