import Entitle
import IssueCatalog
import Wire

/// One subscription's transactions as one value (`subscription_facts.facts`, decision 118),
/// every field of each `Transaction` kept exactly.
///
/// Version 1: a version byte; a string table (count, then each string), which holds every text
/// and enumeration raw value once, so a product id or `notificationV2` repeated by every renewal
/// is stored once; the transaction count; then each transaction in purchase order: a varint of
/// flags (which optional fields are present, the two booleans, how the id and instants are
/// written); its id, as what follows the original transaction id (Google Play's `..N` orders, a
/// first purchase's empty rest), as a number (Apple's decimal ids) or as text; string indexes for
/// its product, ownership and source unless they are the previous one's; its purchase date as a
/// zigzag delta from the previous one's expiry (a renewal starts there) or else its purchase;
/// then each present field in `pack`'s order, instants as zigzag deltas from its purchase date
/// (in seconds when all of the transaction's are whole seconds), integers zigzag, texts and
/// enumerations as string indexes. The store, the environment and the original transaction id
/// are the row's key. Deltas wrap (`&-`, `&+`), so any instant survives.
public enum PackedTransactions {
    static let version: UInt8 = 1

    private struct Flags: OptionSet {
        let rawValue: UInt64
        // The flags most transactions carry first, so theirs fit one byte.
        static let expiresDate = Flags(rawValue: 1 << 0)
        static let observedAt = Flags(rawValue: 1 << 1)
        /// Every instant delta written is in seconds.
        static let wholeSeconds = Flags(rawValue: 1 << 2)
        /// The id is the original transaction id followed by the text written.
        static let idExtendsOriginal = Flags(rawValue: 1 << 3)
        /// The id is the decimal number written (no sign, no leading zero).
        static let idIsNumber = Flags(rawValue: 1 << 4)
        static let originalPurchaseDate = Flags(rawValue: 1 << 5)
        /// Product, ownership and source are the previous transaction's: none written.
        static let sameAsPrevious = Flags(rawValue: 1 << 6)
        static let webOrderLineItemId = Flags(rawValue: 1 << 7)
        static let subscriptionGroup = Flags(rawValue: 1 << 18)
        static let appTransactionId = Flags(rawValue: 1 << 8)
        static let appAccountToken = Flags(rawValue: 1 << 9)
        static let isUpgraded = Flags(rawValue: 1 << 10)
        static let periodBuilt = Flags(rawValue: 1 << 11)
        static let offer = Flags(rawValue: 1 << 12)
        static let offerPeriod = Flags(rawValue: 1 << 13)
        static let revocationDate = Flags(rawValue: 1 << 14)
        static let revocationReason = Flags(rawValue: 1 << 15)
        static let revocationKind = Flags(rawValue: 1 << 16)
        static let revocationPercentage = Flags(rawValue: 1 << 17)
        static let known = Flags(rawValue: (1 << 19) - 1)
    }

    /// The order a subscription's transactions are stored and read in: purchase date, then id
    /// compared byte-wise (`ReadTransaction.transactions(of:)`).
    public static func inOrder(_ transactions: [Transaction]) -> [Transaction] {
        transactions.sorted {
            $0.purchaseDate != $1.purchaseDate ? $0.purchaseDate < $1.purchaseDate
                : $0.transactionId.utf8.lexicographicallyPrecedes($1.transactionId.utf8)
        }
    }

