import GatewayStore

/// The versioned schema. `gateway_migrations` holds one row per migration applied; opening
/// applies the missing ones in order, in one transaction, under an advisory lock so that several
/// processes starting at once migrate once. Migrations are only ever appended.
///
/// Text is compared byte-wise (`COLLATE "C"`), as SQLite does, so lists come out in the same
/// order from either backend whatever the database's locale. Instants are milliseconds since
/// 1970 (`BIGINT`), as in the SQLite store.
enum PostgresSchema {
    /// PostgreSQL's own steps, as released, then the steps written once for both backends.
    static let migrations: [SharedMigration] = ownMigrations.map { SharedMigration(stringLiteral: $0) } + SharedMigration.all

    /// Released before schema steps were written once (`SharedMigration`): never append here.
    private static let ownMigrations: [String] = [
        // 1: what SQLite's migrations 1–3 built: the catalog, accounts, keys, App Store facts,
        // notification dedupe, facts versions, receipts stored once by content, grants (E21) and
        // access codes (E22).
        """
        CREATE TABLE meta (key TEXT COLLATE "C" PRIMARY KEY, value BIGINT NOT NULL);
        INSERT INTO meta (key, value) VALUES ('catalog_revision', 0);

        CREATE TABLE publications (id TEXT COLLATE "C" PRIMARY KEY, title TEXT NOT NULL);

        -- grants: publication ids joined by ',' (ids are [A-Za-z0-9._-], so never hold one).
        CREATE TABLE products (
            id TEXT COLLATE "C" PRIMARY KEY, kind TEXT NOT NULL, grants TEXT NOT NULL,
            subscription_group TEXT, level BIGINT, duration TEXT,
            issue_publication_id TEXT, issue_id TEXT, platform TEXT, discontinued_at BIGINT
        );

        CREATE TABLE issues (
            publication_id TEXT COLLATE "C" NOT NULL REFERENCES publications(id) ON DELETE CASCADE,
            id TEXT COLLATE "C" NOT NULL, title TEXT NOT NULL, published_at BIGINT NOT NULL,
            free BOOLEAN NOT NULL, retracted_at BIGINT,
            PRIMARY KEY (publication_id, id)
        );

        CREATE TABLE issue_assets (
            publication_id TEXT COLLATE "C" NOT NULL, issue_id TEXT COLLATE "C" NOT NULL, position BIGINT NOT NULL,
            path TEXT NOT NULL, bytes BIGINT, sha256 TEXT,
            PRIMARY KEY (publication_id, issue_id, position),
            FOREIGN KEY (publication_id, issue_id) REFERENCES issues(publication_id, id) ON DELETE CASCADE
        );

        CREATE TABLE accounts (
            id TEXT COLLATE "C" PRIMARY KEY, token_hash TEXT NOT NULL UNIQUE, app_account_token TEXT UNIQUE,
            created_at BIGINT NOT NULL, facts_version BIGINT NOT NULL DEFAULT 0
        );

        CREATE TABLE api_keys (
            key_id TEXT COLLATE "C" PRIMARY KEY, role TEXT NOT NULL, publications TEXT NOT NULL,
            secret_hash TEXT NOT NULL UNIQUE, created_at BIGINT NOT NULL
        );

        CREATE TABLE transactions (
            environment TEXT COLLATE "C" NOT NULL, transaction_id TEXT COLLATE "C" NOT NULL,
            original_transaction_id TEXT COLLATE "C" NOT NULL, product_id TEXT NOT NULL,
            purchase_date BIGINT NOT NULL, original_purchase_date BIGINT, expires_date BIGINT,
            revocation_date BIGINT, revocation_reason BIGINT, is_upgraded BOOLEAN NOT NULL,
            offer TEXT, ownership TEXT NOT NULL, web_order_line_item_id TEXT, subscription_group TEXT,
            app_account_token TEXT, source TEXT NOT NULL, observed_at BIGINT,
            PRIMARY KEY (environment, transaction_id)
        );
        CREATE INDEX transactions_by_subscription ON transactions (environment, original_transaction_id);

        CREATE TABLE renewal_infos (
            environment TEXT COLLATE "C" NOT NULL, original_transaction_id TEXT COLLATE "C" NOT NULL, product_id TEXT,
            auto_renew_status BOOLEAN NOT NULL, auto_renew_product_id TEXT, expiration_intent BIGINT,
            is_in_billing_retry BOOLEAN NOT NULL, grace_period_expires_date BIGINT,
            price_consent_status BIGINT, source TEXT NOT NULL, observed_at BIGINT,
            PRIMARY KEY (environment, original_transaction_id)
        );

        -- E4: who owns each subscription or single purchase.
        CREATE TABLE owners (
            environment TEXT COLLATE "C" NOT NULL, original_transaction_id TEXT COLLATE "C" NOT NULL,
            account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts(id), bound_at BIGINT NOT NULL,
            PRIMARY KEY (environment, original_transaction_id)
        );
        CREATE INDEX owners_by_account ON owners (account_id);

        CREATE TABLE processed_notifications (uuid TEXT PRIMARY KEY, processed_at BIGINT NOT NULL);

        CREATE TABLE receipt_contents (sha256 TEXT PRIMARY KEY, receipt_data TEXT NOT NULL);
        CREATE TABLE latest_receipts (
            environment TEXT COLLATE "C" NOT NULL, original_transaction_id TEXT COLLATE "C" NOT NULL,
            receipt_sha256 TEXT NOT NULL REFERENCES receipt_contents(sha256), updated_at BIGINT NOT NULL,
            PRIMARY KEY (environment, original_transaction_id)
        );
        CREATE INDEX latest_receipts_by_receipt ON latest_receipts (receipt_sha256);

        CREATE TABLE grants (
            grant_id TEXT COLLATE "C" PRIMARY KEY, account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts(id),
            source TEXT NOT NULL, external_id TEXT NOT NULL, publications TEXT NOT NULL, issue_id TEXT,
            start BIGINT NOT NULL, end_at BIGINT, revoked_at BIGINT, note TEXT, created_at BIGINT NOT NULL,
            UNIQUE (source, external_id)
        );
        CREATE INDEX grants_by_account ON grants (account_id);

        CREATE TABLE code_batches (
            batch_id TEXT COLLATE "C" PRIMARY KEY, publication_id TEXT NOT NULL, issue_id TEXT, duration TEXT,
            expires_at BIGINT, created_at BIGINT NOT NULL, revoked_at BIGINT
        );
        CREATE TABLE access_codes (
            code_hash TEXT COLLATE "C" PRIMARY KEY, batch_id TEXT COLLATE "C" NOT NULL REFERENCES code_batches(batch_id),
            redeemed_by TEXT REFERENCES accounts(id), redeemed_at BIGINT
        );
        CREATE INDEX access_codes_by_batch ON access_codes (batch_id);
        """,
        // 2 (change feed): every change other processes' caches must hear of, in commit order
        // (`PostgresChangeLog`); committed_at (the server's clock, ms) only for pruning.
        """
        CREATE TABLE change_log (
            sequence BIGSERIAL PRIMARY KEY, kind TEXT NOT NULL, key TEXT NOT NULL, committed_at BIGINT NOT NULL
        );
        CREATE INDEX change_log_by_time ON change_log (committed_at);
        """,
        // 3 (history; SQLite's 4): every fact as it arrived on an account, appended in the unit of
        // work that stores the fact (sequence: order of arrival, the history's cursor; why it is
        // also commit order within an account: `PostgresWriteHooks.lockHistory`). Databases older than
        // this have no history of their past: it starts with this migration.
        """
        CREATE TABLE history_events (
            sequence BIGSERIAL PRIMARY KEY, account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts(id),
            at BIGINT NOT NULL, kind TEXT NOT NULL, source TEXT NOT NULL, details TEXT NOT NULL
        );
        CREATE INDEX history_events_by_account ON history_events (account_id, sequence);
        """,
        // 4 (serverapi; SQLite's 5): subscriptions whose whole transaction history was fetched from
        // the App Store Server API (fetched once); instants of background work's last success by
        // name (the notification backfill's window starts there).
        """
        CREATE TABLE fetched_histories (
            environment TEXT COLLATE "C" NOT NULL, original_transaction_id TEXT COLLATE "C" NOT NULL,
            fetched_at BIGINT NOT NULL,
            PRIMARY KEY (environment, original_transaction_id)
        );
        CREATE TABLE service_marks (name TEXT COLLATE "C" PRIMARY KEY, at BIGINT NOT NULL);
        """,
        // 5 (push; SQLite's 6): reader devices for APNs (a token names one install, so one
        // account); the webhook outbox, delivered in `seq` order; publication events fired once per
        // issue (the row is the proof, also across processes); push jobs that page through
        // entitled accounts with a resumable cursor. Leases let one process at a time work a row.
        // The publication events' baseline is a row of `meta`.
        """
        CREATE TABLE devices (
            apns_token TEXT COLLATE "C" PRIMARY KEY, account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts(id),
            environment TEXT NOT NULL, platform TEXT NOT NULL, registered_at BIGINT NOT NULL
        );
        CREATE INDEX devices_by_account ON devices (account_id);

        CREATE TABLE outbox (
            seq BIGSERIAL PRIMARY KEY, event_id TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,
            account_id TEXT, body TEXT NOT NULL, created_at BIGINT NOT NULL,
            attempts BIGINT NOT NULL DEFAULT 0, next_attempt_at BIGINT NOT NULL,
            lease_owner TEXT, lease_until BIGINT
        );

        CREATE TABLE publication_events (
            publication_id TEXT COLLATE "C" NOT NULL, issue_id TEXT COLLATE "C" NOT NULL, published_at BIGINT NOT NULL,
            fired_at BIGINT NOT NULL, pushed BOOLEAN NOT NULL,
            PRIMARY KEY (publication_id, issue_id)
        );

        CREATE TABLE push_jobs (
            job_id BIGSERIAL PRIMARY KEY, publication_id TEXT COLLATE "C" NOT NULL, issue_id TEXT COLLATE "C" NOT NULL,
            cursor TEXT, created_at BIGINT NOT NULL, finished_at BIGINT,
            lease_owner TEXT, lease_until BIGINT
        );
        """,
    ]

