import Entitle
import GatewayCore
import GatewayStore
import HTTPServer
import Wire

/// Print subscribers (E29; http-api.md, Print subscribers and institutions): a publisher's lists,
/// whole (`PUT`) or as changes (`PATCH`), read as they arrive; one subscriber as support sees it;
/// and a reader's claim, whose failures are limited per account and per client address.
package struct PrintSubscriberController: APIController {
    private let access: Access
    private let lists: SubscriberLists
    private let claims: PrintClaims
    private let entitlements: EntitlementsNow
    private let listMaxBytes: Int
    private let clock: any GatewayClock

    package init(access: Access, lists: SubscriberLists, claims: PrintClaims,
                 entitlements: EntitlementsNow, listMaxBytes: Int, clock: any GatewayClock) {
        self.access = access; self.lists = lists; self.claims = claims; self.entitlements = entitlements
        self.listMaxBytes = listMaxBytes; self.clock = clock
    }

    package func register(_ router: APIRouterBuilder) {
        let path = "/v1/publications/{publicationId}/subscribers"
        for (method, kind) in [("PUT", SubscriberListKind.whole), ("PATCH", .changes)] {
            // A list may run to a gigabyte: the server keeps it in a file, never in memory, and
            // only once the key is known to be allowed here (checked on the head, before the body).
            router.add(method, path, execution: .store, maxBodyBytes: listMaxBytes, spoolsBody: true,
                       authorizeHead: { [access] context throws(GatewayError) in _ = try access.requireEditorOrService(&context) },
                       route: { [self] context throws(GatewayError) in
                let publicationId = try access.requireEditorOrService(&context)
                guard let format = SubscriberListFormat(contentType: context.request.header("Content-Type")) else {
                    throw .unsupportedFormat("send the list as text/csv or application/x-ndjson")
                }
                let request = context.request
                let counts = try lists.receive(kind, publicationId: publicationId, format: format) { (take) throws(GatewayError) in
                    try request.forEachBodyPiece(take)
                }
                return .json(200) { w in w.listCounts(counts) }
            })
        }
        router.add("GET", path + "/{customerNumber}", execution: .store, route: { [self] context throws(GatewayError) in
            let publicationId = try access.requireEditorOrService(&context)
            let customerNumber = context.parameter("customerNumber")
            guard let found = try lists.subscriber(customerNumber, of: publicationId) else { throw .notFound("no subscriber \(customerNumber) in \(publicationId)") }
            return .json(200) { w in w.subscriber(found.subscriber, claimedBy: found.claimedBy) }
        })
        router.add("GET", "/v1/subscriber-imports", execution: .store, route: { [self] context throws(GatewayError) in
            try access.requireAdmin(&context)
            let imports = try lists.recentImports()
            return .json(200) { w in
                w.object { w in
                    w.key("imports")
                    w.array { w in for list in imports { w.subscriberImport(list) } }
                }
            }
        })
        router.add("POST", "/v1/accounts/{accountId}/claims", execution: .store, route: { [self] context throws(GatewayError) in
            let account = try access.requireAccount(&context), accountId = account.id
            // As for codes: a service key claims for all its readers from one address, so its
            // failures count per account only.
            let address = account.principal.isReader ? context.request.sourceAddress.map { ["client:" + ClientKey.of($0)] } ?? [] : []
            let body = try RequestBody(context.request)
            let publicationId = try body.string("publicationId"), customerNumber = try body.string("customerNumber")
            let verification = try body.string("verification")
            try claims.claim(publicationId: publicationId, customerNumber: customerNumber, verification: verification,
                             for: accountId, limitKeys: ["account:" + accountId] + address, at: clock.now())
            return .entitlements(accountId, try entitlements.answer(of: accountId))
        })
    }
}

extension HTTPRequest {
    /// The body in pieces of at most `pieceBytes`, from its file when the server spooled it, for
    /// readers that take it as it comes.
    package func forEachBodyPiece(pieceBytes: Int = 256 << 10,
                                  _ take: (UnsafeRawBufferPointer) throws(GatewayError) -> Void) throws(GatewayError) {
        if let spooledBody {
            guard try spooledBody.forEachPiece(pieceBytes: pieceBytes, take) else {
                throw .failed("the request body could not be read back")
            }
            return
        }
        var offset = 0
        while offset < body.count {
            let end = min(body.count, offset + pieceBytes)
            var failure: GatewayError?
            body.withUnsafeBytes { all in
                do throws(GatewayError) { try take(UnsafeRawBufferPointer(rebasing: all[offset..<end])) } catch { failure = error }
            }
            if let failure { throw failure }
            offset = end
        }
    }
}

extension JSONWriter {
    /// What a list did (http-api.md): its counts and the lines refused.
    package mutating func listCounts(_ counts: SubscriberListCounts) {
        object { w in
            w.countMembers(counts)
            w.key("rejected")
            w.array { w in
                for rejection in counts.rejected {
                    w.object { w in
                        w.field("line", rejection.line)
                        w.field("error", rejection.error)
                    }
                }
            }
            if counts.rejectedBeyondKept > 0 { w.field("rejectedNotListed", counts.rejectedBeyondKept) }
        }
    }

    /// `added`, `changed`, `ended`, `unchanged`: what a list did to the subscribers it named.
    private mutating func countMembers(_ counts: SubscriberListCounts) {
        field("added", counts.added)
        field("changed", counts.changed)
        field("ended", counts.ended)
        field("unchanged", counts.unchanged)
    }

    /// A list received and what it did (the console's list of imports).
    package mutating func subscriberImport(_ list: SubscriberImport) {
        object { w in
            w.field("listId", list.listId)
            w.field("publicationId", list.publicationId)
            w.field("kind", list.kind.rawValue)
            w.field("receivedAt", list.receivedAt.rfc3339)
            w.field("finishedAt", list.finishedAt?.rfc3339)
            w.field("refusal", list.refusal)
            w.countMembers(list.counts)
            w.field("rejected", list.counts.rejectedCount)
        }
    }

    /// A subscriber without its verification, and the account holding its claim.
    package mutating func subscriber(_ subscriber: PrintSubscriber, claimedBy: String?) {
        object { w in
            w.field("publicationId", subscriber.publicationId)
            w.field("customerNumber", subscriber.customerNumber)
            w.field("start", subscriber.terms.start.rfc3339)
            w.field("end", subscriber.terms.end?.rfc3339)
            w.field("updatedAt", subscriber.updatedAt.rfc3339)
            w.field("claimedBy", claimedBy)
        }
    }
}
