import Foundation
import GatewayCore
import GatewayHTTP
import GatewayStore
import Testing
import Wire

/// The one mapping from the core's domain errors to HTTP (http-api.md, Conventions): each case's
/// status and code, its extra fields, and `Retry-After` on every 429 and 503.
@Suite struct APIErrorMappingTests {
    static let cases: [(GatewayError, Int, String)] = [
        (.invalid("x"), 400, "bad_request"),
        (.invalidNetwork(entry: "10.0.0.1/8", reason: "host bits are set"), 400, "invalid_network"),
        (.unauthorized(), 401, "unauthorized"),
        (.invalidIDToken(reason: "nonce"), 401, "invalid_id_token"),
        (.forbidden(), 403, "forbidden"),
        (.notEntitled(issueId: "2026-05", reason: "expired"), 403, "not_entitled"),
        (.notInInstitution, 403, "not_in_institution"),
        (.notFound("x"), 404, "not_found"),
        (.codeNotFound, 404, "code_not_found"),
        (.subscriberNotFound, 404, "subscriber_not_found"),
        (.purchaseNotFound, 404, "purchase_not_found"),
        (.conflict("x"), 409, "conflict"),
        (.accountMerged(mergedInto: "acct-b"), 404, "account_merged"),
        (.linkCodeNotFound, 404, "link_code_not_found"),
        (.deviceLimit(sessions: [], current: nil), 409, "device_limit"),
        (.identityInUse, 409, "identity_in_use"),
        (.lastIdentity, 409, "last_identity"),
        (.ownedByOtherAccount, 409, "owned_by_other_account"),
        (.appAccountTokenInUse, 409, "app_account_token_in_use"),
        (.notConfigured("x"), 409, "not_configured"),
        (.purchaseExpired, 410, "purchase_expired"),
        (.tooLarge("x"), 413, "payload_too_large"),
        (.unsupportedFormat("x"), 415, "unsupported_media_type"),
        (.receiptRejected("x", appStoreStatus: 21003), 422, "receipt_rejected"),
        (.rateLimited(retryAfterSeconds: 7), 429, "rate_limited"),
        (.storageFailed, 500, "internal_error"),
        (.failed("x"), 500, "internal_error"),
        (.appStoreRefused(status: 400, appStoreErrorCode: 4000006), 502, "app_store_refused"),
        (.appStoreUnavailable("x"), 503, "app_store_unavailable"),
        (.storeUnavailable("x"), 503, "store_unavailable"),
        (.providerUnavailable(retryAfterSeconds: 30), 503, "provider_unavailable"),
        (.storageBusy, 503, "storage_busy"),
        (.storageUnreachable, 503, "storage_unavailable"),
    ]

    @Test func everyDomainErrorHasOneStatusAndCode() {
        for (error, status, code) in Self.cases {
            let mapped = APIError(error)
            #expect(mapped.status == status && mapped.code == code, "\(error)")
            #expect(mapped.message == error.message)
        }
    }

    @Test func every429And503AnswersRetryAfter() {
        for (error, status, _) in Self.cases where status == 429 || status == 503 {
            #expect(error.response.headers.contains { $0.0 == "Retry-After" }, "\(error)")
        }
    }

    @Test func theWaitsTheErrorsNameAreTheRetryAfter() {
        #expect(APIError(.appStoreUnavailable("x")).headers.first { $0.0 == "Retry-After" }?.1 == "5")
        #expect(APIError(.appStoreUnavailable("x", retryAfterSeconds: 30)).headers.first { $0.0 == "Retry-After" }?.1 == "30")
        #expect(APIError(.storeUnavailable("x")).headers.first { $0.0 == "Retry-After" }?.1 == "60")
        #expect(APIError(.rateLimited(retryAfterSeconds: 7)).headers.first { $0.0 == "Retry-After" }?.1 == "7")
        #expect(APIError(.providerUnavailable(retryAfterSeconds: 30)).headers.first { $0.0 == "Retry-After" }?.1 == "30")
    }

    @Test func theErrorsExtraFieldsNameWhatWasRefused() {
        #expect(APIError(.receiptRejected("x", appStoreStatus: 21003)).extra.map(\.0) == ["appStoreStatus"])
        #expect(APIError(.receiptRejected("x")).extra.isEmpty)
        #expect(APIError(.invalidNetwork(entry: "10.0.0.1/8", reason: "r")).extra.map(\.0) == ["network"])
        #expect(APIError(.notEntitled(issueId: "i", reason: "expired")).extra.map(\.0) == ["reason"])
        // readers.md, Decisions: E31's reason sits inside the error object beside the code.
        let refused = APIError(.invalidIDToken(reason: "audience"))
        #expect(refused.extra.map(\.0) == ["reason"])
        #expect(refused.extra.first?.1 == .string("audience"))
        #expect(APIError(.appStoreRefused(status: 400, appStoreErrorCode: 1)).extra.map(\.0) == ["appStoreErrorCode"])
        #expect(APIError(.accountMerged(mergedInto: "acct-b")).extra.map(\.0) == ["mergedInto"])
    }

    /// readers.md, Decisions: `device_limit`'s live sessions sit inside the error object beside `code`.
    @Test func e34ADeviceLimitCarriesTheLiveSessionsInsideTheError() throws {
        let session = Session(id: "sess-1", accountId: "acct-a", tokenHash: "h", device: SessionDevice(id: "d1", name: "Phone"),
                              createdAt: Instant(rfc3339: "2026-03-01T00:00:00Z")!)
        let response = GatewayError.deviceLimit(sessions: [session], current: "sess-1").response
        let json = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        let error = try #require(json["error"] as? [String: Any])
        #expect(error["code"] as? String == "device_limit")
        let sessions = try #require(error["sessions"] as? [[String: Any]])
        #expect(sessions.first?["sessionId"] as? String == "sess-1" && sessions.first?["current"] as? Bool == true)
        #expect((sessions.first?["device"] as? [String: Any])?["platform"] is NSNull)
        #expect(sessions.first?["lastUsedAt"] as? String == "2026-03-01T00:00:00.000Z")
    }
}
