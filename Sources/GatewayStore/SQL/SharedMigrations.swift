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
    ]
}
