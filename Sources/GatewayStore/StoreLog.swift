import Foundation

/// Where a backend writes what the database said when it failed: the operator's log, never a
/// client's answer (`StoreError` carries only a fixed sentence).
public struct StoreLog: Sendable {
    private let sink: @Sendable (String) -> Void

    public init(_ sink: @escaping @Sendable (String) -> Void) { self.sink = sink }

    public func failure(_ detail: String) { sink(detail) }

    /// One line per failure on standard error, where the gateway's and the CLI's diagnostics go.
    public static let standardError = StoreLog { detail in
        FileHandle.standardError.write(Data("issue-gateway: store: \(detail)\n".utf8))
    }
}
