import Entitle
import GatewayCrypto
import GatewayStore
import HTTPServer
import Wire

/// `POST /v1/keys`, `DELETE /v1/keys/{keyId}` (http-api.md, Catalog): editor and service keys,
/// shown once and stored only as hashes.
extension Gateway {
    func registerKeyRoutes(_ router: APIRouterBuilder) {
        router.add("POST", "/v1/keys", execution: .store, handler: apiHandler { [self] request throws(APIError) in
            try requireAdmin(request)
            let body = try RequestBody(request)
            let roleText = try body.string("role")
            let publications = try body.optionalStrings("publications") ?? []
            let role: APIKey.Role
            switch roleText {
            case "editor":
                role = .editor
                guard !publications.isEmpty else { throw .badRequest("an editor key needs publications") }
                let snapshot = catalog.state.snapshot
                for id in publications where snapshot.publication(id) == nil {
                    throw .badRequest("publications names unknown publication \(id)")
                }
            case "service":
                role = .service
                guard publications.isEmpty else { throw .badRequest("a service key acts for any account; it takes no publications") }
            default:
                throw .badRequest("role must be editor or service")
            }
            let secret = try newSecret()
            let key = APIKey(keyId: "key-" + (try newIdentifier()), role: role, publications: Array(Set(publications)).sorted(),
                             secretHash: try hash(secret), createdAt: clock.now())
            try stored { () throws(StoreError) in try store.createAPIKey(key) }
            return .json(201) { w in
                w.object { w in
                    w.field("keyId", key.keyId)
                    w.field("role", key.role.rawValue)
                    w.key("publications")
                    w.array { w in for p in key.publications { w.string(p) } }
                    w.field("key", secret)
                }
            }
        })
        router.add("DELETE", "/v1/keys/{keyId}", execution: .store, handler: apiHandler { [self] request throws(APIError) in
            try requireAdmin(request)
            let keyId = request.parameter("keyId")
            try stored { () throws(StoreError) in try store.deleteAPIKey(keyId: keyId) }
            // The key stops working at once: no cached resolution of it survives.
            authenticator.forget(keyId: keyId)
            return .json(200) { w in
                w.object { w in
                    w.field("keyId", keyId)
                    w.field("deleted", true)
                }
            }
        })
    }

    /// A bearer secret: 256 random bits, base64url.
    func newSecret() throws(APIError) -> String {
        do { return try SecretGenerator.generate(using: random) } catch { throw .internalError("no randomness available") }
    }

    /// An identifier for keys and accounts: 96 random bits in lower-case hex (fits the id rule).
    func newIdentifier() throws(APIError) -> String {
        do { return Hex.encode(try random.randomBytes(count: 12)) } catch { throw .internalError("no randomness available") }
    }

    func hash(_ secret: String) throws(APIError) -> String {
        do { return try SecretHash.hex(of: secret) } catch { throw .internalError("hashing failed") }
    }
}
