/// The namespace of the record mappings: each `…Rows` file of this folder holds one table's (or
/// one family's) columns, how a row maps to its record (`RecordRows.account`), and its reads and
/// writes as `SQL`, written once for every backend.
public enum RecordRows {
    /// Grants and key scopes are publication ids joined by `idSeparator` (ids are
    /// `[A-Za-z0-9._-]`, so never hold one).
    public static let idSeparator: Character = ","
    public static func joinIds(_ ids: [String]) -> String { ids.joined(separator: String(idSeparator)) }
    public static func splitIds(_ text: String) -> [String] { text.split(separator: idSeparator).map(String.init) }
}
