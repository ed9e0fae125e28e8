/// A statement as a value: SQL text whose interpolated values become bound parameters (the style
/// of GRDB's `SQL` interpolation and postgres-nio's `PostgresQuery`), rendered for a dialect only
/// when it runs (PostgreSQL's `$1`; SQLite runs the text as built). One query text serves every backend.
///
///     let q: SQL = "SELECT title FROM issues WHERE publication_id = \(ref.publicationId) AND id = \(ref.issueId)"
///
/// Interpolating another `SQL` composes it (its parameters follow in order). Text that is part of
/// the statement rather than a value (a column name chosen by the code) goes in explicitly with
/// `\(literal:)` (a `StaticString`) or `\(raw:)` (text the gateway built itself, never input).
public struct SQL: Sendable, Equatable {
    /// The statement text, each parameter an anonymous `?`: SQLite's own placeholder, which it
    /// numbers in order of appearance as the values are bound, so SQLite runs this text as it is
    /// and only PostgreSQL's is rendered. Built by appending in place (statements are built on
    /// every call, so no piece is copied twice).
    private(set) var text = ""
    /// Where each placeholder's `?` stands in `text`, as UTF-8 offsets, in order.
    private(set) var parameterOffsets: [Int] = []
    /// The bound values, in the order their placeholders appear.
    public private(set) var values: [SQLValue] = []

    public init() {}

    /// Statement text without parameters (`raw` is the gateway's own text, never input).
    public init(raw: String) { text = raw }

    /// The text for `dialect`: SQLite's is `text` itself; PostgreSQL's numbers each placeholder
    /// (`$1`, `$2`, …).
    public func text(for dialect: SQLDialect) -> String {
        guard dialect == .postgres, !parameterOffsets.isEmpty else { return text }
        var rendered = ""
        rendered.reserveCapacity(text.utf8.count + 3 * parameterOffsets.count)
        let utf8 = text.utf8
        var from = utf8.startIndex
        for (number, offset) in zip(1..., parameterOffsets) {
            let at = utf8.index(utf8.startIndex, offsetBy: offset)
            rendered += Substring(utf8[from..<at])
            rendered += dialect.placeholder(number)
            from = utf8.index(after: at)
        }
        rendered += Substring(utf8[from...])
        return rendered
    }

    public static func + (lhs: SQL, rhs: SQL) -> SQL {
        var result = lhs
        result.append(rhs)
        return result
    }

    public mutating func append(_ other: SQL) {
        let base = text.utf8.count
        text += other.text
        parameterOffsets += other.parameterOffsets.map { base + $0 }
        values += other.values
    }

    mutating func appendText(_ s: String) { text += s }

    mutating func bind(_ value: SQLValue) {
        placeholder()
        values.append(value)
    }

    /// A parameter's `?` with no value yet: text built once for many statements
    /// (`binding(_:)` gives each its values).
    mutating func placeholder() {
        parameterOffsets.append(text.utf8.count)
        text += "?"
    }

    /// This text, whose placeholders have no values, with `values` bound to them in order.
    func binding(_ values: [SQLValue]) -> SQL {
        precondition(self.values.isEmpty && values.count == parameterOffsets.count, "one value per placeholder")
        var bound = self
        bound.values = values
        return bound
    }

    /// `items` joined by `separator` (a list of fragments, such as column assignments).
    public static func joined(_ items: [SQL], separator: String = ", ") -> SQL {
        var result = SQL()
        for (index, item) in items.enumerated() {
            if index > 0 { result.appendText(separator) }
            result.append(item)
        }
        return result
    }
}

extension SQL: ExpressibleByStringInterpolation {
    public init(stringLiteral value: String) { self.init(raw: value) }

    public init(stringInterpolation: StringInterpolation) { self = stringInterpolation.sql }

    public struct StringInterpolation: StringInterpolationProtocol {
        var sql = SQL()

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) { sql.appendText(literal) }

        /// A bound parameter.
        public mutating func appendInterpolation(_ value: some SQLBindable) { sql.bind(value.sqlValue) }

        /// A bound parameter, NULL for nil.
        public mutating func appendInterpolation<T: SQLBindable>(_ value: T?) { sql.bind(value.sqlValue) }

        /// Another statement fragment, with its parameters.
        public mutating func appendInterpolation(_ fragment: SQL) { sql.append(fragment) }

        /// Statement text known when the gateway was built (a column name).
        public mutating func appendInterpolation(literal: StaticString) { sql.appendText(literal.description) }

        /// Statement text the gateway built itself (an identifier from its own catalog, a number
        /// of its own); never a value from outside.
        public mutating func appendInterpolation(raw: String) { sql.appendText(raw) }
    }
}
