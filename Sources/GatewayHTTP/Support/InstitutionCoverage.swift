import Entitle
import GatewayCore
import GatewayStore
import HTTPServer

/// E30: which institution covers a request's client address, for the institution routes and for
/// the account routes, which add that institution's issues to the account's own.
package struct InstitutionCoverage: Sendable {
    package let institutions: Institutions
    private let addresses: ClientAddressResolver
    private let accounts: InstitutionAccounts

    package init(institutions: Institutions, addresses: ClientAddressResolver, accounts: InstitutionAccounts) {
        self.institutions = institutions; self.addresses = addresses; self.accounts = accounts
    }

    /// The institution covering the request's client address (the first created where several
    /// do), or nil. May read the store: not for the event loop.
    package func covering(_ request: HTTPRequest) throws(GatewayError) -> Institution? {
        guard let address = clientAddress(request) else { return nil }
        return try institutions.covering(address)
    }

    /// The same from memory alone, for a fast path; nil when memory cannot tell.
    package func coveringFromMemory(_ request: HTTPRequest) -> Coverage? {
        institutions.coveringFromMemory(clientAddress(request))
    }

    /// E30: the grant the institution covering this request gives `publicationId` (any of its
    /// publications when nil), or nil when none does. An account route adds it to the account's
    /// facts and then neither reads nor fills the account's cached answers, which hold its own
    /// facts alone. Records nothing: for a route that gives no access (an explanation).
    package func grant(_ request: HTTPRequest, publicationId: String?) throws(GatewayError) -> Grant? {
        guard let institution = try covering(request) else { return nil }
        return Self.grant(institution, publicationId: publicationId)
    }

    /// The same for a route that gives the account access (its issue list, a token), recording
    /// in the account's history, the first time this institution's grant is given to it, what
    /// the institution gave and to which address (E30, `InstitutionAccounts`). An admin's request
    /// records nothing: an operator's address says nothing of where the reader reads. May read
    /// and write the store: not for the event loop.
    package func grant(_ request: HTTPRequest, publicationId: String?, givenTo account: ActingAccount) throws(GatewayError) -> Grant? {
        guard let address = clientAddress(request), let institution = try institutions.covering(address),
              let grant = Self.grant(institution, publicationId: publicationId) else { return nil }
        if !account.principal.isAdmin { try accounts.record(institution, givenTo: account.id, address: address) }
        return grant
    }

    /// Whether a fast path may answer from the account's cached answers: memory tells, and no
    /// institution covering the request gives `publicationId`.
    package func answersFromAccountAlone(_ request: HTTPRequest, publicationId: String?) -> Bool {
        guard let coverage = coveringFromMemory(request) else { return false }
        return coverage.institution.flatMap { Self.grant($0, publicationId: publicationId) } == nil
    }

    private static func grant(_ institution: Institution, publicationId: String?) -> Grant? {
        if let publicationId, !institution.publications.contains(publicationId) { return nil }
        return Institutions.grant(institution)
    }

    private func clientAddress(_ request: HTTPRequest) -> [UInt8]? {
        addresses.address(peer: request.sourceAddress, forwardedFor: request.headers.values("X-Forwarded-For"))
    }
}
