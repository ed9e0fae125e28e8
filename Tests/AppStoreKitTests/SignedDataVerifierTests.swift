import Entitle
import Foundation
import IssueCatalog
import Testing
@testable import AppStoreKit
@testable import AppStoreSimulator
import Wire

/// Every refusal of appstore.md "Version 2", built with the simulator's test CA.
@Suite struct SignedDataVerifierTests {
    static let issuedAt = Instant(millisecondsSinceEpoch: 1_700_000_000_000)
    static let signedDate = issuedAt.adding(seconds: 86_400)
    static let bundleId = "org.example.periodicals"

    let ca: TestCertificateAuthority
    let verifier: SignedDataVerifier

    init() throws {
        ca = try TestCertificateAuthority(options: .init(issuedAt: Self.issuedAt))
        verifier = try Self.verifier(trusting: ca)
    }

    static func verifier(trusting ca: TestCertificateAuthority, policy: SignedDataPolicy = SignedDataPolicy(
        bundleId: bundleId, appAppleId: 42)) throws -> SignedDataVerifier {
        try SignedDataVerifier(roots: ca.trustedRoots, policy: policy, clock: { signedDate })
    }

    static func transaction(bundleId: String = bundleId, environment: String = "Sandbox",
                            signedDate: Instant = signedDate) -> Data {
        let json: [String: Any] = ["transactionId": "2000000001", "originalTransactionId": "2000000001",
                                   "productId": "monthly", "bundleId": bundleId, "environment": environment,
                                   "signedDate": signedDate.millisecondsSinceEpoch]
        return try! JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
    }

    func signed(_ payload: Data = transaction(), by ca: TestCertificateAuthority? = nil) throws -> String {
        try #require((ca ?? self.ca).sign(payload: payload))
    }

    func refusal(_ compact: String, as kind: SignedPayloadKind = .transaction,
                 verifier: SignedDataVerifier? = nil) -> SignedDataVerificationError? {
        do {
            _ = try (verifier ?? self.verifier).verify(compact, as: kind)
            return nil
        } catch {
            return error
        }
    }

    // MARK: accepted

    @Test func acceptsAGoodChainAndReturnsTheSignedBytes() throws {
        let payload = Self.transaction()
        let verified = try verifier.verify(try signed(payload), as: .transaction)
        #expect(verified.payload == payload)
        #expect(verified.environment == .sandbox)
        #expect(verified.signedDate == Self.signedDate)
        #expect(verified.header.algorithm == "ES256")
        #expect(verified.header.certificateChain == ca.chainDER)
    }

