import GatewayCore
import GatewayStore
import HTTPServer
import Wire

/// Readers' sessions (readers.md): signing in (`POST /v1/sessions` with an ID token, E31/E32, or
/// a link code, E33), signing out, an account's sessions (E34), link codes and identities.
package struct SessionController: APIController {
    /// readers.md, Decisions: the device's fields as the app sends them, each at most this long.
    package static let deviceFieldLimit = 200
    /// An ID token, nonce, provider id or code longer than this is refused before any check.
    package static let proofFieldLimit = 16_384

    private let access: Access
    private let readers: ReaderServices
    private let requesters: Requesters

    package init(access: Access, readers: ReaderServices, requesters: Requesters) {
        self.access = access; self.readers = readers; self.requesters = requesters
    }

    package func register(_ router: APIRouterBuilder) {
        // Anyone: a reader signing in; a bearer, when sent, is the device's session so far (E32).
        router.add("POST", "/v1/sessions", execution: .store, route: { [self] context throws(GatewayError) in
            let body = try RequestBody(context.request)
            let request = SignIn.Request(device: try device(body), replaceSessionId: try body.optionalString("replaceSessionId"),
                                         bearer: try context.optionalSession(), clientAddress: clientAddress(context.request))
            let result: SignIn.Result
            if let code = try body.optionalString("linkCode") {
                guard try body.optionalString("idToken") == nil else { throw .invalid("send linkCode or idToken, not both") }
                result = try readers.signIn.withLinkCode(try bounded(code, "linkCode"), request)
            } else {
                result = try readers.signIn.withIDToken(provider: try bounded(body.string("provider"), "provider"),
                                                        idToken: try bounded(body.string("idToken"), "idToken"),
                                                        nonce: try bounded(body.string("nonce"), "nonce"), request)
            }
            return .json(201) { w in
                w.object { w in
                    w.field("accountId", result.accountId)
                    w.field("sessionId", result.sessionId)
                    w.field("sessionToken", result.sessionToken)
                    w.field("created", result.created)
                    w.key("mergedFrom")
                    w.array { w in for id in result.mergedFrom { w.string(id) } }
                }
            }
        })
        // Sign-out: the session itself only.
        router.add("DELETE", "/v1/sessions/current", execution: .store, route: { [self] context throws(GatewayError) in
            guard case .account(let accountId) = try context.principal(), let sessionId = try context.sessionId() else {
                throw .forbidden("only a session may sign itself out")
            }
            let ended = try readers.sessions.end(sessionId, of: accountId)
            return .json(200, SessionJSON.value(ended, current: sessionId).serializedBytes)
        })
        router.add("GET", "/v1/accounts/{accountId}/sessions", execution: .store, route: { [self] context throws(GatewayError) in
            let accountId = try access.requireAccount(&context).id
            let live = try readers.sessions.live(of: accountId)
            return .json(200, SessionJSON.list(live, current: try context.sessionId()).serializedBytes)
        })
        router.add("DELETE", "/v1/accounts/{accountId}/sessions/{sessionId}", execution: .store,
                   route: { [self] context throws(GatewayError) in
            let accountId = try access.requireAccount(&context).id
            let ended = try readers.sessions.end(context.parameter("sessionId"), of: accountId)
            return .json(200, SessionJSON.value(ended, current: try context.sessionId()).serializedBytes)
        })
        router.add("POST", "/v1/accounts/{accountId}/link-codes", execution: .store, route: { [self] context throws(GatewayError) in
            let accountId = try access.requireAccount(&context).id
            let (code, expiresAt) = try readers.linkCodes.create(for: accountId)
            return .json(201) { w in
                w.object { w in
                    w.field("code", code)
                    w.field("expiresAt", expiresAt.rfc3339)
                }
            }
        })
        router.add("POST", "/v1/accounts/{accountId}/identities", execution: .store, route: { [self] context throws(GatewayError) in
            let accountId = try access.requireOwnSession(&context).id
            let body = try RequestBody(context.request)
            let identity = try readers.identities.add(to: accountId, provider: try bounded(body.string("provider"), "provider"),
                                                      idToken: try bounded(body.string("idToken"), "idToken"),
                                                      nonce: try bounded(body.string("nonce"), "nonce"),
                                                      clientAddress: clientAddress(context.request))
            return .json(201) { w in w.identityKey(identity.key) }
        })
        router.add("DELETE", "/v1/accounts/{accountId}/identities/{provider}", execution: .store,
                   route: { [self] context throws(GatewayError) in
            let accountId = try access.requireOwnSession(&context).id
            let removed = try readers.identities.remove(provider: context.parameter("provider"), from: accountId)
            return .json(200) { w in w.identityKey(removed.key) }
        })
    }

    /// `device`: `{"id", "name", "platform"}`, `id` required (the app's UUID it keeps).
    private func device(_ body: RequestBody) throws(GatewayError) -> SessionDevice {
        guard let device = try body.optionalObject("device") else { throw .invalid("device is required: {\"id\", \"name\", \"platform\"}") }
        let id = try device.string("id")
        guard !id.isEmpty else { throw .invalid("device.id must not be empty") }
        let fields = [("id", Optional(id)), ("name", try device.optionalString("name")), ("platform", try device.optionalString("platform"))]
        for (name, value) in fields where (value?.utf8.count ?? 0) > Self.deviceFieldLimit {
            throw .invalid("device.\(name) is longer than \(Self.deviceFieldLimit) bytes")
        }
        return SessionDevice(id: id, name: fields[1].1, platform: fields[2].1)
    }

    private func bounded(_ value: String, _ name: String) throws(GatewayError) -> String {
        guard !value.isEmpty, value.utf8.count <= Self.proofFieldLimit else {
            throw .invalid("\(name) must be 1 to \(Self.proofFieldLimit) bytes")
        }
        return value
    }

    /// E31/E33: failures are counted per client address as E30 finds it.
    private func clientAddress(_ request: HTTPRequest) -> String? {
        requesters.address(request).map(IPAddress.text)
    }
}

extension JSONWriter {
    /// `{"provider", "subject"}`.
    package mutating func identityKey(_ key: IdentityKey) {
        object { w in
            w.field("provider", key.provider)
            w.field("subject", key.subject)
        }
    }
}
