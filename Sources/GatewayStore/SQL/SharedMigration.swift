/// One schema step written once for both backends: each word the dialects spell differently
/// (`SQLSchemaWord`: key text, instants, booleans, serial keys, table options) is interpolated and
/// rendered per dialect by `sql(for:)`. The steps are `SharedMigration.all` (`SharedMigrations`).
public struct SharedMigration: Sendable, ExpressibleByStringInterpolation {
    enum Piece: Sendable {
        case text(String)
        case word(SQLSchemaWord)
    }

    private let pieces: [Piece]

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

        /// Another step's fragment, its words still spelled per dialect.
        public mutating func appendInterpolation(_ fragment: SharedMigration) { pieces += fragment.pieces }

        /// A name the step builds itself (a table or column name), never input.
        public mutating func appendInterpolation(raw: String) { pieces.append(.text(raw)) }
    }
}
