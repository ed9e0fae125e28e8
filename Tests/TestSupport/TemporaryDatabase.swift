import Foundation
import SQLiteStore

/// A fresh database file in its own temporary folder, removed when the value is dropped.
public final class TemporaryDatabase: Sendable {
    public let folder: URL
    public var path: String { folder.appendingPathComponent("nested/gateway.sqlite").path }

    public init() {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("issue-gateway-\(UUID().uuidString)")
    }

    public func open() throws -> SQLiteStore { try SQLiteStore(path: path) }

    deinit { try? FileManager.default.removeItem(at: folder) }
}
