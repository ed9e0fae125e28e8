import DownloadTokens
import Entitle
import GatewayCore
import HTTPServer

/// `GET /v1/edge/verify` (http-api.md, Edge; tokens.md): nginx `auth_request` asks about every
/// file request. Inline on the event loop: it is pure computation over the key set.
package struct EdgeController: APIController {
    private let tokenKeys: TokenKeySet
    private let tokenMemo: TokenMemo
    private let clock: any GatewayClock
    private let counters: GatewayCounters

    package init(tokenKeys: TokenKeySet, tokenMemo: TokenMemo, clock: any GatewayClock, counters: GatewayCounters) {
        self.tokenKeys = tokenKeys; self.tokenMemo = tokenMemo; self.clock = clock; self.counters = counters
    }

    package func register(_ router: APIRouterBuilder) {
        router.add("GET", "/v1/edge/verify") { [tokenKeys, tokenMemo, clock, counters] request in
            let decision = EdgeCheck.decide(authorization: request.header("Authorization"),
                                            originalURI: request.header("X-Original-URI"),
                                            originalMethod: request.header("X-Original-Method"),
                                            keys: tokenKeys, now: clock.now(), memo: tokenMemo)
            counters.tokenChecked(decision)
            switch decision {
            case .allow: return .noContent
            // The reason goes to logs and metrics, never in detail to the client (tokens.md).
            case .unauthorized: return Self.edgeUnauthorized
            case .forbidden: return Self.edgeForbidden
            }
        }
    }

    private static let edgeUnauthorized = HTTPResponse.error(401, code: "unauthorized", message: "no valid download token")
    private static let edgeForbidden = HTTPResponse.error(403, code: "forbidden", message: "the token does not allow this request")
}
