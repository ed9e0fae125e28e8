import Entitle
import IssueCatalog
import Wire

/// The columns each record is read from, and how, for every backend: a backend selects
/// `…Columns` (with its own placeholders in the WHERE clause) and maps each row with the function
/// of the same name. Both schemas give these tables the same column names.
public enum RecordRows {
    // MARK: Id lists

    /// Grants and key scopes are publication ids joined by `idSeparator` (ids are
    /// `[A-Za-z0-9._-]`, so never hold one).
    public static let idSeparator: Character = ","
    public static func joinIds(_ ids: [String]) -> String { ids.joined(separator: String(idSeparator)) }
    public static func splitIds(_ text: String) -> [String] { text.split(separator: idSeparator).map(String.init) }

    // MARK: Accounts and keys

    public static let accountColumns = "SELECT id, token_hash, app_account_token, created_at FROM accounts"
    public static let keyColumns = "SELECT key_id, role, publications, secret_hash, created_at FROM api_keys"

    public static func account(_ row: some StoredRow) -> Account {
        Account(id: row.text(0), tokenHash: row.text(1), appAccountToken: row.optionalText(2), createdAt: row.instant(3))
    }

    public static func apiKey(_ row: some StoredRow) throws(StoreError) -> APIKey {
        APIKey(keyId: row.text(0), role: try row.decode(APIKey.Role.self, 1, of: row.text(0)),
               publications: splitIds(row.text(2)), secretHash: row.text(3), createdAt: row.instant(4))
    }

    // MARK: Catalog

    public static let publicationColumns = "SELECT id, title FROM publications"
    public static let productColumns = """
        SELECT id, kind, grants, subscription_group, level, duration, issue_publication_id, issue_id,
               platform, discontinued_at FROM products
        """
    public static let issueColumns = "SELECT publication_id, id, title, published_at, free, retracted_at FROM issues"
    public static let assetColumns = "SELECT publication_id, issue_id, path, bytes, sha256 FROM issue_assets"

    public static func publication(_ row: some StoredRow) -> Publication { Publication(id: row.text(0), title: row.text(1)) }

    public static func issue(_ row: some StoredRow) -> Issue {
        Issue(publicationId: row.text(0), id: row.text(1), title: row.text(2), publishedAt: row.instant(3),
              free: row.bool(4), retractedAt: row.optionalInstant(5))
    }

    public static func asset(_ row: some StoredRow) -> (IssueRef, Asset) {
        (IssueRef(publicationId: row.text(0), issueId: row.text(1)),
         Asset(path: row.text(2), bytes: row.optionalInt64(3), sha256: row.optionalText(4)))
    }

    public static func product(_ row: some StoredRow) throws(StoreError) -> Product {
        let id = row.text(0)
        let kind = try row.decode(Product.Kind.self, 1, of: id)
        var duration: ISODuration?
        if let text = row.optionalText(5) {
            guard let parsed = ISODuration(text) else { throw row.corrupt("product \(id): bad duration \(text)") }
            duration = parsed
        }
        var issue: IssueRef?
        if let publicationId = row.optionalText(6), let issueId = row.optionalText(7) {
            issue = IssueRef(publicationId: publicationId, issueId: issueId)
        }
        return Product(id: id, kind: kind, grants: splitIds(row.text(2)), subscriptionGroup: row.optionalText(3),
                       level: row.optionalInt(4), duration: duration, issue: issue, platform: row.optionalText(8),
                       discontinuedAt: row.optionalInstant(9))
    }

    // MARK: App Store facts

    public static let transactionColumns = """
        SELECT t.environment, t.transaction_id, t.original_transaction_id, t.product_id, t.purchase_date,
               t.original_purchase_date, t.expires_date, t.revocation_date, t.revocation_reason, t.is_upgraded,
               t.offer, t.ownership, t.web_order_line_item_id, t.subscription_group, t.app_account_token,
               t.source, t.observed_at FROM transactions t
        """

    public static let renewalColumns = """
        SELECT r.environment, r.original_transaction_id, r.product_id, r.auto_renew_status,
               r.auto_renew_product_id, r.expiration_intent, r.is_in_billing_retry,
               r.grace_period_expires_date, r.price_consent_status, r.source, r.observed_at
        FROM renewal_infos r
        """

