import GatewayCore
import GatewayStore
import HTTPServer

/// Who may do what (http-api.md, Conventions: Auth): the checks routes start with, over the
/// principal the request's context resolves once.
package struct Access: Sendable {
    package let authenticator: Authenticator
    private let readers: ReaderAccounts
    private let catalog: CatalogCache

    package init(authenticator: Authenticator, readers: ReaderAccounts, catalog: CatalogCache) {
        self.authenticator = authenticator; self.readers = readers; self.catalog = catalog
    }

    /// The account in the path, when the caller may act for it (itself, a service key, admin),
    /// with the principal resolved once for the rest of the request. 404 for an account that
    /// does not exist; E32: for an account merged into another, 404 `account_merged` (with
    /// `mergedInto`) to service and admin keys and 404 `not_found` to anyone else, unless
    /// `readsMerged` (its history stays readable to service and admin keys).
    package func requireAccount(_ context: inout RequestContext, readsMerged: Bool = false) throws(GatewayError) -> ActingAccount {
        let accountId = context.parameter("accountId")
        let principal = try context.principal()
        guard principal.mayActFor(account: accountId) else {
            if try readers.wasMerged(accountId) { throw .notFound("no account \(accountId)") }
            throw .forbidden("this secret may not act for \(accountId)")
        }
        // An account's own session is live: a merged account's sessions ended with the merge.
        if case .account = principal { return ActingAccount(id: accountId, principal: principal) }
        if readsMerged {
            guard try readers.exists(accountId) else { throw .notFound("no account \(accountId)") }
        } else {
            try readers.requireLive(accountId, tellsMerges: true)
        }
        return ActingAccount(id: accountId, principal: principal)
    }

    /// E32: a service or admin key's route naming an account that was merged away answers
    /// `account_merged`; an unknown account `not_found`.
    package func requireLiveAccount(_ accountId: String) throws(GatewayError) {
        try readers.requireLive(accountId, tellsMerges: true)
    }

    /// E32: routes only the account's own session may take (its identities).
    package func requireOwnSession(_ context: inout RequestContext) throws(GatewayError) -> ActingAccount {
        let acting = try requireAccount(&context)
        guard case .account = acting.principal else { throw .forbidden("only the account's own session may do this") }
        return acting
    }

    package func requireAdmin(_ context: inout RequestContext) throws(GatewayError) {
        guard try context.principal().isAdmin else { throw .forbidden("only the admin key may do this") }
    }

    /// The path's publication, when the caller may edit it (an editor of it, or admin).
    package func requireEditor(_ context: inout RequestContext) throws(GatewayError) -> String {
        let publicationId = context.parameter("publicationId")
        guard try context.principal().mayEdit(publication: publicationId) else {
            throw .forbidden("this key may not edit \(publicationId)")
        }
        guard catalog.state.snapshot.publication(publicationId) != nil else {
            throw .notFound("no publication \(publicationId)")
        }
        return publicationId
    }

    /// A publisher's list of print subscribers (E29): an editor of the path's publication, a
    /// service key (a publisher's backend) or admin; the publication must exist.
    package func requireEditorOrService(_ context: inout RequestContext) throws(GatewayError) -> String {
        let publicationId = context.parameter("publicationId")
        if case .service = try context.principal() {
            guard catalog.state.snapshot.publication(publicationId) != nil else {
                throw .notFound("no publication \(publicationId)")
            }
            return publicationId
        }
        return try requireEditor(&context)
    }

    /// Service keys act for any account; admin does everything; an account may not grant itself.
    @discardableResult
    package func requireServiceOrAdmin(_ context: inout RequestContext) throws(GatewayError) -> Principal {
        let principal = try context.principal()
        switch principal {
        case .admin, .service: return principal
        case .editor, .account: throw .forbidden("only service and admin keys may do this")
        }
    }
}
