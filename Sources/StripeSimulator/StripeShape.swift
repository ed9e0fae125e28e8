/// The two field layouts Stripe renders (stripe.md, Versions): from `2025-03-31.basil` periods sit
/// on subscription items and invoices name their subscription under `parent`; before, on the
/// subscription and the invoice themselves.
public enum StripeShape: String, Sendable, CaseIterable {
    case basil = "2025-03-31.basil"
    case legacy = "2024-06-20"

    public var apiVersion: String { rawValue }

    /// The shape a `Stripe-Version` asks for: basil and every later version, else the older one.
    public init(version: String?) {
        guard let version, let year = Int(version.prefix(4)) else { self = .basil; return }
        self = year > 2025 || (year == 2025 && version >= "2025-03-31") ? .basil : .legacy
    }
}
