import AppStoreKit
import Foundation
import IssueCatalog
import Wire

/// The simulator's script is typed by developers: an unknown field is a typo to report, and
/// instants are RFC 3339 strings (as in http-api.md), so decoding is strict and done by hand.
struct ScriptFields {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private let container: KeyedDecodingContainer<Key>

    /// Refuses any field outside `known`.
    init(_ decoder: any Decoder, known: Set<String>) throws {
        container = try decoder.container(keyedBy: Key.self)
        for key in container.allKeys where !known.contains(key.stringValue) {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath + [key],
                                                    debugDescription: "\(key.stringValue) is not a field of the simulator script"))
        }
    }

    func required<T: Decodable>(_ name: String, as type: T.Type = T.self) throws -> T {
        try container.decode(T.self, forKey: Key(stringValue: name))
    }

    func optional<T: Decodable>(_ name: String, as type: T.Type = T.self) throws -> T? {
        try container.decodeIfPresent(T.self, forKey: Key(stringValue: name))
    }

    func instant(_ name: String) throws -> Instant? {
        guard let text = try optional(name, as: String.self) else { return nil }
        guard let instant = Instant(rfc3339: text) else {
            throw DecodingError.dataCorruptedError(forKey: Key(stringValue: name), in: container,
                                                   debugDescription: "\(name) must be an RFC 3339 instant, not \(text)")
        }
        return instant
    }

    func requiredInstant(_ name: String) throws -> Instant {
        guard let instant = try instant(name) else {
            throw DecodingError.keyNotFound(Key(stringValue: name), .init(codingPath: container.codingPath,
                                                                           debugDescription: "\(name) is required"))
        }
        return instant
    }
}
