import Entitle
import Foundation
import IssueCatalog
import Testing
@testable import AppStoreKit
@testable import AppStoreSimulator
import Wire

/// The simulator's signatures pass the gateway's own verifier, through the files and formats a
/// developer would use (a PEM root on disk, a notification request body).
@Suite struct SimulatedAppStoreSignerTests {
    static let now = Instant(millisecondsSinceEpoch: 1_750_000_000_000)

    @Test func aRefundNotificationVerifiesAgainstTheRootWrittenAsPEM() throws {
        let authority = try TestCertificateAuthority(options: .init(issuedAt: Self.now.adding(seconds: -3600)))
        let signer = SimulatedAppStoreSigner(authority: authority, bundleId: "org.example.app", appAppleId: 99, environment: "Production")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("appstore-sim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pemPath = folder.appendingPathComponent("root.pem").path
        let derPath = folder.appendingPathComponent("root.der").path
        try Data(authority.root.pem.utf8).write(to: URL(fileURLWithPath: pemPath))
        try authority.root.der.write(to: URL(fileURLWithPath: derPath))

        let roots = try AppleRootCertificates.load(paths: [pemPath, derPath])
        #expect(roots.certificates.count == 2)
        #expect(roots.certificates[0] == authority.root)
        let verifier = try SignedDataVerifier(roots: roots, policy: SignedDataPolicy(bundleId: "org.example.app", appAppleId: 99),
                                              clock: { Self.now })

        let transaction = try #require(signer.signedTransaction(
            ["transactionId": "7", "originalTransactionId": "7", "productId": "annual",
             "revocationDate": Self.now.millisecondsSinceEpoch, "revocationReason": 1], signedDate: Self.now))
        let body = try #require(signer.notificationBody(type: "REFUND", notificationUUID: "u-1", signedDate: Self.now,
                                                        signedTransactionInfo: transaction))
        let envelope = try #require(try JSONSerialization.jsonObject(with: body) as? [String: String])
        let signedPayload = try #require(envelope["signedPayload"])
        let verified = try verifier.verifyNotification(signedPayload)
        #expect(verified.notification.environment == .production)
        let transactionPayload = try #require(verified.transaction?.payload)
        let refunded = try #require(try JSONSerialization.jsonObject(with: transactionPayload) as? [String: Any])
        #expect(refunded["revocationReason"] as? Int == 1)
        #expect(refunded["bundleId"] as? String == "org.example.app")
        #expect(verified.renewalInfo == nil)
    }

    @Test func rootFilesThatHoldNoCertificateAreRefused() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-cert-\(UUID().uuidString)").path
        try Data("hello".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: AppleRootCertificates.LoadError.noCertificate(path: path)) { try AppleRootCertificates.load(path: path) }
        #expect(throws: AppleRootCertificates.LoadError.unreadable(path: "/nonexistent/root.der")) {
            try AppleRootCertificates.load(paths: ["/nonexistent/root.der"])
        }
        #expect(try AppleRootCertificates.load(paths: []).certificates.isEmpty)
    }
}
