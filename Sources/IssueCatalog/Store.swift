/// Where a purchase was made and proved (entitlement-rules.md, Vocabulary: Store). Part of a
/// transaction's identity (E1) and of what a catalog product names (E23). The raw values are
/// the spellings of the catalog folder, the API and the stored rows.
/// Ordered as declared (keys sort App Store facts first).
public enum Store: String, Hashable, Sendable, CaseIterable, Comparable {
    case appStore, googlePlay, stripe

    public static func < (a: Store, b: Store) -> Bool { a.order < b.order }

    private var order: Int {
        switch self {
        case .appStore: 0
        case .googlePlay: 1
        case .stripe: 2
        }
    }
}
