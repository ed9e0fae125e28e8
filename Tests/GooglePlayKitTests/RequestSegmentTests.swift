@testable import GooglePlayKit
import Testing

/// A purchase token is the reader's input put into Google's URL path: only ASCII unreserved bytes
/// pass (RFC 3986 §2.3), and no token can become a `.` or `..` step (RFC 3986 §5.2.4).
@Suite struct RequestSegmentTests {
    @Test func tokensGoogleMakesPassUnchanged() {
        #expect(GooglePlayRequest.segment("abc.DEF-ghi_jkl~0.AO-J1Oy") == "abc.DEF-ghi_jkl~0.AO-J1Oy")
    }

    @Test func everythingElseIsEscapedByteByByte() {
        #expect(GooglePlayRequest.segment("a/b?c#d") == "a%2Fb%3Fc%23d")
        #expect(GooglePlayRequest.segment("é") == "%C3%A9", "a non-ASCII letter is not unreserved")
        #expect(GooglePlayRequest.segment("a b%") == "a%20b%25")
    }

    @Test func dotSegmentsCannotClimbThePath() {
        #expect(GooglePlayRequest.segment(".") == "%2E")
        #expect(GooglePlayRequest.segment("..") == "%2E%2E")
        #expect(GooglePlayRequest.segment("...x") == "...x")
    }
}
