import OutboundHTTP
import Testing
import Wire

/// `Retry-After` as outside services send it (RFC 9110 §10.2.3): delay-seconds or an HTTP-date in
/// any of the three forms a recipient must accept (§5.6.7), as whole seconds from now.
@Suite struct RetryAfterFieldTests {
    /// 1994-11-06T08:49:30Z: seven seconds before RFC 9110's example date.
    static let now = Instant(millisecondsSinceEpoch: 784_111_770_000)

    @Test(arguments: [("7", 7), (" 120 ", 120), ("0", 0),
                      ("Sun, 06 Nov 1994 08:49:37 GMT", 7), ("Sunday, 06-Nov-94 08:49:37 GMT", 7), ("Sun Nov  6 08:49:37 1994", 7),
                      ("Sun, 06 Nov 1994 08:49:00 GMT", 0)])
    func readsSecondsAndEveryHTTPDateForm(value: String, seconds: Int) {
        #expect(RetryAfterField.seconds(value, now: Self.now) == seconds)
    }

    @Test func aPartialSecondIsRoundedUp() {
        #expect(RetryAfterField.seconds("Sun, 06 Nov 1994 08:49:37 GMT", now: Self.now.adding(milliseconds: 500)) == 7)
    }

    @Test(arguments: ["", "-1", "1.5", "soon", "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:49:37 GMT",
                      "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Foo 1994 08:49:37 GMT"])
    func anythingElseIsNoWait(value: String) {
        #expect(RetryAfterField.seconds(value, now: Self.now) == nil)
    }

    @Test func anAbsentFieldIsNoWait() {
        #expect(RetryAfterField.seconds(nil, now: Self.now) == nil)
    }
}
