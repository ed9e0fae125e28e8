import GatewayStore
import Wire

/// E34: where a new session goes on an account, decided inside the unit of work that makes it.
/// The sessions it replaces (the one `replaceSessionId` names, the same device's, the bearer's
/// own) end and free their places; at the device limit it is refused with the live sessions.
package enum SessionPlacement: Equatable, Sendable {
    /// The new session may be made; these live sessions end with it.
    case placed(ending: [String])
    /// The account is at its limit: these are its live sessions; nothing may change.
    case atLimit([Session])

    /// `replace`: the body's `replaceSessionId` (naming no live session of the account, it is
    /// as if absent); `bearerSession`: the requester's own session, replaced when on this account.
    package static func decide(live: [Session], device: SessionDevice, replace: String?, bearerSession: String?,
                               policy: SessionPolicy) -> SessionPlacement {
        var ending: Set<String> = []
        for session in live {
            if session.id == replace || session.id == bearerSession { ending.insert(session.id) }
            if let deviceId = device.id, session.device.id == deviceId { ending.insert(session.id) }
        }
        if policy.deviceLimit > 0, live.count - ending.count >= policy.deviceLimit { return .atLimit(live) }
        return .placed(ending: ending.sorted())
    }
}

/// A new session's secret and id, made before the unit of work (randomness and hashing are not
/// the store's), shown to the reader once.
package struct NewSessionSecret: Sendable {
    package let sessionId: String
    package let token: String
    package let tokenHash: String

    package init(_ identifiers: Identifiers) throws(GatewayError) {
        sessionId = "sess-" + (try identifiers.newIdentifier())
        token = try identifiers.newSecret()
        tokenHash = try identifiers.hash(token)
    }

    package func session(on accountId: String, device: SessionDevice, identity: IdentityKey?, at now: Instant) -> Session {
        Session(id: sessionId, accountId: accountId, tokenHash: tokenHash, device: device, identity: identity, createdAt: now)
    }
}
