import Entitle
import IssueCatalog
import Wire

/// E4: binding subscriptions and single purchases to accounts.
enum Ownerships {
    struct Binding { var owner: String?; var previousOwner: String? }

    static func owner(_ key: SubscriptionKey, _ c: SQLiteConnection) throws(StoreError) -> String? {
        try c.queryFirst("SELECT account_id FROM owners WHERE environment = ? AND original_transaction_id = ?",
                         [.text(key.environment.rawValue), .text(key.originalTransactionId)]) { $0.text(0) }
    }

    static func accountExists(_ id: String, _ c: SQLiteConnection) throws(StoreError) -> Bool {
        try c.queryFirst("SELECT 1 FROM accounts WHERE id = ?", [.text(id)]) { _ in true } ?? false
    }

    /// The account an `appAccountToken` on the subscription's newest token-carrying transaction names.
    static func tokenAccount(_ key: SubscriptionKey, _ c: SQLiteConnection) throws(StoreError) -> String? {
        try c.queryFirst("""
            SELECT a.id FROM transactions t JOIN accounts a ON a.app_account_token = t.app_account_token
            WHERE t.environment = ? AND t.original_transaction_id = ?
            ORDER BY t.purchase_date DESC, t.transaction_id DESC LIMIT 1
            """, [.text(key.environment.rawValue), .text(key.originalTransactionId)]) { $0.text(0) }
    }

    /// Records who owns `key` after an ingest by `requester` (nil: a notification), as E4's
    /// `OwnershipRule` decides.
    static func bind(_ key: SubscriptionKey, to requester: String?, policy: OwnershipPolicy, at instant: Instant,
                     _ c: SQLiteConnection) throws(StoreError) -> Binding {
        let current = try owner(key, c)
        switch OwnershipRule.decide(current: current, tokenAccount: try tokenAccount(key, c), requester: requester,
                                    policy: policy) {
        case .unchanged(let owner):
            return Binding(owner: owner, previousOwner: nil)
        case .refuse(let owner):
            throw .ownedByOtherAccount(accountId: owner)
        case .bind(let target, let previous):
            try c.run("""
                INSERT OR REPLACE INTO owners (environment, original_transaction_id, account_id, bound_at)
                VALUES (?, ?, ?, ?)
                """, [.text(key.environment.rawValue), .text(key.originalTransactionId), .text(target),
                      .integer(instant.millisecondsSinceEpoch)])
            return Binding(owner: target, previousOwner: previous)
        }
    }
}
