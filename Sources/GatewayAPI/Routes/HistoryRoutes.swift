import GatewayStore
import HTTPServer
import Wire

/// `GET /v1/accounts/{accountId}/history` (http-api.md, Support): every fact as it arrived on the
/// account, oldest first, in pages (`?limit`, `?after` as on the issue lists; without `limit`,
/// `HistoryRequest.defaultLimit`, so a 15-year account never makes one unbounded answer).
extension Gateway {
    func registerHistoryRoutes(_ router: APIRouterBuilder) {
        router.add("GET", "/v1/accounts/{accountId}/history", execution: .store, handler: apiHandler { [self] request throws(APIError) in
            let accountId = try requireAccount(request)
            let page = try HistoryRequest(request.queryParameters())
            guard let history = try history(of: accountId, page) else { throw .notFound("no account \(accountId)") }
            return .json(200) { w in w.history(history) }
        })
    }

    /// One page of the account's history; nil for an unknown account. Shared with
    /// `issue-gateway account history`.
    func history(of accountId: String, _ page: HistoryRequest) throws(APIError) -> HistoryPage? {
        try stored { () throws(StoreError) in try store.history(ofAccount: accountId, after: page.after, limit: page.limit) }
    }
}

/// `?limit=N` (1–500; default 500) and `?after=<cursor>` on the history.
struct HistoryRequest: Sendable, Equatable {
    static let defaultLimit = ListPage.limits.upperBound

    var limit: Int
    /// The sequence of the last event of the previous page.
    var after: Int64?

    init(limit: Int = Self.defaultLimit, after: Int64? = nil) { self.limit = limit; self.after = after }

    init(_ query: [(String, String)]) throws(APIError) {
        let (limit, after) = try ListPage.parameters(query)
        self.limit = limit ?? Self.defaultLimit
        if let after {
            guard let sequence = Self.sequence(token: after) else {
                throw .badRequest("after must be a cursor from the history's next member")
            }
            self.after = sequence
        }
    }

    /// base64url of `h<sequence>`: opaque to clients, refused when it is not one of ours.
    static func token(_ sequence: Int64) -> String { Base64URL.encode(Array("h\(sequence)".utf8)) }

    static func sequence(token: String) -> Int64? {
        guard token.utf8.count <= 32, let bytes = Base64URL.decode(token), bytes.first == UInt8(ascii: "h"),
              bytes.count <= 20, bytes.dropFirst().allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let value = Int64(String(decoding: bytes.dropFirst(), as: UTF8.self)), value > 0 else { return nil }
        return value
    }
}

extension JSONWriter {
    /// `{"events": [{"at", "kind", "source", …details}], "next"?}`.
    mutating func history(_ page: HistoryPage) {
        object { w in
            w.key("events")
            w.array { w in for event in page.events { w.historyEvent(event) } }
            if let next = page.next { w.field("next", HistoryRequest.token(next)) }
        }
    }

    mutating func historyEvent(_ event: HistoryEvent) {
        object { w in
            w.field("at", event.at.rfc3339)
            w.field("kind", event.kind.rawValue)
            w.field("source", event.source.rawValue)
            for member in event.details {
                w.key(member.name)
                w.rawValue(member.value.serializedBytes)
            }
        }
    }
}