    /// `transactions`, all of one subscription, in `inOrder`'s order.
    public static func pack(_ transactions: [Transaction]) -> [UInt8] {
        let ordered = inOrder(transactions)
        var strings = StringTable()
        var body = PackedWriter()
        body.varint(UInt64(ordered.count))
        var previous: Int64 = 0
        var last: Transaction?
        for t in ordered {
            var flags = Flags()
            if t.originalPurchaseDate != nil { flags.insert(.originalPurchaseDate) }
            if t.expiresDate != nil { flags.insert(.expiresDate) }
            if t.revocationDate != nil { flags.insert(.revocationDate) }
            if t.revocationReason != nil { flags.insert(.revocationReason) }
            if t.revocationKind != nil { flags.insert(.revocationKind) }
            if t.revocationPercentage != nil { flags.insert(.revocationPercentage) }
            if t.isUpgraded { flags.insert(.isUpgraded) }
            if t.offer != nil { flags.insert(.offer) }
            if t.webOrderLineItemId != nil { flags.insert(.webOrderLineItemId) }
            if t.subscriptionGroup != nil { flags.insert(.subscriptionGroup) }
            if t.appAccountToken != nil { flags.insert(.appAccountToken) }
            if t.appTransactionId != nil { flags.insert(.appTransactionId) }
            if t.offerPeriod != nil { flags.insert(.offerPeriod) }
            if t.periodBuilt { flags.insert(.periodBuilt) }
            if t.observedAt != nil { flags.insert(.observedAt) }
            let original = t.originalTransactionId.utf8, id = t.transactionId.utf8
            let number = UInt64(t.transactionId)
            if id.starts(with: original) {
                flags.insert(.idExtendsOriginal)
            } else if let number, String(number) == t.transactionId {
                flags.insert(.idIsNumber)
            }
            let purchase = t.purchaseDate.millisecondsSinceEpoch
            if let last, last.productId == t.productId, last.ownership == t.ownership, last.source == t.source {
                flags.insert(.sameAsPrevious)
            }
            let deltas = [purchase &- previous] + [t.originalPurchaseDate, t.expiresDate, t.revocationDate, t.observedAt]
                .compactMap { $0.map { $0.millisecondsSinceEpoch &- purchase } }
            let unit: Int64 = deltas.allSatisfy { $0 % 1000 == 0 } ? 1000 : 1
            if unit == 1000 { flags.insert(.wholeSeconds) }
            body.varint(flags.rawValue)
            if flags.contains(.idExtendsOriginal) {
                body.string(String(decoding: id.dropFirst(original.count), as: UTF8.self))
            } else if flags.contains(.idIsNumber), let number {
                body.varint(number)
            } else {
                body.string(t.transactionId)
            }
            if !flags.contains(.sameAsPrevious) {
                for text in [t.productId, t.ownership.rawValue, t.source.rawValue] { body.varint(strings.index(text)) }
            }
            body.signed((purchase &- previous) / unit)
            previous = t.expiresDate?.millisecondsSinceEpoch ?? purchase
            last = t
            func instant(_ value: Instant?) { if let value { body.signed((value.millisecondsSinceEpoch &- purchase) / unit) } }
            func integer(_ value: Int?) { if let value { body.signed(Int64(value)) } }
            func text(_ value: String?) { if let value { body.varint(strings.index(value)) } }
            instant(t.originalPurchaseDate); instant(t.expiresDate); instant(t.revocationDate)
            integer(t.revocationReason); text(t.revocationKind?.rawValue); integer(t.revocationPercentage)
            text(t.offer?.rawValue); text(t.webOrderLineItemId); text(t.subscriptionGroup); text(t.appAccountToken)
            text(t.appTransactionId); text(t.offerPeriod?.description); instant(t.observedAt)
        }
        var packed = PackedWriter()
        packed.byte(version)
        packed.varint(UInt64(strings.all.count))
        for string in strings.all { packed.string(string) }
        return packed.bytes + body.bytes
    }

