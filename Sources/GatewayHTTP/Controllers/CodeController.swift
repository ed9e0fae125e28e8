import Entitle
import GatewayCore
import GatewayStore
import HTTPServer
import IssueCatalog
import Wire

/// Access codes (E22; http-api.md, Support, grants and Apple's current API): the routes over
/// `AccessCodes`, with redemption failures limited per account and per client.
package struct CodeController: APIController {
    private let access: Access
    private let codes: AccessCodes
    private let entitlements: EntitlementsNow
    private let redemptionFailures: KeyedRateLimiter<String>
    private let clock: any GatewayClock

    package init(access: Access, codes: AccessCodes, entitlements: EntitlementsNow,
                 redemptionFailures: KeyedRateLimiter<String>, clock: any GatewayClock) {
        self.access = access; self.codes = codes; self.entitlements = entitlements
        self.redemptionFailures = redemptionFailures; self.clock = clock
    }

    package func register(_ router: APIRouterBuilder) {
        let batches = "/v1/publications/{publicationId}/codes"
        router.add("POST", batches, execution: .store, route: { [self] context throws(GatewayError) in
            let publicationId = try access.requireEditor(&context)
            let body = try RequestBody(context.request)
            let order = try CodeBatchOrder(count: body.optionalInteger("count"), issueId: body.optionalString("issueId"),
                                           duration: body.optionalString("duration"), expiresAt: body.optionalInstant("expiresAt"))
            let (batch, codes) = try self.codes.createBatch(order, publicationId: publicationId)
            return .json(201) { w in
                w.object { w in
                    w.field("batchId", batch.batchId)
                    w.key("codes")
                    w.array { w in for code in codes { w.string(code) } }
                }
            }
        })
        router.add("GET", batches + "/{batchId}", execution: .store, route: { [self] context throws(GatewayError) in
            let publicationId = try access.requireEditor(&context)
            let batchId = context.parameter("batchId")
            guard let (batch, codes) = try codes.batch(batchId, of: publicationId) else {
                throw .notFound("no batch \(batchId) for \(publicationId)")
            }
            return .json(200) { w in w.codeBatch(batch, codes: codes) }
        })
        router.add("DELETE", batches + "/{batchId}", execution: .store, route: { [self] context throws(GatewayError) in
            let publicationId = try access.requireEditor(&context)
            let batchId = context.parameter("batchId")
            guard let (batch, codes) = try codes.revoke(batchId, of: publicationId) else {
                throw .notFound("no batch \(batchId) for \(publicationId)")
            }
            return .json(200) { w in w.codeBatch(batch, codes: codes) }
        })
        router.add("POST", "/v1/accounts/{accountId}/codes/redeem", execution: .store, route: { [self] context throws(GatewayError) in
            let account = try access.requireAccount(&context), accountId = account.id
            // A service key is a publisher's backend redeeming for all its readers from one
            // address: limiting that address would let ten readers' typos lock out every other
            // reader, so its failures count per account only.
            let byAddress = account.principal.isReader
            let address = byAddress ? context.request.sourceAddress.map { ["client:" + ClientKey.of($0)] } ?? [] : []
            let keys = ["account:" + accountId] + address
            let now = clock.now()
            for key in keys {
                if case .limited(let seconds) = redemptionFailures.check(key, now: now) { throw .rateLimited(retryAfterSeconds: seconds) }
            }
            let text = try RequestBody(context.request).string("code")
            guard try codes.redeem(text, for: accountId, at: now) else {
                for key in keys { _ = redemptionFailures.take(key, now: now) }
                throw .codeNotFound
            }
            return .entitlements(accountId, try entitlements.answer(of: accountId))
        })
    }
}

extension JSONWriter {
    /// A batch as editors see it: its terms and each code's use, never a code itself.
    package mutating func codeBatch(_ batch: CodeBatch, codes: [AccessCode]) {
        object { w in
            w.field("batchId", batch.batchId)
            w.field("publicationId", batch.publicationId)
            w.field("issueId", batch.issueId)
            w.field("duration", batch.duration)
            w.field("expiresAt", batch.expiresAt?.rfc3339)
            w.field("createdAt", batch.createdAt.rfc3339)
            w.field("revokedAt", batch.revokedAt?.rfc3339)
            w.field("count", codes.count)
            w.field("redeemed", codes.filter { $0.redeemedBy != nil }.count)
            w.key("codes")
            w.array { w in
                for code in codes {
                    w.object { w in
                        w.field("redeemedBy", code.redeemedBy)
                        w.field("redeemedAt", code.redeemedAt?.rfc3339)
                    }
                }
            }
        }
    }
}
