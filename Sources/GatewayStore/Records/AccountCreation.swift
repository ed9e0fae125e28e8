/// What `createAccount` did.
public enum AccountCreation: Sendable, Equatable {
    case created
    /// Another account holds the appAccountToken; nothing was written.
    case appAccountTokenInUse
    /// Another account has this id or token hash; nothing was written.
    case taken
}
