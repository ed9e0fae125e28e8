/// One schema step written once for both backends, each word that the dialects spell differently
/// interpolated as a `SQLSchemaWord` and rendered per dialect (`sql(for:)`). Both backends
/// append `SharedMigration.all` after their own earlier steps (which stay as they were released:
/// databases in the field have had them), so from here on a schema change is one value.
///
/// To change the schema, append one value to `all` and change the table's `…Rows` file (its
/// columns, its mapping, its writes); nothing else. For example, a column on products:
///
///     static let all: [SharedMigration] = [
///         // 1: the store a product is sold in, and its id there (default: the product id).
///         """
///         ALTER TABLE products ADD COLUMN store \(.key) NOT NULL DEFAULT 'appStore';
///         ALTER TABLE products ADD COLUMN store_product_id \(.key);
///         """,
///     ]
///
/// A new table ends with `\(.tableOptions)` after its closing parenthesis. Never edit or reorder a
/// released entry: only append.
public struct SharedMigration: Sendable, ExpressibleByStringInterpolation {
    enum Piece: Sendable {
        case text(String)
        case word(SQLSchemaWord)
    }

    private let pieces: [Piece]

    /// The steps, oldest first.
    public static let all: [SharedMigration] = []

    /// The statements for `dialect` (several, separated by `;`).
    public func sql(for dialect: SQLDialect) -> String {
        pieces.map { piece in
            switch piece {
            case .text(let text): return text
            case .word(let word): return dialect.spelling(word)
            }
        }.joined()
    }

    public init(stringLiteral value: String) { pieces = [.text(value)] }

    public init(stringInterpolation: StringInterpolation) { pieces = stringInterpolation.pieces }

    public struct StringInterpolation: StringInterpolationProtocol {
        var pieces: [Piece] = []

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) { pieces.append(.text(literal)) }

        public mutating func appendInterpolation(_ word: SQLSchemaWord) { pieces.append(.word(word)) }
    }
}
