import Entitle
import Wire

/// The engine (E1–E22) with the configured policy (E3 sandbox, E8 grace): one account's facts
/// against one catalog revision at one instant.
package struct EntitlementEvaluator: Sendable {
    package let policy: EntitlementPolicy

    package init(policy: EntitlementPolicy) { self.policy = policy }

    package func evaluate(_ facts: AccountFacts, _ state: CatalogState, _ now: Instant) -> AccountEntitlements {
        EntitlementEngine.evaluate(catalog: state.entitlementCatalog, facts: facts, policy: policy, now: now)
    }
}
