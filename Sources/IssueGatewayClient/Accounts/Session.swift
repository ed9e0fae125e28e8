import Foundation

/// This device's session: the account it acts for and the bearer secret that proves it
/// (readers.md: every account token is a session).
///
/// The secret is what a ``SessionStore`` must keep safe; `description` never shows it.
public struct Session: Sendable, Codable, Hashable, CustomStringConvertible {
    /// The account's id.
    public var accountId: String
    /// The bearer secret (`accountToken` or `sessionToken`), shown by the gateway only once.
    public var token: String
    /// The session's id, when the gateway named it (sign-in and link codes do; `POST /v1/accounts`
    /// does not).
    public var sessionId: String?
    /// The UUID StoreKit purchases carry as `appAccountToken` (and Play as
    /// `obfuscatedAccountId`), so that the store's notifications reach this account. Known when
    /// this client made the account, or when a sign-in kept the account that had it.
    public var appAccountToken: UUID?

    /// Makes a session.
    public init(accountId: String, token: String, sessionId: String? = nil, appAccountToken: UUID? = nil) {
        self.accountId = accountId
        self.token = token
        self.sessionId = sessionId
        self.appAccountToken = appAccountToken
    }

    /// The account and session ids; never the secret.
    public var description: String {
        "Session(account: \(accountId), session: \(sessionId ?? "first"))"
    }
}

/// Where the session lives between launches. The default, ``InMemorySessionStore``, forgets it
/// when the app ends; an app keeps it in the Keychain (docs/reader-apps.md shows one).
public protocol SessionStore: Sendable {
    /// The kept session, or `nil`.
    func load() async throws -> Session?
    /// Keeps `session`, replacing any other.
    func save(_ session: Session) async throws
    /// Forgets the session (sign-out, deletion, or a session the gateway ended).
    func clear() async throws
}

/// A ``SessionStore`` in memory: the session lasts as long as the store.
public actor InMemorySessionStore: SessionStore {
    private var session: Session?

    /// Makes a store, holding `session` if given.
    public init(_ session: Session? = nil) { self.session = session }

    /// The kept session.
    public func load() -> Session? { session }
    /// Keeps the session.
    public func save(_ session: Session) { self.session = session }
    /// Forgets the session.
    public func clear() { session = nil }
}
