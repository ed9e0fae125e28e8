/// The rules single fields follow, shared by the catalog files and the API bodies.
public enum FieldRules {
    public static let maxIdentifierLength = 128
    public static let maxTitleLength = 500
    public static let maxAssetPathLength = 1024
    public static let maxAssetsPerIssue = 64

    /// Ids of publications, issues, products, keys: `[A-Za-z0-9._-]{1,128}`, but not
    /// `.` or `..`: ids become URL path segments (`/v1/publications/{publicationId}/…`) and file
    /// names (`publications/<id>.json`), and those two are dot segments (RFC 3986 §3.3, §5.2.4)
    /// that clients and proxies remove, so such an id could never be addressed.
    public static func isIdentifier(_ text: String) -> Bool {
        let bytes = text.utf8
        return !bytes.isEmpty && bytes.count <= maxIdentifierLength && bytes.allSatisfy(isIdentifierByte)
            && text != "." && text != ".."
    }

    static func identifier(_ text: String, at path: FieldPath) throws(CatalogProblem) {
        guard isIdentifier(text) else {
            throw path.problem("\(quoted(text)) is not an id: use 1 to \(maxIdentifierLength) of A-Z a-z 0-9 . _ - (not . or ..)")
        }
    }

    /// http-api.md, Catalog: asset paths are absolute URL paths: they start with `/` and hold no
    /// `..`, `//`, `?`, `#` or control characters.
    public static func assetPathProblem(_ path: String) -> String? {
        guard path.first == "/" else { return "must start with /" }
        guard path.utf8.count <= maxAssetPathLength else { return "is longer than \(maxAssetPathLength) bytes" }
        if path.contains("..") { return "must not contain .." }
        if path.contains("//") { return "must not contain //" }
        if path.contains("?") { return "must not contain ?" }
        if path.contains("#") { return "must not contain #" }
        if path.unicodeScalars.contains(where: isControl) { return "must not contain control characters" }
        // Publishable but never downloadable: tokens.md step 5 refuses every requested path with
        // a backslash, and clients remove `.` segments before sending (RFC 3986 §5.2.4).
        if path.contains("\\") { return "must not contain a backslash" }
        if path.split(separator: "/", omittingEmptySubsequences: false).contains(".") { return "must not contain . segments" }
        return nil
    }

    static func assetPath(_ text: String, at path: FieldPath) throws(CatalogProblem) {
        if let problem = assetPathProblem(text) { throw path.problem("\(quoted(text)) \(problem)") }
    }

    /// A title shown to readers: present, bounded, no control characters.
    static func title(_ text: String, at path: FieldPath) throws(CatalogProblem) {
        guard !text.isEmpty else { throw path.problem("must not be empty") }
        guard text.utf8.count <= maxTitleLength else { throw path.problem("is longer than \(maxTitleLength) bytes") }
        guard !text.unicodeScalars.contains(where: isControl) else {
            throw path.problem("must not contain control characters")
        }
    }

    /// 64 lowercase hex digits, as `sha256sum` prints them.
    static func sha256(_ text: String, at path: FieldPath) throws(CatalogProblem) {
        guard text.utf8.count == 64, text.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }) else {
            throw path.problem("must be 64 lowercase hex digits")
        }
    }

    private static func isIdentifierByte(_ b: UInt8) -> Bool {
        (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 46 || b == 95 || b == 45
    }

    private static func isControl(_ s: Unicode.Scalar) -> Bool {
        s.value < 0x20 || (0x7f...0x9f).contains(s.value)
    }

    /// Quotes a value for a message, trimmed and with control characters made visible.
    static func quoted(_ text: String) -> String {
        let shown = text.unicodeScalars.prefix(80).map { isControl($0) ? "\\u{\(String($0.value, radix: 16))}" : String($0) }
        return "\"" + shown.joined() + (text.unicodeScalars.count > 80 ? "…" : "") + "\""
    }
}
