import Foundation

/// A fresh APNs-style `.p8` key (PKCS#8 PEM, P-256) made by the openssl command, with its public
/// key, in a temporary folder removed with the value: the gateway signs with the first, the fake
/// APNs checks with the second.
package final class APNsTestKey: Sendable {
    package let folder: URL
    package var path: String { folder.appendingPathComponent("AuthKey.p8").path }
    package var publicKeyPath: String { folder.appendingPathComponent("public.pem").path }

    package init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("apns-key-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", path])
        try Self.openssl(["pkey", "-in", path, "-pubout", "-out", publicKeyPath])
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    package static func openssl(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
    }
}
