import GatewayCore
import GatewayStore
import HTTPServer

/// Who may do what (http-api.md, Conventions: Auth): the checks routes start with, each resolving
/// the bearer secret once.
package struct Access: Sendable {
    package let authenticator: Authenticator
    private let store: any GatewayStore
    private let catalog: CatalogCache

    package init(authenticator: Authenticator, store: any GatewayStore, catalog: CatalogCache) {
        self.authenticator = authenticator; self.store = store; self.catalog = catalog
    }

    /// 401 when the secret is missing or unknown.
    package func principal(_ request: HTTPRequest) throws(APIError) -> Principal {
        try authenticator.principal(request)
    }

    /// The account in the path, when the caller may act for it (itself, a service key, admin),
    /// with the principal resolved once for the rest of the request. 404 for an account that
    /// does not exist.
    package func requireAccount(_ request: HTTPRequest) throws(APIError) -> ActingAccount {
        let accountId = request.parameter("accountId")
        let principal = try authenticator.principal(request)
        guard principal.mayActFor(account: accountId) else { throw .forbidden("this secret may not act for \(accountId)") }
        if case .account = principal { return ActingAccount(id: accountId, principal: principal) }
        guard try stored({ () throws(StoreError) in try store.account(id: accountId) }) != nil else {
            throw .notFound("no account \(accountId)")
        }
        return ActingAccount(id: accountId, principal: principal)
    }

    package func requireAdmin(_ request: HTTPRequest) throws(APIError) {
        guard try authenticator.principal(request).isAdmin else { throw .forbidden("only the admin key may do this") }
    }

    /// The path's publication, when the caller may edit it (an editor of it, or admin).
    package func requireEditor(_ request: HTTPRequest) throws(APIError) -> String {
        let publicationId = request.parameter("publicationId")
        guard try authenticator.principal(request).mayEdit(publication: publicationId) else {
            throw .forbidden("this key may not edit \(publicationId)")
        }
        guard catalog.state.snapshot.publication(publicationId) != nil else {
            throw .notFound("no publication \(publicationId)")
        }
        return publicationId
    }

    /// Service keys act for any account; admin does everything; an account may not grant itself.
    @discardableResult
    package func requireServiceOrAdmin(_ request: HTTPRequest) throws(APIError) -> Principal {
        let principal = try authenticator.principal(request)
        switch principal {
        case .admin, .service: return principal
        case .editor, .account: throw .forbidden("only service and admin keys may do this")
        }
    }
}
