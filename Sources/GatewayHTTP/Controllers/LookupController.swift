import Entitle
import GatewayCore
import GatewayStore
import HTTPServer
import Wire

/// `GET /v1/lookup` (http-api.md, Support): who owns what a support agent has in hand, an
/// original transaction id, a transaction id, an appAccountToken, an account id, or Google Play's
/// purchase token or order id. Service and
/// admin keys only: it names accounts across the whole store.
package struct LookupController: APIController {
    private let access: Access
    private let lookups: OwnerLookups
    private let identities: ReaderIdentities

    package init(access: Access, lookups: OwnerLookups, identities: ReaderIdentities) {
        self.access = access; self.lookups = lookups; self.identities = identities
    }

    package static let lookupKeys = ["originalTransactionId", "transactionId", "appAccountToken", "accountId", "stripeSubscriptionId",
                                     "stripeCustomerId", "purchaseToken", "orderId"]

    package func register(_ router: APIRouterBuilder) {
        router.add("GET", "/v1/lookup", execution: .store, route: { [self] context throws(GatewayError) in
            try access.requireServiceOrAdmin(&context)
            let query = context.query
            if let found = try printSubscriberLookup(query) { return .json(200) { w in w.lookup(found) } }
            if let found = try emailLookup(query) { return .json(200) { w in w.emailLookup(found) } }
            let given = query.filter { Self.lookupKeys.contains($0.0) }
            guard given.count == 1, let (name, value) = given.first, !value.isEmpty else {
                throw .invalid("give exactly one of \(Self.lookupKeys.joined(separator: ", "))")
            }
            let environment = try Self.lookupEnvironment(query)
            let found = try lookups.owner(of: Self.lookupKey(name, value), in: environment)
            guard let found else { throw .notFound("nobody owns \(name) \(value)") }
            return .json(200) { w in w.lookup(found) }
        })
    }

    /// E29: `?publicationId=…&customerNumber=…` finds the account holding a print subscriber's
    /// claim; nil when the query is another lookup.
    private func printSubscriberLookup(_ query: [(String, String)]) throws(GatewayError) -> OwnerLookup? {
        let publicationId = query.first { $0.0 == "publicationId" }?.1, customerNumber = query.first { $0.0 == "customerNumber" }?.1
        guard publicationId != nil || customerNumber != nil else { return nil }
        guard let publicationId, let customerNumber, !publicationId.isEmpty, !customerNumber.isEmpty,
              !query.contains(where: { Self.lookupKeys.contains($0.0) }) else {
            throw .invalid("give publicationId with customerNumber, and no other lookup")
        }
        guard let found = try lookups.owner(of: .printSubscriber(publicationId: publicationId, customerNumber: customerNumber),
                                            in: nil) else { throw .notFound("nobody holds the claim of \(customerNumber) in \(publicationId)") }
        return found
    }

    /// readers.md, Decisions: `?email=…` finds the accounts an identity with that kept email
    /// belongs to (compared without case); nil when the query is another lookup.
    private func emailLookup(_ query: [(String, String)]) throws(GatewayError) -> [Identity]? {
        guard let email = query.first(where: { $0.0 == "email" })?.1 else { return nil }
        guard !email.isEmpty, !query.contains(where: { Self.lookupKeys.contains($0.0) || $0.0 == "publicationId" }) else {
            throw .invalid("give a non-empty email, and no other lookup")
        }
        let found = try identities.lookup(email: email)
        guard !found.isEmpty else { throw .notFound("no identity holds the email \(email)") }
        return found
    }

    /// The query's one lookup parameter as the key it names.
    private static func lookupKey(_ name: String, _ value: String) -> LookupKey {
        switch name {
        case "originalTransactionId": .originalTransactionId(value)
        case "transactionId": .transactionId(value)
        case "appAccountToken": .appAccountToken(value)
        case "stripeSubscriptionId": .stripeSubscriptionId(value)
        case "stripeCustomerId": .stripeCustomerId(value)
        case "purchaseToken": .purchaseToken(value)
        case "orderId": .orderId(value)
        default: .accountId(value)
        }
    }

    /// `?environment=production|sandbox` narrows a transaction lookup; absent, production first.
    private static func lookupEnvironment(_ query: [(String, String)]) throws(GatewayError) -> StoreEnvironment? {
        guard let text = query.first(where: { $0.0 == "environment" })?.1 else { return nil }
        guard let environment = StoreEnvironment(rawValue: text) else {
            throw .invalid("environment is production or sandbox")
        }
        return environment
    }
}

extension JSONWriter {
    /// `{"accountId": the first found, "accounts": [{"accountId", "provider", "subject", "email"}]}`.
    package mutating func emailLookup(_ found: [Identity]) {
        object { w in
            w.field("accountId", found[0].accountId)
            w.key("accounts")
            w.array { w in
                for identity in found {
                    w.object { w in
                        w.field("accountId", identity.accountId)
                        w.field("provider", identity.key.provider)
                        w.field("subject", identity.key.subject)
                        w.field("email", identity.email)
                    }
                }
            }
        }
    }

    package mutating func lookup(_ found: OwnerLookup) {
        object { w in
            w.field("accountId", found.accountId)
            if let store = found.store { w.field("store", store.rawValue) }
            if let environment = found.environment { w.field("environment", environment.rawValue) }
            if let original = found.originalTransactionId { w.field("originalTransactionId", original) }
            if let transaction = found.transactionId { w.field("transactionId", transaction) }
            if let token = found.appAccountToken { w.field("appAccountToken", token) }
            if let createdAt = found.createdAt { w.field("createdAt", createdAt.rfc3339) }
        }
    }
}
