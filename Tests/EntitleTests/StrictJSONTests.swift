import Testing
import Entitle
import Wire

@Suite struct StrictJSONTests {
    private func kind(_ text: String, limits: JSONLimits = .standard) -> JSONParseError.Kind? {
        do {
            _ = try JSONParser(limits: limits).parse(text)
            return nil
        } catch {
            return error.kind
        }
    }

    @Test func parsesEveryKindOfValue() throws {
        let v = try JSONValue.parse(#" {"a": [1, -2.5, 1e3, true, false, null], "b": {"c": "d\u00e9\n"}} "#)
        let o = try #require(v.objectValue)
        #expect(o.names == ["a", "b"])
        #expect(o["a"] == .array([.integer(1), .number(-2.5), .number(1000), .bool(true), .bool(false), .null]))
        #expect(o["b"]?.objectValue?["c"] == .string("dé\n"))
    }

    @Test func integersAreDistinctFromOtherNumbers() throws {
        #expect(try JSONValue.parse("1300819380") == .integer(1300819380))
        #expect(try JSONValue.parse("-0") == .integer(0))
        #expect(try JSONValue.parse("1.0") == .number(1.0))
        #expect(try JSONValue.parse("1E2") == .number(100))
        #expect(try JSONValue.parse("9223372036854775807") == .integer(Int64.max))
        // Past the limits a number is kept, not refused (RFC 8259 §6): a field nobody reads must not
        // fail the body; a field that must be an integer refuses it by its type.
        #expect(try JSONValue.parse("9223372036854775808") == .number(9223372036854775808.0))
        #expect(try JSONValue.parse("9223372036854775808").integerValue == nil)
        #expect(try JSONValue.parse("-1e400") == .number(-.infinity))
    }

    @Test(arguments: ["01", "-", "1.", ".5", "+1", "1e", "1e+", "0x10", "NaN", "Infinity", "- 1"])
    func refusesMalformedNumbers(text: String) {
        #expect(kind(text) != nil)
    }

    @Test func refusesDuplicateNamesEvenWhenSpelledDifferently() {
        #expect(kind(#"{"a":1,"a":2}"#) == .duplicateName("a"))
        #expect(kind(#"{"a":1,"\u0061":2}"#) == .duplicateName("a"))
        #expect(kind(#"{"x":{"k":1,"k":1}}"#) == .duplicateName("k"))
        #expect(kind(#"[{"a":1},{"a":1}]"#) == nil)
    }

    @Test(arguments: [
        ("", JSONParseError.Kind.unexpectedEnd), ("[1,]", .unexpectedCharacter), ("{\"a\":1,}", .unexpectedCharacter),
        ("[1] [2]", .trailingCharacters), ("\u{FEFF}{}", .unexpectedCharacter), ("{'a':1}", .unexpectedCharacter),
        ("[1 /* c */]", .unexpectedCharacter), ("tru", .unexpectedEnd), ("nul", .unexpectedEnd),
        ("\"a\u{01}b\"", .unescapedControlCharacter), ("\"\\x\"", .invalidEscape), ("\"\\u12G4\"", .invalidEscape),
        ("\"\\ud800\"", .unpairedSurrogate), ("\"\\udc00\"", .unpairedSurrogate), ("\"\\ud800\\u0041\"", .unpairedSurrogate),
        ("{\"a\" 1}", .unexpectedCharacter), ("[\u{0B}1]", .unexpectedCharacter), ("\"abc", .unexpectedEnd),
    ])
    func refusesMalformedText(text: String, expected: JSONParseError.Kind) {
        #expect(kind(text) == expected)
    }

    @Test func refusesInvalidUTF8InStrings() {
        for bad: [UInt8] in [[0x22, 0xff, 0x22], [0x22, 0xc0, 0xaf, 0x22], [0x22, 0xed, 0xa0, 0x80, 0x22]] {
            #expect(throws: JSONParseError.self) { try JSONValue.parse(bytes: bad) }
        }
    }

    @Test func decodesSurrogatePairs() throws {
        #expect(try JSONValue.parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try JSONValue.parse(#""\u0000""#) == .string("\u{0}"))
    }

    @Test func enforcesDepthAndSize() {
        let limits = JSONLimits(maxBytes: 64, maxDepth: 3)
        #expect(kind("[[[1]]]", limits: limits) == nil)
        #expect(kind("[[[[1]]]]", limits: limits) == .tooDeep)
        #expect(kind(#"{"a":{"b":{"c":{}}}}"#, limits: limits) == .tooDeep)
        #expect(kind("\"" + String(repeating: "x", count: 63) + "\"", limits: limits) == .tooLarge)
        // The standard limits stop deep nesting long before the stack would.
        #expect(kind(String(repeating: "[", count: 100_000)) == .tooDeep)
    }

    @Test func serialisesCompactlyInMemberOrder() throws {
        let object = JSONObject([JSONMember("alg", .string("HS256")), JSONMember("typ", .string("JWT")),
                                 JSONMember("n", .array([.integer(-3), .number(0.5), .null, .bool(true)]))])
        #expect(JSONValue.object(object).serialized == #"{"alg":"HS256","typ":"JWT","n":[-3,0.5,null,true]}"#)
        #expect(JSONValue.string("q\"b\\\n\u{1}é").serialized == #""q\"b\\\n\u0001é""#)
    }

    @Test func serialisedTextParsesBackToTheSameValue() throws {
        let text = #"{"s":"\t\u001f\"x","a":[{"b":[]},{}],"i":-9223372036854775808,"d":1.25e-7}"#
        let v = try JSONValue.parse(text)
        #expect(try JSONValue.parse(v.serialized) == v)
    }
}
