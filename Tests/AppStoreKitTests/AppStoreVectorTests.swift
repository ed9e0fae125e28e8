import Entitle
import Foundation
import IssueCatalog
import Testing
@testable import AppStoreKit
import Wire

/// Apple's own test vectors (App Store Server Library) against `testCA.der`.
@Suite(.enabled(if: AppStoreVectors.available, "shared App Store vectors absent"))
struct AppStoreVectorTests {
    /// The vectors' leaf certificates expire at the end of 2032; a fixed clock keeps these tests
    /// independent of the day they run, and is only read for a payload without `signedDate`.
    let verifier: SignedDataVerifier

    init() throws {
        let roots = try AppleRootCertificates.load(paths: [AppStoreVectors.rootPath])
        verifier = try SignedDataVerifier(roots: roots, policy: SignedDataPolicy(bundleId: "com.example", appAppleId: 1234),
                                          clock: { Instant(millisecondsSinceEpoch: 1_681_314_324_000) })
    }

    @Test func testNotificationVerifiesAtItsSignedDate() throws {
        let verified = try verifier.verify(try AppStoreVectors.text("testNotification"), as: .notification)
        #expect(verified.environment == .sandbox)
        #expect(verified.signedDate == Instant(millisecondsSinceEpoch: 1_681_314_324_000))
        #expect(verified.header.certificateChain.count == 3)
        let json = try #require(try JSONSerialization.jsonObject(with: verified.payload) as? [String: Any])
        #expect(json["notificationType"] as? String == "TEST")
    }

    @Test func transactionInfoVerifies() throws {
        let verified = try verifier.verify(try AppStoreVectors.text("transactionInfo"), as: .transaction)
        #expect(verified.signedDate == Instant(millisecondsSinceEpoch: 1_672_956_154_000))
        #expect(verified.environment == .sandbox)
    }

    @Test func renewalInfoVerifies() throws {
        let verified = try verifier.verify(try AppStoreVectors.text("renewalInfo"), as: .renewalInfo)
        #expect(verified.environment == .sandbox)
    }

    @Test func wrongBundleIdIsRefusedByTheBundleCheck() throws {
        #expect(throws: SignedDataVerificationError.bundleIdMismatch(found: "com.example.wrong")) {
            try verifier.verify(try AppStoreVectors.text("wrongBundleId"), as: .notification)
        }
    }

    @Test func missingX5CHeaderClaimIsRefused() throws {
        #expect(throws: SignedDataVerificationError.missingCertificateChain) {
            try verifier.verify(try AppStoreVectors.text("missingX5CHeaderClaim"), as: .notification)
        }
    }

    @Test func aTransactionIsNotAcceptedAsANotification() throws {
        // transactionInfo has no `data`, so no bundle id where a notification carries it.
        #expect(throws: SignedDataVerificationError.bundleIdMismatch(found: nil)) {
            try verifier.verify(try AppStoreVectors.text("transactionInfo"), as: .notification)
        }
    }

    @Test func sandboxIsRefusedWhenOnlyProductionIsAccepted() throws {
        let strict = try SignedDataVerifier(roots: try AppleRootCertificates.load(paths: [AppStoreVectors.rootPath]),
                                            policy: SignedDataPolicy(bundleId: "com.example", acceptedEnvironments: [.production]))
        #expect(throws: SignedDataVerificationError.environmentNotAccepted("Sandbox")) {
            try strict.verify(try AppStoreVectors.text("transactionInfo"), as: .transaction)
        }
    }
}
