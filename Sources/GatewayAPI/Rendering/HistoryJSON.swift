import GatewayStore
import Wire

/// The history route's body, also printed by `issue-gateway account history`: one implementation
/// for both, so the command line says exactly what the API says.
public enum HistoryJSON {
    public enum Failure: Error, Equatable {
        /// A malformed `limit` or `after`, in the route's words.
        case badPage(String)
        case storage(StoreError)
    }

    /// `{"events": […], "next"?}` for one page of the account's history, `limit` and `after` of
    /// `query` read as the route reads them; nil for an unknown account.
    public static func body(ofAccount accountId: String, query: [(String, String)], store: any GatewayStore)
        throws(Failure) -> [UInt8]? {
        let request: HistoryRequest
        do { request = try HistoryRequest(query) } catch { throw .badPage(error.message) }
        let page: HistoryPage?
        do { page = try store.history(ofAccount: accountId, after: request.after, limit: request.limit) } catch {
            throw .storage(error)
        }
        guard let page else { return nil }
        var w = JSONWriter()
        w.history(page)
        return w.bytes
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
