import Testing
import IssueCatalog
import Entitle
import GatewayStore
import TestSupport
import Wire

/// A subscription's transactions packed in one value (decision 118) read back exactly: every
/// field of every transaction, whatever it holds.
@Suite struct PackedTransactionsTests {
    static let key = SubscriptionKey(store: .googlePlay, environment: .sandbox, originalTransactionId: "GPA.1234-ö")
    static let texts = ["", "a", "ö🙂 niño", "monthly.1m", "GPA.3389-1111-2222-33333..0", String(repeating: "x", count: 300)]
    static let instants: [Int64] = [.min, .min + 1, -1, 0, 1, 1_700_000_000_000, .max - 1, .max]

    static func instant(_ rng: inout SplitMix64) -> Instant {
        Instant(millisecondsSinceEpoch: rng.chance(30) ? instants.randomElement(using: &rng)!
                : Int64.random(in: -4_000_000_000_000...4_000_000_000_000, using: &rng))
    }

    static func text(_ rng: inout SplitMix64) -> String {
        rng.chance(50) ? texts.randomElement(using: &rng)! : "id-\(Int.random(in: 0...50, using: &rng))"
    }

    /// Every field drawn independently, each optional present about half the time.
    static func transaction(_ rng: inout SplitMix64) -> Transaction {
        func maybe<T>(_ make: (inout SplitMix64) -> T) -> T? { rng.chance(50) ? make(&rng) : nil }
        func integer(_ rng: inout SplitMix64) -> Int { rng.chance(20) ? [Int.min, Int.max, -1].randomElement(using: &rng)! : Int.random(in: -5...100_000, using: &rng) }
        return Transaction(
            store: key.store, environment: key.environment, transactionId: text(&rng),
            originalTransactionId: key.originalTransactionId, productId: text(&rng), purchaseDate: instant(&rng),
            originalPurchaseDate: maybe(instant), expiresDate: maybe(instant), revocationDate: maybe(instant),
            revocationReason: maybe(integer), revocationKind: maybe { RevocationKind.allCases.randomElement(using: &$0)! },
            revocationPercentage: maybe(integer), isUpgraded: rng.chance(50),
            offer: maybe { OfferKind.allCases.randomElement(using: &$0)! },
            ownership: rng.chance(50) ? .purchased : .familyShared, webOrderLineItemId: maybe(text),
            subscriptionGroup: maybe(text), appAccountToken: maybe(text), appTransactionId: maybe(text),
            offerPeriod: maybe { ISODuration(["P1M", "P1Y", "P2W", "P1DT12H", "P3M"].randomElement(using: &$0)!)! },
            periodBuilt: rng.chance(50), source: TransactionSource.allCases.randomElement(using: &rng)!,
            observedAt: maybe(instant))
    }

    @Test func everyFieldOfGeneratedTransactionsRoundTrips() throws {
        var rng = SplitMix64(seed: 118)
        for round in 0..<400 {
            let count = round % 50 == 0 ? Int.random(in: 200...600, using: &rng) : Int.random(in: 1...12, using: &rng)
            var byId: [String: Transaction] = [:]
            for _ in 0..<count { let t = Self.transaction(&rng); byId[t.transactionId] = t }
            let transactions = Array(byId.values)
            let unpacked = try PackedTransactions.unpack(PackedTransactions.pack(transactions), of: Self.key)
            #expect(unpacked == PackedTransactions.inOrder(transactions))
        }
    }

    @Test func theTransactionsComeInPurchaseOrderThenIdByteWise() throws {
        let at = Instant(millisecondsSinceEpoch: 5)
        let ids = ["b", "a", "B", "é", "a0"]
        let transactions = ids.map {
            Transaction(store: Self.key.store, environment: Self.key.environment, transactionId: $0,
                        originalTransactionId: Self.key.originalTransactionId, productId: "p", purchaseDate: at, source: .rtdn)
        } + [Transaction(store: Self.key.store, environment: Self.key.environment, transactionId: "z",
                         originalTransactionId: Self.key.originalTransactionId, productId: "p",
                         purchaseDate: Instant(millisecondsSinceEpoch: 4), source: .rtdn)]
        let unpacked = try PackedTransactions.unpack(PackedTransactions.pack(transactions), of: Self.key)
        #expect(unpacked.map(\.transactionId) == ["z", "B", "a", "a0", "b", "é"])
    }

    /// Ten years of monthly renewals of each store's shape: the product, source and ownership
    /// stored once, ids as what follows the original (Google Play) or as numbers (Apple),
    /// instants as whole-second deltas.
    @Test(arguments: ["GPA.3389-1111-2222-33333", "2000000100000"])
    func aRenewalTakesAboutADozenBytes(_ original: String) throws {
        func id(_ n: Int64) -> String { Int64(original).map { String($0 + n) } ?? "\(original)..\(n)" }
        let month: Int64 = 30 * 86_400_000, start: Int64 = 1_400_000_000_000
        let key = SubscriptionKey(environment: .production, originalTransactionId: original)
        let renewals = (0..<120).map { (n: Int64) in
            Transaction(environment: .production, transactionId: n == 0 ? original : id(n), originalTransactionId: original,
                        productId: "com.example.monthly", purchaseDate: Instant(millisecondsSinceEpoch: start + n * month),
                        expiresDate: Instant(millisecondsSinceEpoch: start + (n + 1) * month), source: .notificationV2,
                        observedAt: Instant(millisecondsSinceEpoch: start + n * month + 1000))
        }
        let packed = PackedTransactions.pack(renewals)
        #expect(packed.count < 120 * 14)  // about 12 bytes a renewal
        #expect(try PackedTransactions.unpack(packed, of: key) == renewals)
    }

    @Test func aValueCutShortOrOfAnotherVersionIsRefused() {
        var rng = SplitMix64(seed: 7)
        let packed = PackedTransactions.pack((0..<5).map { _ in Self.transaction(&rng) })
        for length in 0..<packed.count {
            #expect(throws: PackingError.self) { try PackedTransactions.unpack(Array(packed.prefix(length)), of: Self.key) }
        }
        #expect(throws: PackingError.self) { try PackedTransactions.unpack([2] + packed.dropFirst(), of: Self.key) }
        #expect(throws: PackingError.self) { try PackedTransactions.unpack(packed + [0], of: Self.key) }
    }
}
