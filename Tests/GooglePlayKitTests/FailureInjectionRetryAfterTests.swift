import Testing
@testable import GooglePlaySimulator

/// `POST /simulator/failures` with `retryAfter`: the failed calls carry it as their `Retry-After`;
/// without `calls` it is refused like `status`.
@Suite struct FailureInjectionRetryAfterTests {
    @Test func retryAfterGoesWithCalls() throws {
        let injection = try FailureInjection.parse(Array(#"{"calls":2,"retryAfter":"7"}"#.utf8))
        #expect(injection.calls == 2 && injection.status == 503 && injection.retryAfter == "7")
        #expect(throws: ControlError.badRequest("status and retryAfter go with calls")) {
            try FailureInjection.parse(Array(#"{"acknowledgements":1,"retryAfter":"7"}"#.utf8))
        }
    }
}
