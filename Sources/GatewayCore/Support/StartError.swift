/// Why the gateway cannot start: a setting that cannot be used, or a store that cannot be read.
/// The message names the setting.
public struct StartError: Error, CustomStringConvertible {
    public var description: String

    public init(description: String) { self.description = description }
}
