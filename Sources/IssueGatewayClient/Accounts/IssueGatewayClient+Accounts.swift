import Foundation

extension IssueGatewayClient {
    /// The current session, or a new anonymous account's (`POST /v1/accounts`) when there is
    /// none: what an app calls at launch. Calling it again, or from several tasks at once, makes
    /// one account.
    ///
    /// - Parameter appAccountToken: the UUID StoreKit purchases will carry; a new one when not
    ///   given. Kept in the session (``Session/appAccountToken``).
    @discardableResult
    public func continueAnonymously(appAccountToken: UUID? = nil) async throws(IssueGatewayError) -> Session {
        let connection = connection
        return try await sessions.existingOrNew { () async throws(IssueGatewayError) -> Session in
            struct Body: Encodable { var appAccountToken: String }
            struct Answer: Decodable { var accountId: String; var accountToken: String }
            let token = appAccountToken ?? UUID()
            let answer = try await connection.decode(
                Answer.self, APICall("POST", "v1", "accounts").json(Body(appAccountToken: token.uuidString.lowercased())))
            return Session(accountId: answer.accountId, token: answer.accountToken, appAccountToken: token)
        }
    }

    /// Signs in with an OpenID Connect ID token (E31, E32): asks the gateway for a nonce, hands it
    /// to `idToken` to get a token that carries it, and makes a session for the identity's
    /// account. This device's anonymous account, if any, is merged into it or becomes it, so
    /// nothing bought before sign-in is lost.
    ///
    /// ```swift
    /// let result = try await gateway.signIn(with: .apple, device: device) { nonce in
    ///     try await appleIDToken(hashedNonce: nonce.sha256)   // ASAuthorizationAppleIDRequest
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - provider: the identity provider's id in the gateway's configuration.
    ///   - device: this device, for the session list.
    ///   - chooseSessionToReplace: called when the account is at its device limit (E34) with its
    ///     live sessions; return the id of the one to end, or `nil` to give up (the
    ///     `device_limit` error is then thrown). The same nonce and token are sent again.
    ///   - idToken: gets the provider's ID token for the nonce; what it throws is thrown as
    ///     ``IssueGatewayError/Code/idTokenUnavailable`` (the nonce is left unused and expires).
    @discardableResult
    public func signIn(with provider: IdentityProvider, device: DeviceInfo,
                       chooseSessionToReplace: (@Sendable ([SessionInfo]) async -> String?)? = nil,
                       idToken: @Sendable (SignInNonce) async throws -> String) async throws(IssueGatewayError) -> SignInResult {
        let nonce = try await connection.decode(SignInNonce.self, APICall("POST", "v1", "sessions", "nonces"))
        let token: String
        do { token = try await idToken(nonce) } catch {
            throw IssueGatewayError(code: .idTokenUnavailable, message: "no ID token was obtained: \(error)")
        }
        let body = SessionRequest(provider: provider.rawValue, idToken: token, nonce: nonce.nonce, device: device)
        return try await makeSession(body, chooseSessionToReplace: chooseSessionToReplace)
    }

    /// Puts this device on the account a link code names (E33): the reader typed the code another
    /// device made with ``createLinkCode()``. Spaces, hyphens and case do not matter. This device's
    /// anonymous account, if any, is merged into that account.
    @discardableResult
    public func redeemLinkCode(_ code: String, device: DeviceInfo,
                               chooseSessionToReplace: (@Sendable ([SessionInfo]) async -> String?)? = nil)
        async throws(IssueGatewayError) -> SignInResult {
        try await makeSession(SessionRequest(linkCode: code, device: device), chooseSessionToReplace: chooseSessionToReplace)
    }

    /// A link code for another device to join this account (E33), valid 15 minutes.
    public func createLinkCode() async throws(IssueGatewayError) -> LinkCode {
        try await account(LinkCode.self, "POST", "link-codes")
    }

