/// An account a request may act for, and who is acting (http-api.md, Auth): resolved once per
/// request, so later checks (a reader's view, who may redeem from which address) ask no one again.
package struct ActingAccount: Sendable, Equatable {
    package let id: String
    package let principal: Principal

    package init(id: String, principal: Principal) { self.id = id; self.principal = principal }
}
