/// A setting that cannot be used, named so the operator can fix it.
public struct ConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The variable (`ISSUE_GATEWAY_TOKEN_TTL`), or the config file for file-level problems.
    public var setting: String
    public var message: String
    /// Where the value came from: `environment` or the config file's path and line.
    public var origin: String?

    public init(setting: String, message: String, origin: String? = nil) {
        self.setting = setting; self.message = message; self.origin = origin
    }

    public var description: String {
        origin.map { "\(setting) (\($0)): \(message)" } ?? "\(setting): \(message)"
    }
}
