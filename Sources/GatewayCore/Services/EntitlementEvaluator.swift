import Entitle
import Metrics
import Wire

/// The engine (E1–E22) with the configured policy (E3 sandbox, E8 grace): one account's facts
/// against one catalog revision at one instant.
package struct EntitlementEvaluator: Sendable {
    package let policy: EntitlementPolicy
    /// Every evaluation counted (`issue_gateway_entitlement_evaluations_total`).
    private let evaluations: Counter?

    package init(policy: EntitlementPolicy, evaluations: Counter? = nil) { self.policy = policy; self.evaluations = evaluations }

    package func evaluate(_ facts: AccountFacts, _ state: CatalogState, _ now: Instant) -> AccountEntitlements {
        evaluations?.increment()
        return EntitlementEngine.evaluate(catalog: state.entitlementCatalog, facts: facts, policy: policy, now: now)
    }
}
