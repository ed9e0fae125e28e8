/// Why a text is not accepted, and the byte offset where the parser gave up.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        case tooLarge
        case tooDeep
        case unexpectedEnd
        case unexpectedCharacter
        case invalidUTF8
        case invalidEscape
        case unescapedControlCharacter
        case unpairedSurrogate
        case invalidNumber
        /// A number outside Int64 (integers) or outside Double's finite range (RFC 8259 §9 lets
        /// an implementation limit ranges; silently rounding would change what was signed).
        case duplicateName(String)
        case trailingCharacters
    }

    public var kind: Kind
    public var offset: Int

    public init(_ kind: Kind, at offset: Int) { self.kind = kind; self.offset = offset }

    public var isDuplicateName: Bool { if case .duplicateName = kind { true } else { false } }

    public var description: String {
        switch kind {
        case .tooLarge: return "JSON text is larger than allowed"
        case .tooDeep: return "JSON nesting is deeper than allowed at byte \(offset)"
        case .unexpectedEnd: return "JSON text ends unexpectedly"
        case .unexpectedCharacter: return "unexpected character at byte \(offset)"
        case .invalidUTF8: return "invalid UTF-8 in a string at byte \(offset)"
        case .invalidEscape: return "invalid escape sequence at byte \(offset)"
        case .unescapedControlCharacter: return "unescaped control character in a string at byte \(offset)"
        case .unpairedSurrogate: return "unpaired UTF-16 surrogate escape at byte \(offset)"
        case .invalidNumber: return "invalid number at byte \(offset)"
        case .duplicateName(let name): return "duplicate member name \"\(name)\" at byte \(offset)"
        case .trailingCharacters: return "unexpected data after the JSON value at byte \(offset)"
        }
    }
}
