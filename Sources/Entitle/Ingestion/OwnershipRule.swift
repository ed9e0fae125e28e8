/// E4: what happens when a second account brings a subscription another account owns.
public enum OwnershipPolicy: String, Sendable, CaseIterable {
    /// The newer account gets it, the older loses it (the default).
    case transfer
    /// The request fails and nothing changes.
    case keep
}

/// Who owns a subscription or single purchase after new facts about it arrive (E4). Pure: every
/// store asks this inside its own write transaction, so a second backend binds exactly alike.
public enum OwnershipRule {
    public enum Decision: Equatable, Sendable {
        /// The owner stays (nil: still unbound).
        case unchanged(owner: String?)
        /// `owner` gets it; `previous` (if any) loses it and its entitlements change too.
        case bind(owner: String, previous: String?)
        /// `keep`: another account owns it; the request fails and nothing changes.
        case refuse(owner: String)
    }

    /// - Parameters:
    ///   - current: the account that owns it now, if any.
    ///   - tokenAccount: the account a V2 `appAccountToken` on its newest transaction names, if any:
    ///     it wins over both the requester and the policy.
    ///   - requester: the account that brought the facts; nil for a server notification, whose
    ///     facts go to the current owner (or stay unbound until an account brings them).
    public static func decide(current: String?, tokenAccount: String?, requester: String?,
                              policy: OwnershipPolicy) -> Decision {
        guard let target = tokenAccount ?? requester ?? current, target != current else {
            return .unchanged(owner: current)
        }
        if let current, tokenAccount == nil, policy == .keep { return .refuse(owner: current) }
        return .bind(owner: target, previous: current)
    }
}
