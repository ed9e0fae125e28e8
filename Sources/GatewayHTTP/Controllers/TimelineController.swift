import Entitle
import GatewayCore
import GatewayStore
import HTTPServer
import Wire

/// `GET /v1/accounts/{accountId}/timeline.svg` (http-api.md, Support): the account's periods
/// against a publication's issues as an SVG picture (`TimelineSVG`), computed by the engine for
/// now, like every list.
package struct TimelineController: APIController {
    private let access: Access
    private let entitlements: EntitlementsNow
    /// The catalog the timeline is drawn against.
    private let catalog: CatalogCache

    package init(access: Access, entitlements: EntitlementsNow, catalog: CatalogCache) {
        self.access = access; self.entitlements = entitlements; self.catalog = catalog
    }

    /// The widest window drawn: wider ones are refused rather than drawn unreadably.
    package static let timelineMaxYears: Int64 = 100

    package func register(_ router: APIRouterBuilder) {
        router.add("GET", "/v1/accounts/{accountId}/timeline.svg", execution: .store, route: { [self] context throws(GatewayError) in
            let account = try access.requireAccount(&context), accountId = account.id
            let query = try TimelineQuery(context.query)
            let svg = try timelineSVG(of: accountId, query, visibleOnly: account.principal.isReader)
            return .svg(svg)
        })
    }

    /// The picture for one account now: `query.publication`, or the first publication the account
    /// touches (the catalog's first by id when it touches none). 404 for an unknown publication
    /// or a catalog without one.
    package func timelineSVG(of accountId: String, _ query: TimelineQuery, visibleOnly: Bool = false) throws(GatewayError) -> String {
        let entitlements = try self.entitlements.entitlements(of: accountId)
        let snapshot = catalog.state.snapshot
        guard let publicationId = query.publication ?? entitlements.touchedPublications.first
                ?? snapshot.publications.map(\.id).min() else { throw .notFound("the catalog has no publication") }
        guard let publication = snapshot.publication(publicationId),
              let timeline = entitlements.timeline(of: publicationId, from: query.from, to: query.to,
                                                   visibleOnly: visibleOnly) else {
            throw .notFound("no publication \(publicationId)")
        }
        guard !TimelineQuery.tooWide(timeline.from, timeline.to) else {
            throw .invalid("the timeline may span at most \(TimelineController.timelineMaxYears) years; give from and to")
        }
        return TimelineSVG.render(timeline, publicationTitle: publication.title, accountId: accountId)
    }
}

/// `?publication=ID`, `?from=`, `?to=` (RFC 3339 instants), each at most once; `from` before `to`,
/// at most `TimelineController.timelineMaxYears` apart.
package struct TimelineQuery: Sendable, Equatable {
    package var publication: String?
    package var from: Instant?
    package var to: Instant?

    package init(publication: String? = nil, from: Instant? = nil, to: Instant? = nil) {
        self.publication = publication; self.from = from; self.to = to
    }

    package init(_ query: [(String, String)]) throws(GatewayError) {
        func single(_ name: String) throws(GatewayError) -> String? {
            let values = query.filter { $0.0 == name }
            guard values.count <= 1 else { throw .invalid("\(name) may be given once") }
            return values.first?.1
        }
        func instant(_ name: String) throws(GatewayError) -> Instant? {
            guard let text = try single(name) else { return nil }
            guard let instant = Instant(rfc3339: text) else { throw .invalid("\(name) must be an RFC 3339 instant") }
            return instant
        }
        publication = try single("publication")
        from = try instant("from")
        to = try instant("to")
        if let from, let to {
            guard from < to else { throw .invalid("from must be before to") }
            guard !Self.tooWide(from, to) else { throw .invalid("from and to may be at most \(TimelineController.timelineMaxYears) years apart") }
        }
    }

    package static func tooWide(_ from: Instant, _ to: Instant) -> Bool {
        to.millisecondsSinceEpoch / 1000 - from.millisecondsSinceEpoch / 1000 > TimelineController.timelineMaxYears * 366 * 86_400
    }
}
