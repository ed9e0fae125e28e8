import Testing
import IssueCatalog
import GatewayStore

@Suite struct StoreAccountTests {
    @Test(arguments: StoreBackend.all)
    func accountsAreFoundByIdTokenHashAndAppAccountToken(_ backend: StoreBackend) throws {
        let opened = try backend.open()
        let store = opened.store
        let account = Fixtures.account("a1", appAccountToken: "6e0f3f4e-0000-4000-8000-000000000001")
        try store.createAccount(account)
        #expect(try store.account(id: "a1") == account)
        #expect(try store.account(tokenHash: "hash-a1") == account)
        #expect(try store.account(appAccountToken: "6e0f3f4e-0000-4000-8000-000000000001") == account)
        #expect(try store.account(id: "a2") == nil)
        #expect(try store.createAccount(account) == .appAccountTokenInUse, "nothing written")
        var sameToken = Fixtures.account("a2", appAccountToken: account.appAccountToken)
        sameToken.tokenHash = "other"
        #expect(try store.createAccount(sameToken) == .appAccountTokenInUse)
        #expect(try store.account(id: "a2") == nil)
    }

    @Test(arguments: StoreBackend.all)
    func aDeletedKeyStopsWorkingAtOnce(_ backend: StoreBackend) throws {
        let opened = try backend.open()
        let store = opened.store
        let key = APIKey(keyId: "k1", role: .editor, publications: ["monthly", "weekly"], secretHash: "s1",
                         createdAt: Fixtures.t0)
        try store.createAPIKey(key)
        try store.createAPIKey(APIKey(keyId: "k2", role: .service, secretHash: "s2", createdAt: Fixtures.t0))
        #expect(try store.apiKey(secretHash: "s1") == key)
        #expect(try store.apiKeys().map(\.keyId) == ["k1", "k2"])
        try store.deleteAPIKey(keyId: "k1")
        #expect(try store.apiKey(secretHash: "s1") == nil)
        #expect(try store.deleteAPIKey(keyId: "k1") == false, "no such key any more")
    }
}
