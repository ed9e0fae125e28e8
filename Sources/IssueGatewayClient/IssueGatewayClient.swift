import Foundation

/// The issue gateway's reader routes for an app: one account per reader, its session kept in a
/// ``SessionStore``, purchases posted as the stores hand them over, the issue list kept fresh with
/// entity tags, and downloads that renew their token once when the CDN says it expired.
///
/// ```swift
/// let gateway = IssueGatewayClient(baseURL: URL(string: "https://gateway.example.com")!,
///                                  sessionStore: KeychainSessionStore())
/// try await gateway.continueAnonymously()
/// let issues = try await gateway.issues(in: "monthly")
/// ```
///
/// Every call throws ``IssueGatewayError``. A call that needs an account throws
/// ``IssueGatewayError/Code/noSession`` until ``continueAnonymously(appAccountToken:)``, a sign-in or
/// a link code made one; a 401 on the session means the gateway ended it (sign-out elsewhere, a
/// merge, deletion), and the client then forgets it.
public final class IssueGatewayClient: Sendable {
    let connection: GatewayConnection
    let sessions: SessionKeeper
    let lists = ListCache()
    let pageSize: Int

    /// Makes a client for the gateway at `baseURL` (scheme, host, port; e.g.
    /// `https://gateway.example.com`).
    ///
    /// - Parameters:
    ///   - sessionStore: where the session secret lives between launches.
    ///   - transport: what carries requests; `URLSession` unless a test scripts one.
    ///   - retryPolicy: when idempotent calls are tried again after 429 or 503.
    ///   - pageSize: issues per page when following a list's pages (1–500).
    public init(baseURL: URL, sessionStore: any SessionStore = InMemorySessionStore(),
                transport: any HTTPTransport = URLSessionTransport(), retryPolicy: RetryPolicy = .standard,
                pageSize: Int = 100) {
        connection = GatewayConnection(baseURL: baseURL, transport: transport, retryPolicy: retryPolicy)
        sessions = SessionKeeper(store: sessionStore)
        self.pageSize = min(500, max(1, pageSize))
    }

    /// The session in use, loaded from the ``SessionStore`` on first use; `nil` before any.
    public func currentSession() async throws(IssueGatewayError) -> Session? {
        try await sessions.current()
    }

    /// Sends a call on the current account: `path` follows `/v1/accounts/{accountId}`. A 401
    /// means the gateway ended the session: it is forgotten before the error is thrown.
    func accountCall(_ method: String, _ path: [String], query: [URLQueryItem] = [], body: Data? = nil,
                     headers: [String: String] = [:], accepting: (Int) -> Bool = { (200..<300).contains($0) })
        async throws(IssueGatewayError) -> HTTPResponse {
        let session = try await sessions.required()
        var call = APICall(method, query: query, bearer: session.token)
        call.path = ["v1", "accounts", session.accountId] + path
        call.body = body
        call.headers = headers
        do {
            return try await connection.send(call, accepting: accepting)
        } catch where error.code == .unauthorized {
            try await sessions.forget(ifStill: session)
            throw error
        }
    }

    /// ``accountCall(_:_:query:body:headers:accepting:)`` with its JSON answer decoded.
    func account<T: Decodable>(_ type: T.Type, _ method: String, _ path: String..., body: (any Encodable)? = nil)
        async throws(IssueGatewayError) -> T {
        let data = body.flatMap { try? WireCoding.encoder().encode($0) }
        return try GatewayConnection.decode(type, from: try await accountCall(method, path, body: data).body)
    }
}

/// The session in use: loaded once from the store, replaced and forgotten through it, and made
/// at most once when several tasks ask for an anonymous account at the same time.
actor SessionKeeper {
    private let store: any SessionStore
    private var loaded = false
    private var session: Session?
    private var creating: Task<Session, any Error>?

    init(store: any SessionStore) { self.store = store }

    func current() async throws(IssueGatewayError) -> Session? {
        if !loaded {
            do { session = try await store.load() } catch { throw .sessionStore(error) }
            loaded = true
        }
        return session
    }

    func required() async throws(IssueGatewayError) -> Session {
        guard let session = try await current() else { throw .noSession() }
        return session
    }

    func replace(with new: Session) async throws(IssueGatewayError) {
        do { try await store.save(new) } catch { throw .sessionStore(error) }
        session = new
        loaded = true
    }

    func forget() async throws(IssueGatewayError) {
        do { try await store.clear() } catch { throw .sessionStore(error) }
        session = nil
        loaded = true
    }

    /// Forgets `ended` unless another session replaced it meanwhile.
    func forget(ifStill ended: Session) async throws(IssueGatewayError) {
        if session?.token == ended.token { try await forget() }
    }

    /// The current session, or the one `make` creates and this keeper saves; concurrent callers
    /// share one creation.
    func existingOrNew(_ make: @escaping @Sendable () async throws(IssueGatewayError) -> Session)
        async throws(IssueGatewayError) -> Session {
        if let session = try await current() { return session }
        let task = creating ?? Task { try await make() }
        creating = task
        defer { creating = nil }
        let made: Session
        do { made = try await task.value } catch { throw error as? IssueGatewayError ?? .network(error) }
        if let session, session.token == made.token { return session }
        try await replace(with: made)
        return made
    }
}
