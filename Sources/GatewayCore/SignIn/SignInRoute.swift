/// E32's table: which account a sign-in reaches, from who holds the verified identity and the
/// bearer's account. Pure: the sign-in's unit of work reads the two inputs and writes what this
/// decides.
package enum SignInRoute: Equatable, Sendable {
    /// Rows 1 and 3: a new identified account with the identity (`created`).
    case newAccount
    /// Row 2: the identity is attached to the bearer's anonymous account.
    case attach(to: String)
    /// Rows 4 and 6: a new session on the holder.
    case session(on: String)
    /// Row 5: the bearer's anonymous account is merged into the holder, then a new session on it.
    case merge(from: String, into: String)

    /// The bearer's account as the table reads it: its id and whether it holds an identity.
    package struct BearerAccount: Equatable, Sendable {
        package var id: String
        package var isIdentified: Bool
        package init(id: String, isIdentified: Bool) { self.id = id; self.isIdentified = isIdentified }
    }

    package static func decide(holder: String?, bearer: BearerAccount?) -> SignInRoute {
        guard let holder else {
            if let bearer, !bearer.isIdentified { return .attach(to: bearer.id) }
            return .newAccount  // a sign-in never joins two people
        }
        if let bearer, bearer.id != holder, !bearer.isIdentified { return .merge(from: bearer.id, into: holder) }
        return .session(on: holder)
    }

    /// The account the new session is made on, when it exists already.
    package var existingTarget: String? {
        switch self {
        case .newAccount: nil
        case .attach(let id), .session(let id): id
        case .merge(_, let into): into
        }
    }
}
