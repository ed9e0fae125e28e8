import DownloadTokens
import Entitle
import GatewayCore
import GatewayStore
import HTTPServer
import IssueCatalog
import Wire

/// Institutions (E30; http-api.md, Print subscribers and institutions): the admin's routes, and
/// the routes that serve readers without an account from an address an institution covers. The
/// institution enters the rules as a grant over its interval (`Institutions.grant`), so `Entitle`
/// knows nothing of addresses; its reason is answered as `institution`.
package struct InstitutionController: APIController {
    private let access: Access
    private let institutions: Institutions
    private let entitlements: EntitlementsNow
    private let requesters: Requesters
    private let tokens: TokenController
    private let catalog: CatalogCache
    private let identifiers: Identifiers
    private let clock: any GatewayClock

    package init(access: Access, institutions: Institutions, entitlements: EntitlementsNow, requesters: Requesters,
                 tokens: TokenController, catalog: CatalogCache, identifiers: Identifiers, clock: any GatewayClock) {
        self.access = access; self.institutions = institutions; self.entitlements = entitlements; self.requesters = requesters
        self.tokens = tokens; self.catalog = catalog; self.identifiers = identifiers; self.clock = clock
    }

    package static let nameLimit = 200
    package static let networkLimit = 1000

    package func register(_ router: APIRouterBuilder) {
        router.add("POST", "/v1/institutions", execution: .store, route: { [self] context throws(GatewayError) in
            try access.requireAdmin(&context)
            let institution = try institutionBody(RequestBody(context.request), id: "inst-" + (try identifiers.newIdentifier()),
                                                  createdAt: clock.now())
            try institutions.save(institution)
            return .json(201) { w in w.institution(institution) }
        })
        router.add("GET", "/v1/institutions", execution: .store, route: { [self] context throws(GatewayError) in
            try access.requireAdmin(&context)
            let all = try institutions.all()
            return .json(200) { w in
                w.object { w in
                    w.key("institutions")
                    w.array { w in for institution in all { w.institution(institution) } }
                }
            }
        })
        let one = "/v1/institutions/{institutionId}"
        router.add("GET", one, execution: .store, route: { [self] context throws(GatewayError) in
            try access.requireAdmin(&context)
            let institution = try existing(context.parameter("institutionId"))
            return .json(200) { w in w.institution(institution) }
        })
        router.add("PUT", one, execution: .store, route: { [self] context throws(GatewayError) in
            try access.requireAdmin(&context)
            let old = try existing(context.parameter("institutionId"))
            let institution = try institutionBody(RequestBody(context.request), id: old.institutionId, createdAt: old.createdAt)
            // Deleted since `existing` read it: 404, not the institution brought back.
            try institutions.save(institution, replacing: true)
            return .json(200) { w in w.institution(institution) }
        })
        router.add("DELETE", one, execution: .store, route: { [self] context throws(GatewayError) in
            try access.requireAdmin(&context)
            let old = try existing(context.parameter("institutionId"))
            guard try institutions.delete(old.institutionId) else { throw .notFound("no institution \(old.institutionId)") }
            return .json(200) { w in w.institution(old) }
        })
        router.add("GET", "/v1/institution/issues", execution: .storeReads, route: { [self] context throws(GatewayError) in
            let institution = try coveringInstitution(context.request)
            let query = context.query
            let key = try IssueListKey(query), page = try ListPage(query)
            let state = catalog.state
            if let publicationId = key.publicationId, state.snapshot.publication(publicationId) == nil {
                throw .notFound("no publication \(publicationId)")
            }
            let answer = entitlements.entitlements(of: institution, in: state)
            let body = IssueListRendering.body(answer.issues(publicationId: key.publicationId, entitledOnly: key.entitledOnly),
                                               page, state, reasons: ReasonMembers.rendered) { w in
                w.key("institution")
                w.object { w in
                    w.field("institutionId", institution.institutionId)
                    w.field("name", institution.name)
                }
            }
            return .json(200, body)
        })
        router.add("POST", "/v1/institution/publications/{publicationId}/issues/{issueId}/token", execution: .storeReads,
                   route: { [self] context throws(GatewayError) in
            let institution = try coveringInstitution(context.request)
            let ref = TokenController.issueRef(context.request)
            return try tokens.tokenResponse(Institutions.subject(institution), ref,
                                            entitlements.entitlements(of: institution, in: catalog.state).entitlement(for: ref))
        })
    }

    /// E30: the institution that covers the client's address, or 403 `not_in_institution`.
    private func coveringInstitution(_ request: HTTPRequest) throws(GatewayError) -> Institution {
        guard let institution = try entitlements.institution(covering: requesters.address(request)) else {
            throw .notInInstitution
        }
        return institution
    }

    private func existing(_ institutionId: String) throws(GatewayError) -> Institution {
        guard let found = try institutions.institution(institutionId) else { throw .notFound("no institution \(institutionId)") }
        return found
    }

    /// E30's body: a name, known publications, at least one network (checked when saved), a
    /// non-empty interval.
    private func institutionBody(_ body: RequestBody, id: String, createdAt: Instant) throws(GatewayError) -> Institution {
        let name = try body.string("name")
        guard !name.isEmpty, name.utf8.count <= Self.nameLimit else { throw .invalid("name must be 1 to \(Self.nameLimit) bytes") }
        guard let publications = try body.optionalStrings("publications"), !publications.isEmpty else {
            throw .invalid("publications must name at least one publication")
        }
        for publicationId in publications where catalog.state.snapshot.publication(publicationId) == nil {
            throw .invalid("no publication \(publicationId)")
        }
        guard let networks = try body.optionalStrings("networks"), !networks.isEmpty, networks.count <= Self.networkLimit else {
            throw .invalid("networks must list 1 to \(Self.networkLimit) CIDR ranges")
        }
        let start = try body.instant("start")
        let end = try body.optionalInstant("end")
        if let end, end <= start { throw .invalid("end must be after start") }
        return Institution(institutionId: id, name: name, publications: Array(Set(publications)).sorted(), networks: networks,
                           start: start, end: end, createdAt: createdAt)
    }
}

extension JSONWriter {
    package mutating func institution(_ institution: Institution) {
        object { w in
            w.field("institutionId", institution.institutionId)
            w.field("name", institution.name)
            w.key("publications")
            w.array { w in for publication in institution.publications { w.string(publication) } }
            w.key("networks")
            w.array { w in for network in institution.networks { w.string(network) } }
            w.field("start", institution.start.rfc3339)
            w.field("end", institution.end?.rfc3339)
            w.field("createdAt", institution.createdAt.rfc3339)
        }
    }
}
