@testable import GatewayConfiguration
import GatewayStore
import Testing
import GatewayTesting

/// How storage failures reach a client (http-api.md, Conventions): a busy database is a 503 the
/// client may retry, any other failure a 500 with a fixed sentence; never the database's words.
@Suite struct StorageFailureRouteTests {
    /// Reads pass through; every write unit of work fails with `error`.
    final class FailingWrites: GatewayStore {
        private let base: any GatewayStore
        private let error: StoreError

        init(_ base: any GatewayStore, _ error: StoreError) { self.base = base; self.error = error }

        func read<R>(_ body: (any ReadTransaction) throws(StoreError) -> R) throws(StoreError) -> R {
            try base.read(body)
        }

        func write<R>(_ body: (any WriteTransaction) throws(StoreError) -> R) throws(StoreError) -> R {
            throw error
        }
    }

    @Test func aBusyDatabaseIsA503() throws {
        let h = try H(wrapStore: { FailingWrites($0, .busy) })
        let answer = try h.client.post("/v1/accounts")
        #expect(answer.status == 503)
        #expect(answer.errorCode == "storage_busy")
        #expect(answer.header("Retry-After") == "1")
    }

    @Test func anyOtherStorageFailureIsA500WithAFixedSentence() throws {
        let h = try H(wrapStore: { FailingWrites($0, .failed) })
        let answer = try h.client.post("/v1/accounts")
        #expect(answer.status == 500)
        #expect(answer.errorCode == "internal_error")
        #expect(answer.text.contains("the gateway could not read or write its database"))
    }
}
