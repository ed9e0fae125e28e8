import Entitle
import Foundation
import IssueCatalog
import OutboundHTTP
import Testing
import Wire
@testable import AppStoreKit

/// appstore.md's error table as `ServerAPIStep`, the pure core of the Server API client.
@Suite struct ServerAPIStepTests {
    static func step(_ status: Int, _ body: String = "", headers: [String: String] = [:],
                     at environment: StoreEnvironment = .production) -> ServerAPIStep {
        ServerAPIStep(answer: HTTPExchangeResult(statusCode: status, body: Data(body.utf8), headers: headers), environment: environment)
    }

    static func error(_ code: Int) -> String { #"{"errorCode":\#(code),"errorMessage":"m"}"# }

    @Test func theTable() {
        #expect(Self.step(200, "{}") == .success(Data("{}".utf8)))
        #expect(Self.step(401) == .tryOtherEnvironment(otherwise: .unauthorized))
        #expect(Self.step(401, at: .sandbox) == .failure(.unauthorized))
        #expect(Self.step(404, Self.error(4040010)) == .tryOtherEnvironment(otherwise: .notFound))
        #expect(Self.step(404, Self.error(4040010), at: .sandbox) == .failure(.notFound))
        #expect(Self.step(429, Self.error(4290000), headers: ["retry-after": "1770000000123"])
                == .retry(.rateLimited(retryAfter: Instant(millisecondsSinceEpoch: 1_770_000_000_123))))
        #expect(Self.step(429, headers: ["retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"]) == .retry(.rateLimited(retryAfter: nil)))
        for code in [5000001, 4040002, 4040004, 4040006] {
            #expect(Self.step(code / 10000 == 500 ? 500 : 404, Self.error(code)) == .retry(.retryableError(code)))
        }
        #expect(Self.step(500, Self.error(5000000)) == .retry(.httpStatus(500)), "a 5xx is worth another try")
        #expect(Self.step(502, "<html>") == .retry(.httpStatus(502)))
        #expect(Self.step(400, Self.error(4000006)) == .failure(.rejected(httpStatus: 400, errorCode: 4000006)))
        #expect(Self.step(403, "not json") == .failure(.rejected(httpStatus: 403, errorCode: nil)))
    }
}