    /// Ends this device's session (`DELETE /v1/sessions/current`) and forgets it. Purchases made
    /// anonymously can be restored on a new account later. Without a session it does nothing.
    public func signOut() async throws(IssueGatewayError) {
        guard let session = try await sessions.current() else { return }
        do {
            _ = try await connection.send(APICall("DELETE", "v1", "sessions", "current", bearer: session.token))
        } catch where error.code == .unauthorized {
            // Already ended elsewhere: the outcome is the same.
        }
        try await sessions.forget(ifStill: session)
        await lists.removeAll()
    }

    /// The account's live sessions, one per device (E34).
    public func sessions() async throws(IssueGatewayError) -> [SessionInfo] {
        struct Answer: Decodable { var sessions: [SessionInfo] }
        return try await account(Answer.self, "GET", "sessions").sessions
    }

    /// Ends one of the account's sessions (another device's, from ``sessions()``); ending this
    /// device's own is ``signOut()``.
    public func endSession(_ sessionId: String) async throws(IssueGatewayError) {
        let session = try await sessions.required()
        _ = try await accountCall("DELETE", ["sessions", sessionId])
        if session.sessionId == sessionId {
            try await sessions.forget(ifStill: session)
            await lists.removeAll()
        }
    }

    /// Deletes the account and everything the gateway holds about the reader (E35), then forgets
    /// the session. Store subscriptions keep billing: show the reader ``AccountDeletion/stillBilling``
    /// with their ``StillBilling/manageURL``.
    public func deleteAccount() async throws(IssueGatewayError) -> AccountDeletion {
        let session = try await sessions.required()
        let deletion = try await account(AccountDeletion.self, "DELETE")
        try await sessions.forget(ifStill: session)
        await lists.removeAll()
        return deletion
    }

    /// Everything the gateway holds about the account, as one JSON document (E35) to hand to the
    /// reader (save it as `account-{id}.json`).
    public func exportAccount() async throws(IssueGatewayError) -> Data {
        try await accountCall("GET", ["export"]).body
    }

    /// `POST /v1/sessions`, sent with this device's session as bearer so that an anonymous
    /// account is merged (E32); again with `replaceSessionId` when the reader chose a session to
    /// end at the device limit (the nonce stays unused by a `device_limit` answer).
    private func makeSession(_ body: SessionRequest, chooseSessionToReplace: (@Sendable ([SessionInfo]) async -> String?)?)
        async throws(IssueGatewayError) -> SignInResult {
        let previous = try await sessions.current()
        var body = body
        let answer: SessionAnswer
        while true {
            let call = APICall("POST", "v1", "sessions", bearer: previous?.token).json(body)
            do {
                answer = try await connection.decode(SessionAnswer.self, call)
                break
            } catch where error.code == .deviceLimit && body.replaceSessionId == nil {
                guard let chooseSessionToReplace, let chosen = await chooseSessionToReplace(error.liveSessions) else { throw error }
                body.replaceSessionId = chosen
            }
        }
        let mergedFrom = answer.mergedFrom ?? []
        // The appAccountToken goes with the account: kept when the sign-in reached or merged it.
        let keepsAccount = previous.map { $0.accountId == answer.accountId || mergedFrom.contains($0.accountId) } ?? false
        let session = Session(accountId: answer.accountId, token: answer.sessionToken, sessionId: answer.sessionId,
                              appAccountToken: keepsAccount ? previous?.appAccountToken : nil)
        try await sessions.replace(with: session)
        await lists.removeAll()
        return SignInResult(session: session, created: answer.created, mergedFrom: mergedFrom)
    }
}

/// What deleting an account answered (E35).
public struct AccountDeletion: Sendable, Hashable, Decodable {
    /// Store subscriptions that will renew: deletion does not cancel them.
    public var stillBilling: [StillBilling]
}

/// A store subscription that keeps billing after deletion, and where the reader cancels it.
public struct StillBilling: Sendable, Hashable, Decodable {
    /// `appStore`, `googlePlay` or `stripe`.
    public var store: String
    /// The catalog product id.
    public var productId: String
    /// The end of the paid period.
    public var expiresAt: Date?
    /// Where the reader manages the subscription; `nil` for Stripe (the publisher's own portal).
    public var manageURL: URL?

    enum CodingKeys: String, CodingKey { case store, productId, expiresAt, manageURL = "manageUrl" }
}
