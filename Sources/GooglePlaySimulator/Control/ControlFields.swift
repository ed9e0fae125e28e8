import Foundation
import Wire

/// A control route's refusal: 400 for a body or step the simulator cannot take, 404 for a token
/// or order it never sold. Rendered in the gateway's error shape (`{"error":{"code","message"}}`),
/// never Google's: the control routes are the simulator's own, not Google's API.
public struct ControlError: Error, Equatable, CustomStringConvertible {
    public var status: Int
    public var code: String
    public var message: String

    static func badRequest(_ message: String) -> ControlError { ControlError(status: 400, code: "bad_request", message: message) }

    /// A scenario step's failure: an unknown token or order is 404, anything else 400.
    init(_ failure: GooglePlaySimulator.Failure) {
        switch failure {
        case .unknownToken, .unknownOrder: self.init(status: 404, code: "not_found", message: failure.description)
        case .invalid: self.init(status: 400, code: "bad_request", message: failure.description)
        }
    }

    init(status: Int, code: String, message: String) { self.status = status; self.code = code; self.message = message }

    public var description: String { "\(status) \(code): \(message)" }
}

/// The JSON object of a control body, read strictly: it must be an object, a field outside
/// `known` is a typo to report, and every field has one type (developers type these by hand).
struct ControlFields {
    /// Control bodies are a handful of fields.
    static let maximumBytes = 16 * 1024
    /// Tokens, product and order ids are opaque but short (Google's tokens are a few hundred bytes).
    static let maximumTextBytes = 1024

    private let reader: JSONFieldReader<ControlError>

    init(_ body: [UInt8], known: Set<String>) throws(ControlError) {
        let value: JSONValue
        do { value = try JSONParser(limits: JSONLimits(maxBytes: Self.maximumBytes, maxDepth: 8)).parse(bytes: body) } catch {
            throw .badRequest("the body is not JSON: \(error)")
        }
        guard let object = value.objectValue else { throw .badRequest("the body must be a JSON object") }
        if let unknown = object.names.first(where: { !known.contains($0) }) {
            throw .badRequest("\(unknown) is not a field here (fields: \(known.sorted().joined(separator: ", ")))")
        }
        reader = JSONFieldReader(object) { name in .badRequest("\(name) has the wrong type") }
    }

    func has(_ name: String) -> Bool { reader.value(name) != nil }

    /// A non-empty string of at most `maximumTextBytes`.
    func string(_ name: String) throws(ControlError) -> String? {
        guard let text = try reader.string(name) else { return nil }
        guard !text.isEmpty, text.utf8.count <= Self.maximumTextBytes else {
            throw .badRequest("\(name) must be a non-empty string of at most \(Self.maximumTextBytes) bytes")
        }
        return text
    }

    func required(_ name: String) throws(ControlError) -> String {
        guard let text = try string(name) else { throw .badRequest("\(name) is required") }
        return text
    }

    func bool(_ name: String) throws(ControlError) -> Bool { try reader.bool(name) ?? false }

    /// An integer within `range`.
    func integer(_ name: String, in range: ClosedRange<Int64>) throws(ControlError) -> Int64? {
        guard let number = try reader.integer(name) else { return nil }
        guard range.contains(number) else { throw .badRequest("\(name) must be within \(range.lowerBound)...\(range.upperBound)") }
        return number
    }

    /// An RFC 3339 instant.
    func instant(_ name: String) throws(ControlError) -> Instant? {
        guard let text = try reader.string(name) else { return nil }
        guard let instant = Instant(rfc3339: text) else { throw .badRequest("\(name) must be an RFC 3339 instant, not \(text)") }
        return instant
    }
}
