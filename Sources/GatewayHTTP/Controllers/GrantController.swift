import Entitle
import GatewayCore
import GatewayStore
import HTTPServer
import IssueCatalog
import Wire

/// Grants beyond the App Store (E21; http-api.md, Support, grants and Apple's current API): a
/// publisher's backend (service key) or admin gives an account access no store sold, and takes it
/// back. Giving is idempotent by `(source, externalId)`; other terms under the same pair are a 409,
/// not an edit in place (a changed interval is a new grant, the old one revoked).
package struct GrantController: APIController {
    private let access: Access
    private let grants: Grants
    private let catalog: CatalogCache
    private let identifiers: Identifiers
    private let clock: any GatewayClock

    package init(access: Access, grants: Grants, catalog: CatalogCache, identifiers: Identifiers, clock: any GatewayClock) {
        self.access = access; self.grants = grants; self.catalog = catalog; self.identifiers = identifiers; self.clock = clock
    }

    package static let grantTextLimit = 128
    package static let grantNoteLimit = 1000

    package func register(_ router: APIRouterBuilder) {
        router.add("POST", "/v1/accounts/{accountId}/grants", execution: .store, route: { [self] context throws(GatewayError) in
            let accountId = context.parameter("accountId")
            let actor = try access.requireServiceOrAdmin(&context).actor
            try access.requireLiveAccount(accountId)
            let grant = try grantBody(RequestBody(context.request), accountId: accountId)
            let (given, created) = try grants.give(grant, by: actor)
            return .json(created ? 201 : 200) { w in w.grant(given, withNote: true) }
        })
        router.add("DELETE", "/v1/accounts/{accountId}/grants/{grantId}", execution: .store, route: { [self] context throws(GatewayError) in
            let accountId = context.parameter("accountId")
            let actor = try access.requireServiceOrAdmin(&context).actor
            try access.requireLiveAccount(accountId)
            let grantId = context.parameter("grantId")
            let revoked = try grants.revoke(grantId, ofAccount: accountId, by: actor)
            return .json(200) { w in w.grant(revoked, withNote: true) }
        })
    }

    /// E21's body, checked before anything is stored: known publications, a non-empty interval.
    private func grantBody(_ body: RequestBody, accountId: String) throws(GatewayError) -> Grant {
        let source = try body.string("source"), externalId = try body.string("externalId")
        for (name, value) in [("source", source), ("externalId", externalId)] {
            guard !value.isEmpty, value.utf8.count <= Self.grantTextLimit else {
                throw .invalid("\(name) must be 1 to \(Self.grantTextLimit) bytes")
            }
        }
        guard let publications = try body.optionalStrings("publications"), !publications.isEmpty else {
            throw .invalid("publications must name at least one publication")
        }
        let snapshot = catalog.state.snapshot
        for publicationId in publications where snapshot.publication(publicationId) == nil {
            throw .invalid("no publication \(publicationId)")
        }
        let start = try body.instant("start")
        let end = try body.optionalInstant("end")
        if let end, end <= start { throw .invalid("end must be after start") }
        let note = try body.optionalString("note")
        if let note, note.utf8.count > Self.grantNoteLimit { throw .invalid("note is longer than \(Self.grantNoteLimit) bytes") }
        return Grant(grantId: "grant-" + (try identifiers.newIdentifier()), accountId: accountId, source: source, externalId: externalId,
                     publications: Array(Set(publications)).sorted(), start: start, end: end, note: note,
                     createdAt: clock.now())
    }
}