    @Test func acceptsAProductionNotificationWithItsNestedPayloads() throws {
        let transaction = try signed(Self.transaction(environment: "Production"))
        let renewal = try #require(ca.sign(json: ["originalTransactionId": "2000000001", "environment": "Production",
                                                  "signedDate": Self.signedDate.millisecondsSinceEpoch]))
        let notification = try #require(ca.sign(json: [
            "notificationType": "REFUND", "notificationUUID": "c0ffee", "signedDate": Self.signedDate.millisecondsSinceEpoch,
            "data": ["bundleId": Self.bundleId, "appAppleId": 42, "environment": "Production",
                     "signedTransactionInfo": transaction, "signedRenewalInfo": renewal] as [String: Any]]))
        let verified = try verifier.verifyNotification(notification)
        #expect(verified.notification.environment == .production)
        #expect(verified.transaction?.payload == Self.transaction(environment: "Production"))
        #expect(verified.renewalInfo?.kind == .renewalInfo)
    }

    @Test func oneVerifierServesManyThreadsAtOnce() throws {
        let good = try signed()
        let forged = try signed(by: try TestCertificateAuthority(options: .init(issuedAt: Self.issuedAt)))
        let verdicts = Recorder<Bool>()
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            let accepted = (try? verifier.verify(index.isMultiple(of: 2) ? good : forged, as: .transaction)) != nil
            verdicts.append(accepted == index.isMultiple(of: 2))
        }
        #expect(verdicts.values.count == 64)
        #expect(verdicts.values.allSatisfy { $0 })
    }

    // MARK: one strict JSON parser (RFC 7515 §5.2 step 4, RFC 7519 §4)

    /// A compact JWS over exactly these header bytes, signed by the CA's leaf.
    func signed(headerJSON: String, payload: Data = transaction()) throws -> String {
        let input = Base64URL.encode(Array(headerJSON.utf8)) + "." + Base64URL.encode(payload)
        let signature = try #require(ca.leafKey.signES256(Data(input.utf8)))
        return input + "." + Base64URL.encode(signature)
    }

    @Test func refusesAHeaderThatRepeatsAName() throws {
        let chain = ca.chainDER.map { "\"\($0.base64EncodedString())\"" }.joined(separator: ",")
        let unique = try signed(headerJSON: #"{"alg":"ES256","x5c":["# + chain + "]}")
        #expect(refusal(unique) == nil)
        // A last-value-wins reader would see ES256 here and accept.
        let repeated = try signed(headerJSON: #"{"alg":"none","alg":"ES256","x5c":["# + chain + "]}")
        guard case .malformedHeader(let reason) = refusal(repeated) else {
            Issue.record("a header repeating alg was not refused as malformed"); return
        }
        #expect(reason.contains("duplicate"))
    }

    @Test func refusesClaimsThatRepeatAName() throws {
        let payload = Data(#"{"bundleId":"com.attacker","bundleId":"org.example.periodicals","environment":"Sandbox","signedDate":1700086400000}"#.utf8)
        guard case .malformedPayload(let reason) = refusal(try signed(payload)) else {
            Issue.record("claims repeating bundleId were not refused as malformed"); return
        }
        #expect(reason.contains("duplicate"))
    }

    @Test func refusesANotificationWhoseDataRepeatsAName() throws {
        let payload = Data(#"{"signedDate":1700086400000,"data":{"bundleId":"org.example.periodicals","environment":"Sandbox","environment":"Production","appAppleId":42}}"#.utf8)
        guard case .malformedPayload = refusal(try signed(payload), as: .notification) else {
            Issue.record("notification data repeating environment was not refused"); return
        }
    }

    // MARK: the chain

    @Test func refusesASelfSignedLeaf() throws {
        let key = try #require(SigningKey())
        let selfSigned = try CertificateBuilder(commonName: "Leaf", isCertificateAuthority: false,
                                                markerOIDs: [CertificateChainVerifier.leafMarkerOID],
                                                notBefore: Self.issuedAt, notAfter: Self.signedDate.adding(seconds: 86_400))
            .issue(subjectKey: key, issuer: nil)
        let jws = try #require(JWSSigner.sign(payload: Self.transaction(), key: key,
                                              chain: [selfSigned.der, ca.intermediate.der, ca.root.der]))
        guard case .untrustedChain = refusal(jws) else { Issue.record("self-signed leaf accepted or misreported"); return }
    }

    @Test func refusesAChainToAnotherRoot() throws {
        let other = try TestCertificateAuthority(options: .init(issuedAt: Self.issuedAt))
        guard case .untrustedChain = refusal(try signed(by: other)) else { Issue.record("foreign root accepted"); return }
    }

    @Test func neverTrustsTheThirdCertificateForItself() throws {
        // The leaf and intermediate chain to the configured root, but x5c[2] names a stranger.
        let other = try TestCertificateAuthority(options: .init(issuedAt: Self.issuedAt))
        let jws = try #require(JWSSigner.sign(payload: Self.transaction(), key: ca.leafKey,
                                              chain: [ca.leaf.der, ca.intermediate.der, other.root.der]))
        #expect(refusal(jws) == .rootCertificateMismatch)
    }

    @Test func refusesAnIntermediateWithoutAppleMarker() throws {
        var options = TestCertificateAuthority.Options(issuedAt: Self.issuedAt)
        options.intermediateHasMarker = false
        let unmarked = try TestCertificateAuthority(options: options)
        #expect(refusal(try signed(by: unmarked), verifier: try Self.verifier(trusting: unmarked)) == .missingIntermediateMarker)
    }

    @Test func refusesALeafWithoutAppleMarker() throws {
        var options = TestCertificateAuthority.Options(issuedAt: Self.issuedAt)
        options.leafHasMarker = false
        let unmarked = try TestCertificateAuthority(options: options)
        #expect(refusal(try signed(by: unmarked), verifier: try Self.verifier(trusting: unmarked)) == .missingLeafMarker)
    }

    @Test func refusesALeafExpiredAtSignedDate() throws {
        var options = TestCertificateAuthority.Options(issuedAt: Self.issuedAt)
        options.leaf = Self.issuedAt...Self.signedDate.adding(seconds: -1)
        let expired = try TestCertificateAuthority(options: options)
        guard case .certificateNotValidAtSignedDate = refusal(try signed(by: expired), verifier: try Self.verifier(trusting: expired))
        else { Issue.record("expired leaf accepted or misreported"); return }
    }

    @Test func checksValidityAtSignedDateNotNow() throws {
        // Signed while the chain was valid: still accepted although the chain expired since.
        var options = TestCertificateAuthority.Options(issuedAt: Self.issuedAt)
        options.leaf = Self.issuedAt...Self.signedDate.adding(seconds: 60)
        let shortLived = try TestCertificateAuthority(options: options)
        let later = try SignedDataVerifier(roots: shortLived.trustedRoots, policy: SignedDataPolicy(bundleId: Self.bundleId),
                                           clock: { Self.signedDate.adding(seconds: 365 * 86_400) })
        _ = try later.verify(try signed(by: shortLived), as: .transaction)
        #expect(refusal(try signed(Self.transaction(signedDate: Self.signedDate.adding(seconds: 120)), by: shortLived),
                        verifier: later) != nil)
    }

    @Test func refusesAnIntermediateNotYetValidAtSignedDate() throws {
        var options = TestCertificateAuthority.Options(issuedAt: Self.issuedAt)
        options.intermediate = Self.signedDate.adding(seconds: 1)...Self.signedDate.adding(seconds: 86_400)
        let early = try TestCertificateAuthority(options: options)
        guard case .certificateNotValidAtSignedDate = refusal(try signed(by: early), verifier: try Self.verifier(trusting: early))
        else { Issue.record("not-yet-valid intermediate accepted or misreported"); return }
    }

    @Test func refusesAnX5COfTwoCertificates() throws {
        let jws = try #require(JWSSigner.sign(payload: Self.transaction(), key: ca.leafKey, chain: [ca.leaf.der, ca.intermediate.der]))
        #expect(refusal(jws) == .wrongCertificateCount(2))
    }

    @Test func refusesAnX5CEntryThatIsNoCertificate() throws {
        let jws = try #require(JWSSigner.sign(payload: Self.transaction(), key: ca.leafKey,
                                              chain: [ca.leaf.der, Data("not DER".utf8), ca.root.der]))
        #expect(refusal(jws) == .malformedCertificate(index: 1))
    }

    @Test func refusesTruncatedOrPaddedCertificates() throws {
        let leaf = ca.leaf.der
        for damaged in [leaf.prefix(leaf.count / 2), leaf + Data([0]), Data()] {
            let jws = try #require(JWSSigner.sign(payload: Self.transaction(), key: ca.leafKey,
                                                  chain: [Data(damaged), ca.intermediate.der, ca.root.der]))
            #expect(refusal(jws) == .malformedCertificate(index: 0))
        }
    }

    @Test func refusesALeafKeyOffP256() throws {
        var options = TestCertificateAuthority.Options(issuedAt: Self.issuedAt)
        options.leafCurve = .p384
        let wrongCurve = try TestCertificateAuthority(options: options)
        let jws = try #require(JWSSigner.sign(payload: Self.transaction(), key: ca.leafKey, chain: wrongCurve.chainDER))
        #expect(refusal(jws, verifier: try Self.verifier(trusting: wrongCurve)) == .leafKeyNotP256)
    }

    // MARK: the signature

    @Test(arguments: ["ES384", "none", "HS256", "es256"])
    func refusesAnyAlgorithmButES256(_ algorithm: String) throws {
        let jws = try #require(JWSSigner.sign(payload: Self.transaction(), key: ca.leafKey, chain: ca.chainDER, algorithm: algorithm))
        #expect(refusal(jws) == .unsupportedAlgorithm(algorithm))
    }

    @Test func refusesATamperedPayload() throws {
        let parts = try signed().split(separator: ".")
        let forged = Base64URL.encode(Self.transaction(bundleId: Self.bundleId, environment: "Production"))
        #expect(refusal("\(parts[0]).\(forged).\(parts[2])") == .invalidSignature)
    }

    @Test func refusesATamperedSignature() throws {
        let parts = try signed().split(separator: ".")
        var signature = Data(try #require(Base64URL.decode(String(parts[2]))))
        signature[signature.startIndex + 5] ^= 0x01
        #expect(refusal("\(parts[0]).\(parts[1]).\(Base64URL.encode(signature))") == .invalidSignature)
        #expect(refusal("\(parts[0]).\(parts[1]).\(Base64URL.encode(signature.prefix(63)))") == .malformedSignature)
    }

    @Test func aHeaderParsedBeforeVouchesForNoPayload() throws {
        let parts = try signed().split(separator: ".")
        #expect(refusal("\(parts[0]).\(parts[1]).\(parts[2])") == nil, "the header is now known")
        let forged = Base64URL.encode(Self.transaction(bundleId: Self.bundleId, environment: "Production"))
        #expect(refusal("\(parts[0]).\(forged).\(parts[2])") == .invalidSignature)
        let stranger = try #require(SigningKey())
        let other = try #require(JWSSigner.sign(payload: Self.transaction(), key: stranger, chain: ca.chainDER))
        #expect(other.split(separator: ".")[0] == parts[0], "the same header bytes")
        #expect(refusal(other) == .invalidSignature)
    }

    @Test func aHeaderThatFailedIsRefusedEveryTime() throws {
        let jws = try #require(JWSSigner.sign(payload: Self.transaction(), key: ca.leafKey, chain: [ca.leaf.der, ca.intermediate.der]))
        #expect(refusal(jws) == .wrongCertificateCount(2))
        #expect(refusal(jws) == .wrongCertificateCount(2))
    }

    @Test func refusesASignatureFromAnotherKey() throws {
        let stranger = try #require(SigningKey())
        let jws = try #require(JWSSigner.sign(payload: Self.transaction(), key: stranger, chain: ca.chainDER))
        #expect(refusal(jws) == .invalidSignature)
    }

    // MARK: the claims

    @Test func refusesTheWrongBundleId() throws {
        #expect(refusal(try signed(Self.transaction(bundleId: "org.example.other"))) == .bundleIdMismatch(found: "org.example.other"))
    }

    @Test(arguments: ["Xcode", "LocalTesting", "sandbox", ""])
    func refusesAnUnknownEnvironment(_ environment: String) throws {
        #expect(refusal(try signed(Self.transaction(environment: environment))) == .environmentNotAccepted(environment))
    }

    @Test func refusesAnEnvironmentTheConfigurationExcludes() throws {
        let productionOnly = try Self.verifier(trusting: ca, policy: SignedDataPolicy(bundleId: Self.bundleId, acceptedEnvironments: [.production]))
        #expect(refusal(try signed(), verifier: productionOnly) == .environmentNotAccepted("Sandbox"))
    }

    @Test func refusesAProductionNotificationForAnotherApp() throws {
        func notification(appAppleId: Int64) throws -> String {
            try #require(ca.sign(json: ["notificationType": "TEST", "signedDate": Self.signedDate.millisecondsSinceEpoch,
                                        "data": ["bundleId": Self.bundleId, "appAppleId": appAppleId, "environment": "Production"]]))
        }
        #expect(refusal(try notification(appAppleId: 7), as: .notification) == .appAppleIdMismatch(found: 7))
        let unconfigured = try Self.verifier(trusting: ca, policy: SignedDataPolicy(bundleId: Self.bundleId))
        #expect(refusal(try notification(appAppleId: 42), as: .notification, verifier: unconfigured) == .appAppleIdMismatch(found: 42))
        #expect(refusal(try notification(appAppleId: 42), as: .notification) == nil)
    }

    @Test func refusesANestedTransactionFromAnotherEnvironment() throws {
        let nested = try signed(Self.transaction(environment: "Sandbox"))
        let notification = try #require(ca.sign(json: [
            "notificationType": "DID_RENEW", "signedDate": Self.signedDate.millisecondsSinceEpoch,
            "data": ["bundleId": Self.bundleId, "appAppleId": 42, "environment": "Production", "signedTransactionInfo": nested] as [String: Any]]))
        #expect(throws: SignedDataVerificationError.environmentNotAccepted("sandbox")) { try verifier.verifyNotification(notification) }
    }

    @Test func refusesAPayloadWhoseFieldsHaveTheWrongType() throws {
        let payload = Data(#"{"bundleId":42,"environment":"Sandbox","signedDate":1700000000000}"#.utf8)
        #expect(refusal(try signed(payload)) == .malformedPayload("bad field bundleId"))
    }

    // MARK: the envelope

    @Test(arguments: ["", "a.b", "a.b.c.d", "e30..AAAA", "!!.e30.AAAA", "eyJ.e30=.AAAA"])
    func refusesMalformedCompactSerializations(_ text: String) {
        #expect(refusal(text) == .malformedCompactSerialization)
    }

    @Test func refusesOversizedInputBeforeParsing() {
        let limit = SignedDataPolicy.defaultMaximumCompactLength
        #expect(refusal(String(repeating: "A", count: limit + 1)) == .tooLarge(limit: limit))
    }

    @Test func refusesCriticalHeaders() throws {
        let header = Base64URL.encode(Data(#"{"alg":"ES256","crit":["exp"],"x5c":[]}"#.utf8))
        #expect(refusal("\(header).e30.AAAA") == .unsupportedCriticalHeader)
    }

    @Test func refusesEverythingWithoutConfiguredRoots() {
        #expect(throws: SignedDataVerificationError.noTrustedRoots) {
            try SignedDataVerifier(roots: AppleRootCertificates(certificates: []), policy: SignedDataPolicy(bundleId: Self.bundleId))
        }
    }
}
