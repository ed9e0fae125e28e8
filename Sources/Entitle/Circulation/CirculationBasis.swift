/// E36: the terms on which an account is counted in an issue's circulation, in the order the
/// first that applies wins (reports.md).
public enum CirculationBasis: Int, Hashable, Sendable, CaseIterable, Comparable {
    /// Through a store transaction that was paid (not a free trial).
    case paid
    /// Through a store transaction in a free trial (Apple free-trial offer, a Google Play
    /// free-trial phase, a Stripe line of amount 0: all normalised to `OfferKind.freeTrial`).
    case trial
    /// Through a print subscriber's grant (E29: every grant whose source is `print`).
    case print
    /// Through any other grant or access code (E21, E22).
    case grant

    public var name: String {
        switch self {
        case .paid: "paid"
        case .trial: "trial"
        case .print: "print"
        case .grant: "grant"
        }
    }

    public init?(name: String) {
        guard let found = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = found
    }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// E29, reports.md: a grant's basis is `print` when its source is `print`.
    public static func of(grantSource source: String) -> Self { source == "print" ? .print : .grant }
}
