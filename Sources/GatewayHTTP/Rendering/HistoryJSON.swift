import GatewayCore
import GatewayStore
import Wire

/// The history route's body, also printed by `issue-gateway account history`: one implementation
/// for both, so the command line says exactly what the API says.
package enum HistoryJSON {
    package enum Failure: Error, Equatable {
        /// A malformed `limit` or `after`, in the route's words.
        case badPage(String)
        case storage(GatewayError)
    }

    /// `{"events": […], "next"?}` for one page of the account's history, `limit` and `after` of
    /// `query` read as the route reads them; nil for an unknown account.
    package static func body(ofAccount accountId: String, query: [(String, String)], history: AccountHistory,
                             view: HistoryView = .staff) throws(Failure) -> [UInt8]? {
        let request: HistoryRequest
        do { request = try HistoryRequest(query) } catch { throw .badPage(error.message) }
        let page: HistoryPage?
        do { page = try history.page(ofAccount: accountId, after: request.after, limit: request.limit) } catch {
            throw .storage(error)
        }
        guard let page else { return nil }
        var w = JSONWriter()
        w.history(page, view: view)
        return w.bytes
    }
}

/// Who reads a history: support staff (service and admin keys, the command line) see every
/// detail; a reader's own token does not see what the publisher or an operator wrote about the
/// account (`note`), which key acted (`by`), or the other account of a transfer (another
/// reader's id).
public enum HistoryView: Sendable {
    case staff, reader

    package static let staffOnlyDetails: Set<String> = ["note", "by", "fromAccountId", "toAccountId"]

    package func shows(_ detail: String) -> Bool { self == .staff || !Self.staffOnlyDetails.contains(detail) }
}

extension JSONWriter {
    /// `{"events": [{"at", "kind", "source", …details}], "next"?}`.
    package mutating func history(_ page: HistoryPage, view: HistoryView) {
        object { w in
            w.key("events")
            w.array { w in for event in page.events { w.historyEvent(event, view: view) } }
            if let next = page.next { w.field("next", HistoryRequest.token(next)) }
        }
    }

    package mutating func historyEvent(_ event: HistoryEvent, view: HistoryView) {
        object { w in
            w.field("at", event.at.rfc3339)
            w.field("kind", event.kind.rawValue)
            w.field("source", event.source.rawValue)
            for member in event.details where view.shows(member.name) {
                w.key(member.name)
                w.rawValue(member.value.serializedBytes)
            }
        }
    }
}
