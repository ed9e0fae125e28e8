/// One schema step written once for both backends: each word the dialects spell differently
/// (`SQLSchemaWord`: key text, instants, booleans, serial keys, table options) is interpolated and
/// rendered per dialect by `sql(for:)`. The steps are `SharedMigration.all` (`SharedMigrations`).
public struct SharedMigration: Sendable, ExpressibleByStringInterpolation {
    enum Piece: Sendable {
        case text(String)
        case word(SQLSchemaWord)
    }

    private let pieces: [Piece]
    /// Rows rewritten in code after `sql(for:)` and before `finalSQL(for:)`, in the same transaction.
    public let data: SharedDataStep?
    private let finalPieces: [Piece]

    /// The statements for `dialect` (several, separated by `;`).
    public func sql(for dialect: SQLDialect) -> String { Self.rendered(pieces, dialect) }

    /// The statements that end the step after its `data`, for `dialect` (often none).
    public func finalSQL(for dialect: SQLDialect) -> String { Self.rendered(finalPieces, dialect) }

    private static func rendered(_ pieces: [Piece], _ dialect: SQLDialect) -> String {
        pieces.map { piece in
            switch piece {
            case .text(let text): return text
            case .word(let word): return dialect.spelling(word)
            }
        }.joined()
    }

    public init(stringLiteral value: String) { pieces = [.text(value)]; data = nil; finalPieces = [] }

    public init(stringInterpolation: StringInterpolation) { pieces = stringInterpolation.pieces; data = nil; finalPieces = [] }

    private init(pieces: [Piece], data: SharedDataStep?, finalPieces: [Piece]) {
        self.pieces = pieces; self.data = data; self.finalPieces = finalPieces
    }

    /// A step whose rows need code to rewrite: `schema`, then `data` run on the connection, then
    /// `final` (dropping what `data` read), all in the migration's transaction.
    public static func converting(_ schema: SharedMigration, with data: SharedDataStep, then final: SharedMigration) -> SharedMigration {
        SharedMigration(pieces: schema.pieces, data: data, finalPieces: final.pieces)
    }

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
