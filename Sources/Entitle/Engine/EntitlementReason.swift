/// Why an issue is, or is not, entitled (E20). The first six entitle (`granted`: E21); the rest
/// explain a refusal. Declaration order is the order reasons are listed in.
public enum EntitlementReason: String, Hashable, Sendable, CaseIterable {
    case activePeriod, gracePeriod, unlockedAtStart, purchased, free, granted
    case notSubscribedWhenPublished, refunded, noPurchase, scheduled, retracted

    public var entitles: Bool {
        switch self {
        case .activePeriod, .gracePeriod, .unlockedAtStart, .purchased, .free, .granted: return true
        case .notSubscribedWhenPublished, .refunded, .noPurchase, .scheduled, .retracted: return false
        }
    }
}
