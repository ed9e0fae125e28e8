/// What support staff ask: who owns what, an account's history, why an issue is or is not open.
package struct SupportServices: Sendable {
    package let lookups: OwnerLookups
    package let history: AccountHistory
    package let explanations: Explanations
}
