import Foundation

/// The shared App Store test vectors (`../shared/vectors/appstore` beside the package root);
/// tests that need them are enabled only where the folder exists.
enum AppStoreVectors {
    /// This file is `<package>/Tests/AppStoreKitTests/AppStoreVectors.swift`.
    static let folder: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("shared/vectors/appstore")

    static var available: Bool { FileManager.default.fileExists(atPath: folder.appendingPathComponent("testCA.der").path) }

    static func text(_ name: String) throws -> String {
        String(decoding: try Data(contentsOf: folder.appendingPathComponent(name)), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static var rootPath: String { folder.appendingPathComponent("testCA.der").path }
}
