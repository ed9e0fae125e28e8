import GatewayCore
import GatewayStore
import HTTPServer
import Wire

/// `GET /v1/accounts/{accountId}/history` (http-api.md, Support): every fact as it arrived on the
/// account, oldest first, in pages (`?limit`, `?after` as on the issue lists; without `limit`,
/// `HistoryRequest.defaultLimit`, so a 15-year account never makes one unbounded answer).
package struct HistoryController: APIController {
    private let access: Access
    private let history: AccountHistory

    package init(access: Access, history: AccountHistory) {
        self.access = access; self.history = history
    }

    package func register(_ router: APIRouterBuilder) {
        router.add("GET", "/v1/accounts/{accountId}/history", execution: .store, route: { [self] context throws(GatewayError) in
            let account = try access.requireAccount(&context, readsMerged: true), accountId = account.id
            let body: [UInt8]?
            let view: HistoryView = account.principal.isReader ? .reader : .staff
            do throws(HistoryJSON.Failure) {
                body = try HistoryJSON.body(ofAccount: accountId, query: context.query, history: history, view: view)
            } catch {
                switch error {
                case .badPage(let message): throw .invalid(message)
                case .storage(let failure): throw failure
                }
            }
            guard let body else { throw .notFound("no account \(accountId)") }
            return .json(200, body)
        })
    }
}

/// `?limit=N` (1–500; default 500) and `?after=<cursor>` on the history.
package struct HistoryRequest: Sendable, Equatable {
    package static let defaultLimit = ListPage.limits.upperBound

    package var limit: Int
    /// The sequence of the last event of the previous page.
    package var after: Int64?

    package init(limit: Int = Self.defaultLimit, after: Int64? = nil) { self.limit = limit; self.after = after }

    package init(_ query: [(String, String)]) throws(GatewayError) {
        let (limit, after) = try ListPage.parameters(query)
        self.limit = limit ?? Self.defaultLimit
        if let after {
            guard let sequence = Self.sequence(token: after) else {
                throw .invalid("after must be a cursor from the history's next member")
            }
            self.after = sequence
        }
    }

    /// base64url of `h<sequence>`: opaque to clients, refused when it is not one of ours.
    package static func token(_ sequence: Int64) -> String { Base64URL.encode(Array("h\(sequence)".utf8)) }

    package static func sequence(token: String) -> Int64? {
        guard token.utf8.count <= 32, let bytes = Base64URL.decode(token), bytes.first == UInt8(ascii: "h"),
              bytes.count <= 20, bytes.dropFirst().allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let value = Int64(String(decoding: bytes.dropFirst(), as: UTF8.self)), value > 0 else { return nil }
        return value
    }
}
