/// The schema steps written once for both backends, oldest first. Each backend applies its own
/// released steps (`SQLiteSchema`, `PostgresSchema`: history, databases in the field have them)
/// and then these, so from here on a schema change is one value, here.
///
/// To add a column, append one value and change the table's `…Rows` file (its column list, its
/// mapping, its writes); nothing else. For example, the store a product is sold in:
///
///     public static let all: [SharedMigration] = [
///         // 1: the store a product is sold in, and its id there (nil: the product id).
///         """
///         ALTER TABLE products ADD COLUMN store \(.key) NOT NULL DEFAULT 'appStore';
///         ALTER TABLE products ADD COLUMN store_product_id \(.key);
///         """,
///     ]
///
/// with, in `Rows/CatalogRows.swift`, `store, store_product_id` added to `productColumns`, read in
/// `RecordRows.product` and written in `save(_ p: Product)`'s `set:`. A new table ends with
/// `\(.tableOptions)` after its closing parenthesis. Never edit or reorder a released entry:
/// only append.
extension SharedMigration {
    public static let all: [SharedMigration] = []
}