    public static func transaction(_ row: some StoredRow) throws(StoreError) -> Transaction {
        let id = row.text(1)
        return Transaction(
            environment: try row.decode(StoreEnvironment.self, 0, of: id),
            transactionId: id, originalTransactionId: row.text(2), productId: row.text(3),
            purchaseDate: row.instant(4), originalPurchaseDate: row.optionalInstant(5),
            expiresDate: row.optionalInstant(6), revocationDate: row.optionalInstant(7),
            revocationReason: row.optionalInt(8), isUpgraded: row.bool(9),
            offer: row.isNull(10) ? nil : try row.decode(OfferKind.self, 10, of: id),
            ownership: try row.decode(Ownership.self, 11, of: id), webOrderLineItemId: row.optionalText(12),
            subscriptionGroup: row.optionalText(13), appAccountToken: row.optionalText(14),
            source: try row.decode(TransactionSource.self, 15, of: id), observedAt: row.optionalInstant(16))
    }

    public static func renewalInfo(_ row: some StoredRow) throws(StoreError) -> RenewalInfo {
        let id = row.text(1)
        var intent: ExpirationIntent?
        if let raw = row.optionalInt(5) {
            guard let parsed = ExpirationIntent(rawValue: raw) else { throw row.corrupt("renewal info \(id): bad intent") }
            intent = parsed
        }
        return RenewalInfo(
            environment: try row.decode(StoreEnvironment.self, 0, of: id), originalTransactionId: id,
            productId: row.optionalText(2), autoRenewStatus: row.bool(3), autoRenewProductId: row.optionalText(4),
            expirationIntent: intent, isInBillingRetry: row.bool(6), gracePeriodExpiresDate: row.optionalInstant(7),
            priceConsentStatus: row.optionalInt(8), source: try row.decode(TransactionSource.self, 9, of: id),
            observedAt: row.optionalInstant(10))
    }

    /// A poll target from `SELECT environment, original_transaction_id, latest expiry, billing
    /// retry, owner, receipt data`.
    public static func pollTarget(_ row: some StoredRow) throws(StoreError) -> PollTarget {
        PollTarget(
            subscription: SubscriptionKey(environment: try row.decode(StoreEnvironment.self, 0, of: row.text(1)),
                                          originalTransactionId: row.text(1)),
            accountId: row.optionalText(4), latestExpiresDate: row.optionalInstant(2),
            isInBillingRetry: row.bool(3), receiptData: row.optionalText(5))
    }

    // MARK: Grants (E21) and access codes (E22)

    public static let grantColumns = """
        SELECT grant_id, account_id, source, external_id, publications, start, end_at, revoked_at, note, created_at,
               issue_id FROM grants
        """
    public static let batchColumns = "SELECT batch_id, publication_id, issue_id, duration, expires_at, created_at, revoked_at FROM code_batches"
    public static let codeColumns = "SELECT code_hash, batch_id, redeemed_by, redeemed_at FROM access_codes"

    public static func grant(_ row: some StoredRow) -> Grant {
        let publications = splitIds(row.text(4))
        return Grant(grantId: row.text(0), accountId: row.text(1), source: row.text(2), externalId: row.text(3),
                     publications: publications,
                     issue: row.optionalText(10).map { IssueRef(publicationId: publications.first ?? "", issueId: $0) },
                     start: row.instant(5), end: row.optionalInstant(6),
                     revokedAt: row.optionalInstant(7), note: row.optionalText(8), createdAt: row.instant(9))
    }

    public static func batch(_ row: some StoredRow) -> CodeBatch {
        CodeBatch(batchId: row.text(0), publicationId: row.text(1), issueId: row.optionalText(2), duration: row.optionalText(3),
                  expiresAt: row.optionalInstant(4), createdAt: row.instant(5), revokedAt: row.optionalInstant(6))
    }

    public static func code(_ row: some StoredRow) -> AccessCode {
        AccessCode(codeHash: row.text(0), batchId: row.text(1), redeemedBy: row.optionalText(2), redeemedAt: row.optionalInstant(3))
    }
}
