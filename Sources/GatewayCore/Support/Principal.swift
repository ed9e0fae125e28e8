/// Who is asking (http-api.md, Conventions: Auth).
package enum Principal: Sendable, Equatable {
    /// The configured admin key: everything.
    case admin
    /// An editor key: catalog changes of its publications.
    case editor(keyId: String, publications: Set<String>)
    /// A publisher's backend acting for any account.
    case service(keyId: String)
    /// One reader account.
    case account(String)

    package func mayEdit(publication publicationId: String) -> Bool {
        switch self {
        case .admin: return true
        case .editor(_, let publications): return publications.contains(publicationId)
        case .service, .account: return false
        }
    }

    package func mayActFor(account accountId: String) -> Bool {
        switch self {
        case .admin, .service: return true
        case .account(let id): return id == accountId
        case .editor: return false
        }
    }

    package var isAdmin: Bool { self == .admin }

    /// A reader's own token: sees what E16 lets a reader see (no scheduled or retracted issue) and
    /// no staff-only detail (a publisher's or operator's note, who acted, another account's id).
    package var isReader: Bool { if case .account = self { true } else { false } }

    /// Who did something, as the account history names it: `admin`, `service:<keyId>`,
    /// `editor:<keyId>` or `account`.
    package var actor: String {
        switch self {
        case .admin: "admin"
        case .service(let keyId): "service:\(keyId)"
        case .editor(let keyId, _): "editor:\(keyId)"
        case .account: "account"
        }
    }
}
