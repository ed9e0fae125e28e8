/// The schema steps written once for both backends, oldest first. Each backend applies its own
/// released steps (`SQLiteSchema`, `PostgresSchema`: history, databases in the field have them)
/// and then these, so from here on a schema change is one value, here.
///
/// To add a column, append one value and change the table's `…Rows` file (its column list, its
/// mapping, its writes); nothing else. For example, the store a product is sold in (step 1 does
/// this, beside rebuilding `transactions`):
///
///     """
///     ALTER TABLE products ADD COLUMN store \(.key) NOT NULL DEFAULT 'appStore';
///     ALTER TABLE products ADD COLUMN store_product_id \(.key);
///     UPDATE products SET store_product_id = id;
///     """,
///
/// with, in `Rows/CatalogRows.swift`, `store, store_product_id` added to `productColumns`, read in
/// `RecordRows.product` and written in `save(_ p: Product)`'s `set:`. A new table ends with
/// `\(.tableOptions)` after its closing parenthesis. Never edit or reorder a released entry:
/// only append.
extension SharedMigration {
    public static let all: [SharedMigration] = [
        // 1: E1 as amended: a transaction is (store, environment, transaction_id). A primary key
        // cannot be altered in place in SQLite, so the table is rebuilt with the new key, every
        // existing row the App Store's. Products name their store and their id there
        // (Vocabulary: Product), backfilled with the product's own id, unique together.
        """
        CREATE TABLE transactions_by_store (
            store \(.key) NOT NULL, environment \(.key) NOT NULL, transaction_id \(.key) NOT NULL,
            original_transaction_id \(.key) NOT NULL, product_id \(.text) NOT NULL,
            purchase_date \(.instant) NOT NULL, original_purchase_date \(.instant), expires_date \(.instant),
            revocation_date \(.instant), revocation_reason \(.integer), is_upgraded \(.boolean) NOT NULL,
            offer \(.text), ownership \(.text) NOT NULL, web_order_line_item_id \(.text), subscription_group \(.text),
            app_account_token \(.text), source \(.text) NOT NULL, observed_at \(.instant),
            PRIMARY KEY (store, environment, transaction_id)
        )\(.tableOptions);
        INSERT INTO transactions_by_store (store, environment, transaction_id, original_transaction_id,
            product_id, purchase_date, original_purchase_date, expires_date, revocation_date, revocation_reason,
            is_upgraded, offer, ownership, web_order_line_item_id, subscription_group, app_account_token, source,
            observed_at)
        SELECT 'appStore', environment, transaction_id, original_transaction_id,
            product_id, purchase_date, original_purchase_date, expires_date, revocation_date, revocation_reason,
            is_upgraded, offer, ownership, web_order_line_item_id, subscription_group, app_account_token, source,
            observed_at
        FROM transactions;
        DROP TABLE transactions;
        ALTER TABLE transactions_by_store RENAME TO transactions;
        CREATE INDEX transactions_by_subscription ON transactions (environment, original_transaction_id);

        ALTER TABLE products ADD COLUMN store \(.key) NOT NULL DEFAULT 'appStore';
        ALTER TABLE products ADD COLUMN store_product_id \(.key);
        UPDATE products SET store_product_id = id;
        CREATE UNIQUE INDEX products_by_store_product ON products (store, store_product_id);
        """,
        // 2: E1 and E23: a subscription is (store, environment, original_transaction_id), as its
        // transactions are since step 1. Every table keyed by subscription is rebuilt with the
        // store in its primary key, every existing row the App Store's (the column's default),
        // and the transactions' subscription index leads with the store, as the joins do.
        """
        \(keyedByStore("renewal_infos", [
            ("product_id", "\(.text)"), ("auto_renew_status", "\(.boolean) NOT NULL"),
            ("auto_renew_product_id", "\(.text)"), ("expiration_intent", "\(.integer)"),
            ("is_in_billing_retry", "\(.boolean) NOT NULL"), ("grace_period_expires_date", "\(.instant)"),
            ("price_consent_status", "\(.integer)"), ("source", "\(.text) NOT NULL"), ("observed_at", "\(.instant)"),
        ]))
        \(keyedByStore("owners", [
            ("account_id", "\(.key) NOT NULL REFERENCES accounts(id)"), ("bound_at", "\(.instant) NOT NULL"),
        ]))
        CREATE INDEX owners_by_account ON owners (account_id);
        \(keyedByStore("latest_receipts", [
            ("receipt_sha256", "\(.text) NOT NULL REFERENCES receipt_contents(sha256)"), ("updated_at", "\(.instant) NOT NULL"),
        ]))
        CREATE INDEX latest_receipts_by_receipt ON latest_receipts (receipt_sha256);
        \(keyedByStore("fetched_histories", [("fetched_at", "\(.instant) NOT NULL")]))
        DROP INDEX transactions_by_subscription;
        CREATE INDEX transactions_by_subscription ON transactions (store, environment, original_transaction_id);
        """,
        // E24 and E27: how a transaction was revoked (a `RevocationKind`; NULL with a revocation
        // date is a full refund, as every row before this step) and the share returned, in
        // thousandths of a percent; when a subscription was paused, and when the store resumes it.
        """
        ALTER TABLE transactions ADD COLUMN revocation_type \(.text);
        ALTER TABLE transactions ADD COLUMN revocation_percentage \(.integer);
        ALTER TABLE renewal_infos ADD COLUMN paused_at \(.instant);
        ALTER TABLE renewal_infos ADD COLUMN resumes_at \(.instant);
        """,
        // Webhook outbox ordered per account only, with a dead-letter list: an event that failed
        // for the configured time since its first failure is set aside (`dead_lettered_at`) with
        // its last failure, until an operator replays it; the lane index finds each account's
        // oldest waiting event.
        """
        ALTER TABLE outbox ADD COLUMN first_failed_at \(.instant);
        ALTER TABLE outbox ADD COLUMN dead_lettered_at \(.instant);
        ALTER TABLE outbox ADD COLUMN last_failure \(.text);
        CREATE INDEX outbox_by_lane ON outbox (account_id, seq);
        """,
        // Apple's fields added since 2024, on transactions and renewal infos: the app download's
        // `appTransactionId` and the offer's `offerPeriod` (an ISO 8601 duration), kept as Apple
        // sent them.
        """
        ALTER TABLE transactions ADD COLUMN app_transaction_id \(.text);
        ALTER TABLE transactions ADD COLUMN offer_period \(.text);
        ALTER TABLE renewal_infos ADD COLUMN app_transaction_id \(.text);
        ALTER TABLE renewal_infos ADD COLUMN offer_period \(.text);
        """,
        // Stripe (E23): the customer (`cus_…`) each subscription or purchase was bought by, so
        // support can look an account up by the customer id Stripe's dashboard shows.
        """
        CREATE TABLE store_customers (
            store \(.key) NOT NULL, environment \(.key) NOT NULL, original_transaction_id \(.key) NOT NULL,
            customer_id \(.key) NOT NULL,
            PRIMARY KEY (store, environment, original_transaction_id)
        )\(.tableOptions);
        CREATE INDEX store_customers_by_customer ON store_customers (store, environment, customer_id);
        """,
        // Print subscribers (E29): each publication's subscriber list, one row per (publication,
        // customer number); the verification value only as a keyed hash; `list_id` names the last
        // list (whole or changes) that gave the row, so a whole list can end the rows it did not
        // name and notice a number given twice. Every list received, with its counts, for the
        // console.
        """
        CREATE TABLE print_subscribers (
            publication_id \(.key) NOT NULL, customer_number \(.key) NOT NULL,
            verification_hash \(.text) NOT NULL, start \(.instant) NOT NULL, end_at \(.instant),
            list_id \(.key) NOT NULL, updated_at \(.instant) NOT NULL,
            PRIMARY KEY (publication_id, customer_number)
        )\(.tableOptions);
        CREATE INDEX print_subscribers_by_list ON print_subscribers (publication_id, list_id);
        CREATE TABLE subscriber_imports (
            list_id \(.key) PRIMARY KEY, publication_id \(.key) NOT NULL, kind \(.text) NOT NULL,
            received_at \(.instant) NOT NULL, finished_at \(.instant),
            added \(.integer) NOT NULL, changed \(.integer) NOT NULL, ended \(.integer) NOT NULL,
            unchanged \(.integer) NOT NULL, rejected \(.integer) NOT NULL
        )\(.tableOptions);
        CREATE INDEX subscriber_imports_by_time ON subscriber_imports (received_at);
        """,
        // Institutions (E30): an institution's publications, network ranges (CIDR, checked and
        // refused when they overlap another's above the store) and interval.
        """
        CREATE TABLE institutions (
            institution_id \(.key) PRIMARY KEY, name \(.text) NOT NULL, publications \(.text) NOT NULL,
            networks \(.text) NOT NULL, start \(.instant) NOT NULL, end_at \(.instant), created_at \(.instant) NOT NULL
        )\(.tableOptions);
        """,
        // Google Play, E28: purchases the gateway verified and Google has not confirmed as
        // acknowledged, retried until it does (Google refunds a purchase left 3 days).
        """
        CREATE TABLE googleplay_acknowledgements (
            package_name \(.key) NOT NULL, purchase_token \(.key) NOT NULL, product_id \(.text) NOT NULL,
            is_subscription \(.boolean) NOT NULL, first_seen \(.instant) NOT NULL, attempts \(.integer) NOT NULL,
            next_attempt \(.instant) NOT NULL,
            PRIMARY KEY (package_name, purchase_token)
        )\(.tableOptions);
        """,
        // Google Play, E25: the subscription snapshots the gateway fetched, one row per change in
        // what Google answered for a token (a fetch that says the same as the token's newest row
        // adds none), numbered per token in the order they were kept (two may share an instant),
        // from which periods are built when the Orders API refuses.
        """
        CREATE TABLE googleplay_snapshots (
            package_name \(.key) NOT NULL, purchase_token \(.key) NOT NULL, seq \(.integer) NOT NULL,
            observed_at \(.instant) NOT NULL, state \(.text) NOT NULL, latest_order_id \(.text), expiry_time \(.instant),
            start_time \(.instant), product_id \(.text), linked_purchase_token \(.text), cancellation \(.text),
            revoked_at \(.instant),
            PRIMARY KEY (package_name, purchase_token, seq)
        )\(.tableOptions);
        """,
        // Print subscriber lists (E29): why a list was refused part way (a header it could not
        // read, a store that failed), recorded with its end; null for a list that finished.
        """
        ALTER TABLE subscriber_imports ADD COLUMN refusal \(.text);
        """,
        // Institutions (E30): the accounts an institution's grant was given to on an account
        // route, one row per (account, institution), with when and from which client address it
        // was first given; its history event is written with the row, so at most once per pair.
        // Looked up by institution when one is changed or deleted.
        """
        CREATE TABLE institution_accounts (
            account_id \(.key) NOT NULL REFERENCES accounts(id),
            institution_id \(.key) NOT NULL REFERENCES institutions(institution_id),
            first_seen \(.instant) NOT NULL, address \(.text) NOT NULL,
            PRIMARY KEY (account_id, institution_id)
        )\(.tableOptions);
        CREATE INDEX institution_accounts_by_institution ON institution_accounts (institution_id);
        """,
        // Google Play, E25: whether a transaction's period was built from the subscription
        // snapshots (the Orders API did not report it), so a reported period is never replaced
        // by a built one; every row stored before was reported.
        """
        ALTER TABLE transactions ADD COLUMN period_built \(.boolean) NOT NULL DEFAULT FALSE;
        """,
        // Google Play (http-api.md, `GET /v1/lookup?purchaseToken=`): a token's snapshots found
        // by the token alone (the lookup names no package), to walk its `linkedPurchaseToken` chain.
        """
        CREATE INDEX googleplay_snapshots_by_token ON googleplay_snapshots (purchase_token);
        """,
        // Print subscriber lists (E29): the list of a publication being applied, one at a time
        // across processes, held until a time its batches renew (a process that dies lets go).
        """
        CREATE TABLE subscriber_list_locks (
            publication_id \(.key) PRIMARY KEY, list_id \(.key) NOT NULL, held_until \(.instant) NOT NULL
        )\(.tableOptions);
        """,
        // Sign-in nonces (readers.md E31): each issued nonce as the SHA-256 of its text, live until
        // it expires, used up by the first sign-in that presents it. Rows past their expiry are
        // deleted as new nonces are issued.
        """
        CREATE TABLE sign_in_nonces (
            nonce_hash \(.key) PRIMARY KEY, expires_at \(.instant) NOT NULL, used_at \(.instant)
        )\(.tableOptions);
        CREATE INDEX sign_in_nonces_by_expiry ON sign_in_nonces (expires_at);
        """,
        // Deletion (readers.md E35): when an account was deleted. Its row stays (its history and
        // grants refer to it) under a token hash no secret has; no lookup finds it any more.
        """
        ALTER TABLE accounts ADD COLUMN deleted_at \(.instant);
        """,
        // E36: what decides an issue's circulation, per account, derived from its facts by the
        // engine (`CirculationDerivation`) and rewritten in the unit of work that changes them:
        // intervals that entitle what is published inside (kind 0), starts of stretches that
        // unlock (kind 1, `end_at` = `start_at`), single issues (kind 2, `issue_id`). One index
        // answers an issue: (publication, kind, issue, end) ranges.
        """
        CREATE TABLE circulation_evidence (
            account_id \(.key) NOT NULL, publication_id \(.key) NOT NULL, kind \(.integer) NOT NULL,
            start_at \(.instant) NOT NULL, end_at \(.instant) NOT NULL, issue_id \(.key) NOT NULL,
            basis \(.integer) NOT NULL, store \(.text), product_id \(.text), subscription_id \(.text) NOT NULL,
            began_at \(.instant) NOT NULL
        )\(.tableOptions);
        CREATE INDEX circulation_evidence_by_issue ON circulation_evidence (publication_id, kind, issue_id, end_at);
        CREATE INDEX circulation_evidence_by_account ON circulation_evidence (account_id);
        CREATE TABLE circulation_state (
            id \(.integer) PRIMARY KEY, fingerprint \(.text) NOT NULL
        )\(.tableOptions);
        """,
        // E36: download records, per reader (an account or an institution) and issue: the first
        // and last instant a download token or CDN-native URL was handed out, and how many.
        """
        CREATE TABLE download_records (
            reader \(.key) NOT NULL, reader_id \(.key) NOT NULL, publication_id \(.key) NOT NULL,
            issue_id \(.key) NOT NULL, first_at \(.instant) NOT NULL, last_at \(.instant) NOT NULL,
            downloads \(.integer) NOT NULL,
            PRIMARY KEY (reader, reader_id, publication_id, issue_id)
        )\(.tableOptions);
        CREATE INDEX download_records_by_issue ON download_records (publication_id, issue_id);
        """,
        // E37: each store subscription's paid, trial and grace periods per product, derived from
        // the facts in the unit of work that changes them (`SubscriptionIntervals`), so a series
        // over a publication is an indexed read per product, in subscription order, of the index
        // alone (it covers every column a series reads), and a sweep; `reports rebuild` makes them again.
        // Keyed by subscription (a deleted account's store subscriptions stay counted, decision 89).
        """
        CREATE TABLE subscriber_intervals (
            store \(.key) NOT NULL, environment \(.key) NOT NULL, original_transaction_id \(.key) NOT NULL,
            store_product_id \(.key) NOT NULL, kind \(.key) NOT NULL, start \(.instant) NOT NULL,
            end_at \(.instant) NOT NULL, account_id \(.key) NOT NULL,
            PRIMARY KEY (store, environment, original_transaction_id, store_product_id, kind, start)
        )\(.tableOptions);
        CREATE INDEX subscriber_intervals_by_product
            ON subscriber_intervals (store, store_product_id, environment, original_transaction_id, kind, start, end_at,
                                     account_id);
        """,
        // Readers (readers.md, E31–E34): every account token is a session. Each existing
        // account's token becomes its first session (no device, last used when this step runs,
        // so no reader is signed out by the upgrade), and the account's own column no longer
        // holds a secret's hash (it is NOT NULL UNIQUE and SQLite cannot drop it in place: it
        // holds the id). Identities (provider, subject) held by one account, link codes by
        // hash, and an account's merge into another (E32).
        """
        CREATE TABLE sessions (
            session_id \(.key) PRIMARY KEY, account_id \(.key) NOT NULL REFERENCES accounts(id),
            token_hash \(.key) NOT NULL UNIQUE, device_id \(.text), device_name \(.text), device_platform \(.text),
            identity_provider \(.key), identity_subject \(.key),
            created_at \(.instant) NOT NULL, last_used_at \(.instant) NOT NULL, ended_at \(.instant)
        )\(.tableOptions);
        CREATE INDEX sessions_by_account ON sessions (account_id);
        CREATE INDEX sessions_by_identity ON sessions (identity_provider, identity_subject);
        INSERT INTO sessions (session_id, account_id, token_hash, created_at, last_used_at)
            SELECT 'sess-' || id, id, token_hash, created_at, \(.currentInstant) FROM accounts;
        UPDATE accounts SET token_hash = id;
        ALTER TABLE accounts ADD COLUMN merged_into \(.key);
        ALTER TABLE accounts ADD COLUMN merged_at \(.instant);
        CREATE TABLE identities (
            provider \(.key) NOT NULL, subject \(.key) NOT NULL, account_id \(.key) NOT NULL REFERENCES accounts(id),
            email \(.text), email_verified \(.boolean), is_private_email \(.boolean), real_user_status \(.integer),
            created_at \(.instant) NOT NULL,
            PRIMARY KEY (provider, subject)
        )\(.tableOptions);
        CREATE INDEX identities_by_account ON identities (account_id);
        CREATE INDEX identities_by_email ON identities (lower(email));
        CREATE TABLE link_codes (
            code_hash \(.key) PRIMARY KEY, account_id \(.key) NOT NULL REFERENCES accounts(id),
            created_at \(.instant) NOT NULL, expires_at \(.instant) NOT NULL, used_at \(.instant)
        )\(.tableOptions);
        CREATE INDEX link_codes_by_account ON link_codes (account_id);
        """,
        // Storage: history details stored compacted (`HistoryDetailsText`: the pieces nearly every
        // event repeats, each one control character), the rows stored before compacted in place;
        // read back as the same JSON.
        """
        UPDATE history_events SET details = \(raw: HistoryDetailsText.compactingSQL("details"));
        """,
        // The reports' rows (E36, E37) due: an account whose facts changed, marked in the unit of
        // work that changed them (one upsert) and derived after it commits, by a drain in every
        // process and by each report before it reads (decision 96). `marks` counts the marks since
        // the last derivation (an upsert writes the row, which orders it after a drain's lock).
        """
        CREATE TABLE report_rows_due (
            account_id \(.key) PRIMARY KEY, marks \(.integer) NOT NULL
        )\(.tableOptions);
        """,
        // E36: an issue's circulation read from the index alone, a bounded range per length class.
        // `span` is the class of an interval's length (`RecordRows.evidenceSpanBounds`: at most 8,
        // 32, 100, 370, 800 days, else unbounded; unlocks and single issues are 0), so the
        // intervals holding an instant t of class k end in (t, t + bound]: an old issue no longer
        // scans every row that ends after it. The index holds every column a report reads.
        """
        ALTER TABLE circulation_evidence ADD COLUMN span \(.integer) NOT NULL DEFAULT 0;
        UPDATE circulation_evidence SET span = CASE
            WHEN start_at >= end_at - 691200000 THEN 0 WHEN start_at >= end_at - 2764800000 THEN 1
            WHEN start_at >= end_at - 8640000000 THEN 2 WHEN start_at >= end_at - 31968000000 THEN 3
            WHEN start_at >= end_at - 69120000000 THEN 4 ELSE 5 END;
        DROP INDEX circulation_evidence_by_issue;
        CREATE INDEX circulation_evidence_by_window ON circulation_evidence
            (publication_id, kind, issue_id, span, end_at, start_at, account_id, basis, store, product_id, subscription_id,
             began_at);
        """,
        // An account's facts read in order without a sort (decision 113): its subscriptions in
        // the order the reads give them (environment, store, original transaction), the index
        // unique as the owners' key is, so a join on it is known to keep that order.
        """
        DROP INDEX owners_by_account;
        CREATE UNIQUE INDEX owners_by_account ON owners (account_id, environment, store, original_transaction_id);
        """,
        evidenceJoined,
        // Storage (decision 118): a subscription's transactions are one row, packed
        // (`PackedTransactions`), beside the greatest expiry the status poller reads as an index
        // range and the product ids a push's audience is matched against. A transaction's
        // identity (E1) finds its subscription in `transaction_keys`, a b-tree of the key alone on
        // SQLite. The released rows are packed in code, in this step's transaction
        // (`TransactionsPacking`); the keys are copied in their order, which fills the pages.
        .converting("""
            CREATE TABLE subscription_facts (
                store \(.key) NOT NULL, environment \(.key) NOT NULL, original_transaction_id \(.key) NOT NULL,
                latest_expires \(.instant), product_ids \(.key) NOT NULL, facts \(.bytes) NOT NULL,
                PRIMARY KEY (store, environment, original_transaction_id)
            )\(.tableOptions);
            CREATE INDEX subscription_facts_by_expiry ON subscription_facts (store, latest_expires);
            CREATE TABLE transaction_keys (
                store \(.key) NOT NULL, environment \(.key) NOT NULL, transaction_id \(.key) NOT NULL,
                original_transaction_id \(.key) NOT NULL,
                PRIMARY KEY (store, environment, transaction_id)
            )\(.keyTableOptions);
            INSERT INTO transaction_keys (store, environment, transaction_id, original_transaction_id)
                SELECT store, environment, transaction_id, original_transaction_id FROM transactions
                ORDER BY store, environment, transaction_id;
            """, with: .packTransactions, then: "DROP TABLE transactions;"),
    ]

    /// E36: touching intervals that report alike are stored as one row (`CirculationIntervalJoin`,
    /// decision 120): every account holding interval evidence is marked due (a mark already there
    /// is kept as it is), so the drain of every process derives its rows again, and a report
    /// drains what is left before it reads.
    public static let evidenceJoined: SharedMigration = """
        INSERT INTO report_rows_due (account_id, marks)
        SELECT id, 1 FROM accounts
        WHERE id IN (SELECT account_id FROM circulation_evidence WHERE kind = 0)
          AND id NOT IN (SELECT account_id FROM report_rows_due);
        """

    /// Step 2's rebuild of a table keyed by subscription (its other columns as released, in
    /// order): the store first, then environment and original transaction id, all three the key.
    /// Part of a released step: never change it.
    private static func keyedByStore(_ table: String, _ columns: [Column]) -> SharedMigration {
        rebuild(table, adding: [("store", "\(.key) NOT NULL DEFAULT 'appStore'")],
                keeping: [("environment", "\(.key) NOT NULL"), ("original_transaction_id", "\(.key) NOT NULL")] + columns,
                primaryKey: ["store", "environment", "original_transaction_id"])
    }
}
