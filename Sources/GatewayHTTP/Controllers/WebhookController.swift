import GatewayCore
import GatewayStore
import HTTPServer
import Wire

/// The webhook dead-letter list (an extension of http-api.md, pushes and webhooks): events that
/// kept failing for the configured time, set aside so their accounts' later events could go, and
/// their replay. Admin only: events name accounts across the whole store.
package struct WebhookController: APIController {
    private let access: Access
    private let deadLetters: DeadLetters

    package init(access: Access, deadLetters: DeadLetters) {
        self.access = access; self.deadLetters = deadLetters
    }

    package func register(_ router: APIRouterBuilder) {
        router.add("GET", "/v1/webhooks/dead-letters", execution: .store, route: { [self] context throws(GatewayError) in
            try access.requireAdmin(&context)
            let events = try deadLetters.list()
            return .json(200) { w in
                w.object { w in
                    w.key("events")
                    w.array { w in for event in events { w.deadLetter(event) } }
                }
            }
        })
        router.add("POST", "/v1/webhooks/dead-letters/{seq}/replay", execution: .store, route: { [self] context throws(GatewayError) in
            try access.requireAdmin(&context)
            let text = context.request.parameter("seq")
            guard let seq = Int64(text), seq > 0 else { throw .invalid("seq is a positive integer") }
            guard let event = try deadLetters.replay(seq) else {
                throw .notFound("no dead-lettered webhook event \(text)")
            }
            return .json(200) { w in w.deadLetter(event) }
        })
    }
}

extension JSONWriter {
    /// One outbox event as the dead-letter list shows it (`deadLetteredAt` null once replayed).
    package mutating func deadLetter(_ event: OutboxEvent) {
        object { w in
            w.field("seq", Int(event.seq))
            w.field("id", event.eventId)
            w.field("type", event.kind.rawValue)
            w.field("accountId", event.accountId)
            w.field("createdAt", event.createdAt.rfc3339)
            w.field("attempts", event.attempts)
            w.field("deadLetteredAt", event.deadLetteredAt?.rfc3339)
            w.field("lastFailure", event.lastFailure)
        }
    }
}
