/// Why an issue is, or is not, entitled (E20). The first five entitle; the rest explain a refusal.
/// Declaration order is the order reasons are listed in.
public enum EntitlementReason: String, Hashable, Sendable, CaseIterable {
    case activePeriod, gracePeriod, unlockedAtStart, purchased, free
    case notSubscribedWhenPublished, refunded, noPurchase, scheduled, retracted

    public var entitles: Bool {
        switch self {
        case .activePeriod, .gracePeriod, .unlockedAtStart, .purchased, .free: return true
        case .notSubscribedWhenPublished, .refunded, .noPurchase, .scheduled, .retracted: return false
        }
    }
}