    static var currentVersion: Int { migrations.count }

    /// An arbitrary constant naming the migration lock among the database's advisory locks.
    static let migrationLock: Int64 = 0x6973_7375_6567_7731

    /// Brings the database to `currentVersion`. Refuses a database written by a newer gateway.
    static func migrate(_ connection: PostgresConnection) throws(StoreError) {
        try connection.transaction("BEGIN") { () throws(StoreError) in
            // The statement timeout bounds what a request may wait for; a migration rebuilding a
            // large table, or waiting for another process's migration, must not be cut short by it.
            try connection.execute("SET LOCAL statement_timeout = 0")
            try connection.execute("SELECT pg_advisory_xact_lock(\(migrationLock))")
            try connection.execute("""
                CREATE TABLE IF NOT EXISTS gateway_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)
                """)
            let applied = try version(connection)
            guard applied <= currentVersion else {
                connection.log.failure("database schema version \(applied) is newer than this gateway's \(currentVersion)")
                throw .failed
            }
            for index in applied..<currentVersion {
                try connection.execute(migrations[index].sql(for: .postgres))
                if let data = migrations[index].data {
                    try data.run(on: connection)
                    try connection.execute(migrations[index].finalSQL(for: .postgres))
                }
                try connection.run("""
                    INSERT INTO gateway_migrations (version, applied_at)
                    VALUES (\(index + 1), (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT)
                    """)
            }
        }
    }

    static func version(_ connection: PostgresConnection) throws(StoreError) -> Int {
        try connection.queryFirst("SELECT COALESCE(MAX(version), 0) FROM gateway_migrations") { $0.int(0) } ?? 0
    }
}
