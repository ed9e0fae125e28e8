import Testing
import Entitle
import IssueCatalog
import Wire

@Test func transactionIdentityIncludesEnvironment() {
    let t = Instant(millisecondsSinceEpoch: 0)
    let a = Transaction(environment: .production, transactionId: "1", originalTransactionId: "1", productId: "p", purchaseDate: t, source: .receipt)
    var b = a
    b.environment = .sandbox
    #expect(a.key != b.key)
}
