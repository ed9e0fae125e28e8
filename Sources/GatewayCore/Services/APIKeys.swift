import GatewayStore

/// Editor and service keys (http-api.md, Catalog): made by the admin, shown once and stored only
/// as hashes; a deleted key stops working at once.
package struct APIKeys: Sendable {
    private let store: any GatewayStore
    private let catalog: CatalogCache
    private let authenticator: Authenticator
    private let identifiers: Identifiers
    private let clock: any GatewayClock

    package init(store: any GatewayStore, catalog: CatalogCache, authenticator: Authenticator, identifiers: Identifiers,
                 clock: any GatewayClock) {
        self.store = store; self.catalog = catalog; self.authenticator = authenticator
        self.identifiers = identifiers; self.clock = clock
    }

    /// A new key and its secret in clear. An editor key edits the publications it names, which
    /// must exist; a service key acts for any account and names none. The admin key is the
    /// configured one, never made here; `role` nil: a role the caller named that is none.
    package func create(role: APIKey.Role?, publications: [String]) throws(GatewayError) -> (key: APIKey, secret: String) {
        let made: APIKey.Role
        switch role {
        case .editor?:
            made = .editor
            guard !publications.isEmpty else { throw .invalid("an editor key needs publications") }
            let snapshot = catalog.state.snapshot
            for id in publications where snapshot.publication(id) == nil {
                throw .invalid("publications names unknown publication \(id)")
            }
        case .service?:
            made = .service
            guard publications.isEmpty else { throw .invalid("a service key acts for any account; it takes no publications") }
        case .admin?, nil:
            throw .invalid("role must be editor or service")
        }
        let secret = try identifiers.newSecret()
        let key = APIKey(keyId: "key-" + (try identifiers.newIdentifier()), role: made, publications: Array(Set(publications)).sorted(),
                         secretHash: try identifiers.hash(secret), createdAt: clock.now())
        guard try stored({ () throws(StoreError) in try store.createAPIKey(key) }) else {
            throw .conflict("key \(key.keyId) or its secret is taken")
        }
        return (key, secret)
    }

    /// Deletes the key; `notFound` when there is none. No cached resolution of it survives.
    package func delete(_ keyId: String) throws(GatewayError) {
        guard try stored({ () throws(StoreError) in try store.deleteAPIKey(keyId: keyId) }) else {
            throw .notFound("key \(keyId)")
        }
        authenticator.forget(keyId: keyId)
    }
}
