/// Why an issue is, or is not, entitled (E20). The first seven entitle (`granted`: E21,
/// `institution`: E30); the rest
/// explain a refusal. Declaration order is the order reasons are listed in.
public enum EntitlementReason: String, Hashable, Sendable, CaseIterable {
    case activePeriod, gracePeriod, unlockedAtStart, purchased, free, granted
    /// E30: an institution covering the client's address gives it, beside the account's own reasons.
    case institution
    case notSubscribedWhenPublished, refunded, noPurchase, scheduled, retracted

    public var entitles: Bool {
        switch self {
        case .activePeriod, .gracePeriod, .unlockedAtStart, .purchased, .free, .granted, .institution: return true
        case .notSubscribedWhenPublished, .refunded, .noPurchase, .scheduled, .retracted: return false
        }
    }
}
