/// What `createAccount` did.
public enum AccountCreation: Sendable, Equatable {
    case created
    /// Another account holds the appAccountToken; nothing was written.
    case appAccountTokenInUse
}
