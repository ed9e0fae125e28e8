import Foundation
import Wire

/// Typed reads of one JSON object of Google's, errors naming the field's path. A JSON `null`
/// counts as absent. Google's JSON (proto3 mapping) sends 64-bit integers as strings
/// (`purchaseTimeMillis`, `eventTimeMillis`) and timestamps as RFC 3339 text.
struct PlayFields {
    /// Google's answers are small (a subscription, a page of 1000 voided purchases is ~400 KiB).
    static let maximumBodyBytes = 4 << 20

    let object: JSONObject
    let path: String

    static func parse(_ body: some Collection<UInt8>, limit: Int = maximumBodyBytes) throws(PlayParseError) -> PlayFields {
        guard body.count <= limit else { throw .tooLarge(bytes: body.count, limit: limit) }
        let value: JSONValue
        do { value = try JSONParser(limits: JSONLimits(maxBytes: limit, maxDepth: 32)).parse(bytes: Array(body)) } catch {
            throw .notJSON("\(error)")
        }
        guard let object = value.objectValue else { throw .notJSON("the top level is not an object") }
        return PlayFields(object: object, path: "")
    }

    func name(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    private func value(_ key: String) -> JSONValue? {
        guard let value = object[key], value != .null else { return nil }
        return value
    }

    func has(_ key: String) -> Bool { value(key) != nil }

    func string(_ key: String) throws(PlayParseError) -> String? {
        guard let value = value(key) else { return nil }
        guard let text = value.stringValue else { throw .invalidField(name(key), expected: "a string") }
        return text
    }

    func requiredString(_ key: String) throws(PlayParseError) -> String {
        guard let text = try string(key) else { throw .missingField(name(key)) }
        guard !text.isEmpty else { throw .invalidField(name(key), expected: "a non-empty string") }
        return text
    }

    /// An integer sent as a JSON number or as a string of digits (proto3's int64).
    func integer(_ key: String) throws(PlayParseError) -> Int64? {
        guard let value = value(key) else { return nil }
        if let number = value.integerValue { return number }
        if let text = value.stringValue, !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x2D }),
           let number = Int64(text) { return number }
        throw .invalidField(name(key), expected: "an integer")
    }

    func bool(_ key: String) throws(PlayParseError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard let flag = value.boolValue else { throw .invalidField(name(key), expected: "true or false") }
        return flag
    }

    /// An RFC 3339 timestamp.
    func instant(_ key: String) throws(PlayParseError) -> Instant? {
        guard let text = try string(key) else { return nil }
        guard let instant = Instant(rfc3339: text) else { throw .invalidField(name(key), expected: "an RFC 3339 time") }
        return instant
    }

    /// Milliseconds since the epoch, as a string or a number.
    func milliseconds(_ key: String) throws(PlayParseError) -> Instant? {
        try integer(key).map { Instant(millisecondsSinceEpoch: $0) }
    }

    func object(_ key: String) throws(PlayParseError) -> PlayFields? {
        guard let value = value(key) else { return nil }
        guard let object = value.objectValue else { throw .invalidField(name(key), expected: "an object") }
        return PlayFields(object: object, path: name(key))
    }

    func objects(_ key: String) throws(PlayParseError) -> [PlayFields] {
        guard let value = value(key) else { return [] }
        guard let array = value.arrayValue else { throw .invalidField(name(key), expected: "an array") }
        var out: [PlayFields] = []
        for (index, element) in array.enumerated() {
            guard let object = element.objectValue else { throw .invalidField(name(key) + "[\(index)]", expected: "an object") }
            out.append(PlayFields(object: object, path: name(key) + "[\(index)]"))
        }
        return out
    }
}
