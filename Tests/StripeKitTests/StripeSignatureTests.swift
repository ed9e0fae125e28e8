import GatewayCrypto
import StripeKit
import Testing
import Wire

/// stripe.md's signature vector: `t.body` under HMAC-SHA256, any v1 under any configured secret,
/// 300 s either side.
@Suite struct StripeSignatureTests {
    static let body = Array(#"{"id":"evt_test_1","object":"event","type":"invoice.paid"}"#.utf8)
    static let t: Int64 = 1_767_225_600
    static let current = "14001c63bea2aed4e924c801f8f3d6aef2f351db2fc4f617cc26630f59a9c116"
    static let old = "8cbeb7cfe86be5c1a07af17e4a41d0b738da44734244ec934a04e32a7794ee1b"
    static let both = "t=\(t),v1=\(current),v1=\(old)"

    func verify(_ header: String?, secrets: [String], body: [UInt8] = body, at seconds: Int64 = t) throws(StripeSignatureError) {
        let verifier = try! StripeSignatureVerifier(secrets: secrets)
        try verifier.verify(header: header, body: body, now: Instant(secondsSinceEpoch: seconds))
    }

    @Test func theVectorVerifiesUnderEitherSecret() throws {
        try verify(Self.both, secrets: ["whsec_test_secret"])
        try verify(Self.both, secrets: ["whsec_old_secret"])
        try verify("t=\(Self.t),v1=\(Self.old)", secrets: ["whsec_test_secret", "whsec_old_secret"])
    }

    @Test func theSignerProducesTheVector() throws {
        #expect(try StripeSignatureVerifier.header(for: Self.body, timestamp: Self.t, secrets: ["whsec_test_secret", "whsec_old_secret"])
                == Self.both)
    }

    @Test func refusedWithNeitherSecret() {
        #expect(throws: StripeSignatureError.noMatch) { try verify(Self.both, secrets: ["whsec_other"]) }
    }

    @Test func refusedOutsideThreeHundredSecondsEitherSide() throws {
        try verify(Self.both, secrets: ["whsec_test_secret"], at: Self.t + 300)
        try verify(Self.both, secrets: ["whsec_test_secret"], at: Self.t - 300)
        #expect(throws: StripeSignatureError.outsideTolerance(secondsFromNow: -301)) {
            try verify(Self.both, secrets: ["whsec_test_secret"], at: Self.t + 301)
        }
        #expect(throws: StripeSignatureError.outsideTolerance(secondsFromNow: 301)) {
            try verify(Self.both, secrets: ["whsec_test_secret"], at: Self.t - 301)
        }
    }

    @Test func everySingleByteChangeIsRefused() {
        for index in Self.body.indices {
            var changed = Self.body
            changed[index] ^= 0x01
            #expect(throws: StripeSignatureError.noMatch) { try verify(Self.both, secrets: ["whsec_test_secret"], body: changed) }
        }
    }

    @Test func spacesAroundNamesAndValuesAreIgnoredAndNothingElse() throws {
        try verify(" t = \(Self.t) ,  v1=\(Self.current)  ", secrets: ["whsec_test_secret"])
        #expect(throws: StripeSignatureError.malformed) { try verify("t=\(Self.t),v1=\(Self.current),   ", secrets: ["whsec_test_secret"]) }
        #expect(throws: StripeSignatureError.malformed) { try verify("t= ,v1=\(Self.current)", secrets: ["whsec_test_secret"]) }
        #expect(throws: StripeSignatureError.noMatch) { try verify("t=\(Self.t),v1=\tx\(Self.current)", secrets: ["whsec_test_secret"]) }
    }

    @Test func missingAndMalformedHeadersAreRefused() {
        #expect(throws: StripeSignatureError.missing) { try verify(nil, secrets: ["whsec_test_secret"]) }
        #expect(throws: StripeSignatureError.missing) { try verify(Self.both, secrets: []) }
        for header in ["", "v1=\(Self.current)", "t=abc,v1=\(Self.current)", "t=\(Self.t),t=\(Self.t),v1=\(Self.current)", "garbage"] {
            #expect(throws: StripeSignatureError.malformed) { try verify(header, secrets: ["whsec_test_secret"]) }
        }
        // v0 is another scheme: ignored, so a header with v0 alone matches nothing.
        #expect(throws: StripeSignatureError.noMatch) {
            try verify("t=\(Self.t),v0=\(Self.current)", secrets: ["whsec_test_secret"])
        }
        let many = "t=\(Self.t)" + String(repeating: ",v1=\(Self.old)", count: 9)
        #expect(throws: StripeSignatureError.malformed) { try verify(many, secrets: ["whsec_test_secret"]) }
    }
}