    /// The transactions `pack` packed for `subscription`, in the same order.
    public static func unpack(_ bytes: [UInt8], of subscription: SubscriptionKey) throws(PackingError) -> [Transaction] {
        var reader = PackedReader(bytes)
        let found = try reader.byte()
        guard found == version else { throw PackingError(detail: "unknown version \(found)") }
        let stringCount = try reader.count(atMost: bytes.count)
        var strings: [String] = []
        strings.reserveCapacity(stringCount)
        for _ in 0..<stringCount { strings.append(try reader.string()) }
        func string() throws(PackingError) -> String {
            let index = try reader.varint()
            guard index < UInt64(strings.count) else { throw PackingError(detail: "no string \(index)") }
            return strings[Int(index)]
        }
        func decoded<T: RawRepresentable<String>>(_ type: T.Type) throws(PackingError) -> T {
            let raw = try string()
            guard let value = T(rawValue: raw) else { throw PackingError(detail: "unknown \(T.self) \(raw)") }
            return value
        }
        let count = try reader.count(atMost: bytes.count)
        var transactions: [Transaction] = []
        transactions.reserveCapacity(count)
        var previous: Int64 = 0
        for _ in 0..<count {
            let flags = Flags(rawValue: try reader.varint())
            guard Flags.known.isSuperset(of: flags) else { throw PackingError(detail: "unknown flags \(flags.rawValue)") }
            let id: String
            if flags.contains(.idExtendsOriginal) {
                id = subscription.originalTransactionId + (try reader.string())
            } else if flags.contains(.idIsNumber) {
                id = String(try reader.varint())
            } else {
                id = try reader.string()
            }
            let product: String, ownership: Ownership, source: TransactionSource
            if flags.contains(.sameAsPrevious), let last = transactions.last {
                (product, ownership, source) = (last.productId, last.ownership, last.source)
            } else if flags.contains(.sameAsPrevious) {
                throw PackingError(detail: "\(id): no previous transaction")
            } else {
                product = try string(); ownership = try decoded(Ownership.self); source = try decoded(TransactionSource.self)
            }
            let unit: Int64 = flags.contains(.wholeSeconds) ? 1000 : 1
            let purchase = previous &+ (try reader.signed()) &* unit
            func instant(_ flag: Flags) throws(PackingError) -> Instant? {
                flags.contains(flag) ? Instant(millisecondsSinceEpoch: purchase &+ (try reader.signed()) &* unit) : nil
            }
            func integer(_ flag: Flags) throws(PackingError) -> Int? {
                flags.contains(flag) ? Int(truncatingIfNeeded: try reader.signed()) : nil
            }
            func text(_ flag: Flags) throws(PackingError) -> String? { flags.contains(flag) ? try string() : nil }
            let originalPurchaseDate = try instant(.originalPurchaseDate), expiresDate = try instant(.expiresDate)
            let revocationDate = try instant(.revocationDate), revocationReason = try integer(.revocationReason)
            let revocationKind = flags.contains(.revocationKind) ? try decoded(RevocationKind.self) : nil
            let revocationPercentage = try integer(.revocationPercentage)
            let offer = flags.contains(.offer) ? try decoded(OfferKind.self) : nil
            let webOrderLineItemId = try text(.webOrderLineItemId), subscriptionGroup = try text(.subscriptionGroup)
            let appAccountToken = try text(.appAccountToken), appTransactionId = try text(.appTransactionId)
            var offerPeriod: ISODuration?
            if let period = try text(.offerPeriod) {
                guard let parsed = ISODuration(period) else { throw PackingError(detail: "\(id): bad offer period") }
                offerPeriod = parsed
            }
            let observedAt = try instant(.observedAt)
            previous = expiresDate?.millisecondsSinceEpoch ?? purchase
            transactions.append(Transaction(
                store: subscription.store, environment: subscription.environment, transactionId: id,
                originalTransactionId: subscription.originalTransactionId, productId: product,
                purchaseDate: Instant(millisecondsSinceEpoch: purchase), originalPurchaseDate: originalPurchaseDate,
                expiresDate: expiresDate, revocationDate: revocationDate, revocationReason: revocationReason,
                revocationKind: revocationKind, revocationPercentage: revocationPercentage,
                isUpgraded: flags.contains(.isUpgraded), offer: offer, ownership: ownership,
                webOrderLineItemId: webOrderLineItemId, subscriptionGroup: subscriptionGroup,
                appAccountToken: appAccountToken, appTransactionId: appTransactionId, offerPeriod: offerPeriod,
                periodBuilt: flags.contains(.periodBuilt), source: source, observedAt: observedAt))
        }
        guard reader.isAtEnd else { throw PackingError(detail: "bytes after the last transaction") }
        return transactions
    }

    /// Each distinct string once, indexed in order of first use.
    private struct StringTable {
        private(set) var all: [String] = []
        private var indexes: [String: UInt64] = [:]

        mutating func index(_ string: String) -> UInt64 {
            if let index = indexes[string] { return index }
            let index = UInt64(all.count)
            all.append(string)
            indexes[string] = index
            return index
        }
    }
}
