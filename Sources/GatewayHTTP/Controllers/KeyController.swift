import Entitle
import GatewayCore
import GatewayCrypto
import GatewayStore
import HTTPServer
import Wire

/// `POST /v1/keys`, `DELETE /v1/keys/{keyId}` (http-api.md, Catalog): editor and service keys,
/// shown once and stored only as hashes.
package struct KeyController: APIController {
    private let access: Access
    private let store: any GatewayStore
    private let catalog: CatalogCache
    private let identifiers: Identifiers
    private let clock: any GatewayClock

    package init(access: Access, store: any GatewayStore, catalog: CatalogCache, identifiers: Identifiers,
                 clock: any GatewayClock) {
        self.access = access; self.store = store; self.catalog = catalog; self.identifiers = identifiers
        self.clock = clock
    }

    package func register(_ router: APIRouterBuilder) {
        router.add("POST", "/v1/keys", execution: .store, route: { [self] context throws(GatewayError) in
            try access.requireAdmin(&context)
            let body = try RequestBody(context.request)
            let roleText = try body.string("role")
            let publications = try body.optionalStrings("publications") ?? []
            let role: APIKey.Role
            switch roleText {
            case "editor":
                role = .editor
                guard !publications.isEmpty else { throw .invalid("an editor key needs publications") }
                let snapshot = catalog.state.snapshot
                for id in publications where snapshot.publication(id) == nil {
                    throw .invalid("publications names unknown publication \(id)")
                }
            case "service":
                role = .service
                guard publications.isEmpty else { throw .invalid("a service key acts for any account; it takes no publications") }
            default:
                throw .invalid("role must be editor or service")
            }
            let secret = try identifiers.newSecret()
            let key = APIKey(keyId: "key-" + (try identifiers.newIdentifier()), role: role, publications: Array(Set(publications)).sorted(),
                             secretHash: try identifiers.hash(secret), createdAt: clock.now())
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
        router.add("DELETE", "/v1/keys/{keyId}", execution: .store, route: { [self] context throws(GatewayError) in
            try access.requireAdmin(&context)
            let keyId = context.parameter("keyId")
            try stored { () throws(StoreError) in try store.deleteAPIKey(keyId: keyId) }
            // The key stops working at once: no cached resolution of it survives.
            access.authenticator.forget(keyId: keyId)
            return .json(200) { w in
                w.object { w in
                    w.field("keyId", keyId)
                    w.field("deleted", true)
                }
            }
        })
    }
}
