import GatewayStore

/// The versioned schema. `PRAGMA user_version` holds how many migrations a database has had;
/// opening applies the missing ones in order, all in one transaction. Migrations are only
/// ever appended: an existing entry never changes once released.
enum SQLiteSchema {
    /// SQLite's own steps, as released, then the steps written once for both backends.
    static let migrations: [SQLiteMigration] = ownMigrations
        + SharedMigration.all.map(SQLiteMigration.init(shared:))

    /// Released before schema steps were written once (`SharedMigration`): never append here.
    private static let ownMigrations: [SQLiteMigration] = [
        // 1: the catalog, accounts, keys, App Store facts, notification dedupe.
        SQLiteMigration(schema: """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) STRICT;
        INSERT INTO meta (key, value) VALUES ('catalog_revision', 0);

        CREATE TABLE publications (id TEXT PRIMARY KEY, title TEXT NOT NULL) STRICT;

        -- grants: publication ids joined by ',' (ids are [A-Za-z0-9._-], so never hold one).
        CREATE TABLE products (
            id TEXT PRIMARY KEY, kind TEXT NOT NULL, grants TEXT NOT NULL,
            subscription_group TEXT, level INTEGER, duration TEXT,
            issue_publication_id TEXT, issue_id TEXT, platform TEXT, discontinued_at INTEGER
        ) STRICT;

        CREATE TABLE issues (
            publication_id TEXT NOT NULL REFERENCES publications(id) ON DELETE CASCADE,
            id TEXT NOT NULL, title TEXT NOT NULL, published_at INTEGER NOT NULL,
            free INTEGER NOT NULL, retracted_at INTEGER,
            PRIMARY KEY (publication_id, id)
        ) STRICT;

        CREATE TABLE issue_assets (
            publication_id TEXT NOT NULL, issue_id TEXT NOT NULL, position INTEGER NOT NULL,
            path TEXT NOT NULL, bytes INTEGER, sha256 TEXT,
            PRIMARY KEY (publication_id, issue_id, position),
            FOREIGN KEY (publication_id, issue_id) REFERENCES issues(publication_id, id) ON DELETE CASCADE
        ) STRICT;

        CREATE TABLE accounts (
            id TEXT PRIMARY KEY, token_hash TEXT NOT NULL UNIQUE, app_account_token TEXT UNIQUE,
            created_at INTEGER NOT NULL
        ) STRICT;

        CREATE TABLE api_keys (
            key_id TEXT PRIMARY KEY, role TEXT NOT NULL, publications TEXT NOT NULL,
            secret_hash TEXT NOT NULL UNIQUE, created_at INTEGER NOT NULL
        ) STRICT;

        CREATE TABLE transactions (
            environment TEXT NOT NULL, transaction_id TEXT NOT NULL,
            original_transaction_id TEXT NOT NULL, product_id TEXT NOT NULL,
            purchase_date INTEGER NOT NULL, original_purchase_date INTEGER, expires_date INTEGER,
            revocation_date INTEGER, revocation_reason INTEGER, is_upgraded INTEGER NOT NULL,
            offer TEXT, ownership TEXT NOT NULL, web_order_line_item_id TEXT, subscription_group TEXT,
            app_account_token TEXT, source TEXT NOT NULL, observed_at INTEGER,
            PRIMARY KEY (environment, transaction_id)
        ) STRICT;
        CREATE INDEX transactions_by_subscription ON transactions (environment, original_transaction_id);

        CREATE TABLE renewal_infos (
            environment TEXT NOT NULL, original_transaction_id TEXT NOT NULL, product_id TEXT,
            auto_renew_status INTEGER NOT NULL, auto_renew_product_id TEXT, expiration_intent INTEGER,
            is_in_billing_retry INTEGER NOT NULL, grace_period_expires_date INTEGER,
            price_consent_status INTEGER, source TEXT NOT NULL, observed_at INTEGER,
            PRIMARY KEY (environment, original_transaction_id)
        ) STRICT;

        -- E4: who owns each subscription or single purchase.
        CREATE TABLE owners (
            environment TEXT NOT NULL, original_transaction_id TEXT NOT NULL,
            account_id TEXT NOT NULL REFERENCES accounts(id), bound_at INTEGER NOT NULL,
            PRIMARY KEY (environment, original_transaction_id)
        ) STRICT;
        CREATE INDEX owners_by_account ON owners (account_id);

        CREATE TABLE receipts (
            environment TEXT NOT NULL, original_transaction_id TEXT NOT NULL,
            receipt_data TEXT NOT NULL, updated_at INTEGER NOT NULL,
            PRIMARY KEY (environment, original_transaction_id)
        ) STRICT;

        CREATE TABLE processed_notifications (uuid TEXT PRIMARY KEY, processed_at INTEGER NOT NULL) STRICT;
        """),
        // 2: per-account facts versions; receipts stored once by content, each subscription
        // pointing to its latest (instead of a copy per subscription).
        SQLiteMigration(schema: """
        ALTER TABLE accounts ADD COLUMN facts_version INTEGER NOT NULL DEFAULT 0;

        CREATE TABLE receipt_contents (sha256 TEXT PRIMARY KEY, receipt_data TEXT NOT NULL) STRICT;
        CREATE TABLE latest_receipts (
            environment TEXT NOT NULL, original_transaction_id TEXT NOT NULL,
            receipt_sha256 TEXT NOT NULL REFERENCES receipt_contents(sha256), updated_at INTEGER NOT NULL,
            PRIMARY KEY (environment, original_transaction_id)
        ) STRICT;
        CREATE INDEX latest_receipts_by_receipt ON latest_receipts (receipt_sha256);
        """, data: SQLiteMigration.moveReceiptsToContents),
        // 3: grants beyond the App Store (E21), one row per (source, external_id); access codes
        // (E22), stored only as hashes, in batches.
        SQLiteMigration(schema: """
        CREATE TABLE grants (
            grant_id TEXT PRIMARY KEY, account_id TEXT NOT NULL REFERENCES accounts(id),
            source TEXT NOT NULL, external_id TEXT NOT NULL, publications TEXT NOT NULL, issue_id TEXT,
            start INTEGER NOT NULL, end_at INTEGER, revoked_at INTEGER, note TEXT, created_at INTEGER NOT NULL,
            UNIQUE (source, external_id)
        ) STRICT;
        CREATE INDEX grants_by_account ON grants (account_id);

        CREATE TABLE code_batches (
            batch_id TEXT PRIMARY KEY, publication_id TEXT NOT NULL, issue_id TEXT, duration TEXT,
            expires_at INTEGER, created_at INTEGER NOT NULL, revoked_at INTEGER
        ) STRICT;
        CREATE TABLE access_codes (
            code_hash TEXT PRIMARY KEY, batch_id TEXT NOT NULL REFERENCES code_batches(batch_id),
            redeemed_by TEXT REFERENCES accounts(id), redeemed_at INTEGER
        ) STRICT;
        CREATE INDEX access_codes_by_batch ON access_codes (batch_id);
        """),
        // 4 (history): every fact as it arrived on an account, appended in the unit of work that
        // stores the fact (sequence: order of arrival, the history's cursor). Databases older than
        // this have no history of their past: it starts with this migration.
        SQLiteMigration(schema: """
        CREATE TABLE history_events (
            sequence INTEGER PRIMARY KEY AUTOINCREMENT, account_id TEXT NOT NULL REFERENCES accounts(id),
            at INTEGER NOT NULL, kind TEXT NOT NULL, source TEXT NOT NULL, details TEXT NOT NULL
        ) STRICT;
        CREATE INDEX history_events_by_account ON history_events (account_id, sequence);
        """),
        // 5 (serverapi): subscriptions whose whole transaction history was fetched from the App
        // Store Server API (fetched once); instants of background work's last success by name
        // (the notification backfill's window starts there).
        SQLiteMigration(schema: """
        CREATE TABLE fetched_histories (
            environment TEXT NOT NULL, original_transaction_id TEXT NOT NULL, fetched_at INTEGER NOT NULL,
            PRIMARY KEY (environment, original_transaction_id)
        ) STRICT;
        CREATE TABLE service_marks (name TEXT PRIMARY KEY, at INTEGER NOT NULL) STRICT;
        """),
        // 6 (push): reader devices for APNs (a token names one install, so one account); the
        // webhook outbox, delivered in `seq` order; publication events fired once per issue (the
        // row is the proof, also across processes); push jobs that page through entitled
        // accounts with a resumable cursor. Leases let one process at a time work a row.
        SQLiteMigration(schema: """
        CREATE TABLE devices (
            apns_token TEXT PRIMARY KEY, account_id TEXT NOT NULL REFERENCES accounts(id),
            environment TEXT NOT NULL, platform TEXT NOT NULL, registered_at INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX devices_by_account ON devices (account_id);

        CREATE TABLE outbox (
            seq INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,
            account_id TEXT, body TEXT NOT NULL, created_at INTEGER NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at INTEGER NOT NULL,
            lease_owner TEXT, lease_until INTEGER
        ) STRICT;

        CREATE TABLE publication_events (
            publication_id TEXT NOT NULL, issue_id TEXT NOT NULL, published_at INTEGER NOT NULL,
            fired_at INTEGER NOT NULL, pushed INTEGER NOT NULL,
            PRIMARY KEY (publication_id, issue_id)
        ) STRICT;

        CREATE TABLE push_jobs (
            job_id INTEGER PRIMARY KEY AUTOINCREMENT, publication_id TEXT NOT NULL, issue_id TEXT NOT NULL,
            cursor TEXT, created_at INTEGER NOT NULL, finished_at INTEGER,
            lease_owner TEXT, lease_until INTEGER
        ) STRICT;
        """),
    ]

    static var currentVersion: Int { migrations.count }

    /// Brings the database to `currentVersion`. Refuses a database written by a newer gateway.
    static func migrate(_ connection: SQLiteConnection) throws(StoreError) {
        try connection.writeTransaction { () throws(StoreError) in
            let version = try userVersion(connection)
            guard version <= currentVersion else {
                connection.log.failure("database schema version \(version) is newer than this gateway's \(currentVersion)")
                throw .failed
            }
            for index in version..<currentVersion {
                try connection.execute(migrations[index].schema)
                try migrations[index].data?(connection)
                if !migrations[index].final.isEmpty { try connection.execute(migrations[index].final) }
                try connection.execute("PRAGMA user_version = \(index + 1)")
            }
        }
    }

    static func userVersion(_ connection: SQLiteConnection) throws(StoreError) -> Int {
        try connection.queryFirst("PRAGMA user_version") { $0.int(0) } ?? 0
    }
}
