import Foundation

/// Editors' files are decoded strictly: a field the format does not know is a typo to report,
/// not something to ignore silently.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) { self.stringValue = String(intValue); self.intValue = intValue }
}

extension Decoder {
    func strictContainer<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let all = try container(keyedBy: AnyCodingKey.self)
        for key in all.allKeys where Key(stringValue: key.stringValue) == nil {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath + [key], debugDescription: "is not a known field"))
        }
        return try container(keyedBy: Key.self)
    }
}

extension CatalogProblem {
    /// A `DecodingError` as an editor reads it: the path inside the file and what was expected.
    init(file: String, decoding error: Error) {
        guard let error = error as? DecodingError else {
            self.init(file: file, field: "", message: "cannot read: \(error)")
            return
        }
        func path(_ keys: [CodingKey]) -> String {
            keys.reduce(FieldPath()) { path, key in
                key.intValue.map { path.index($0) } ?? path.field(key.stringValue)
            }.description
        }
        switch error {
        case .typeMismatch(let type, let context):
            self.init(file: file, field: path(context.codingPath), message: "must be \(Self.noun(for: type))")
        case .valueNotFound(let type, let context):
            self.init(file: file, field: path(context.codingPath), message: "must be \(Self.noun(for: type)), not null")
        case .keyNotFound(let key, let context):
            self.init(file: file, field: path(context.codingPath + [key]), message: "is required")
        case .dataCorrupted(let context):
            let message = context.codingPath.isEmpty ? "is not valid JSON" : context.debugDescription
            self.init(file: file, field: path(context.codingPath), message: message)
        @unknown default:
            self.init(file: file, field: "", message: "cannot read: \(error)")
        }
    }

    private static func noun(for type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is Int.Type, is Int64.Type: return "an integer"
        default:
            let name = "\(type)"
            if name.hasPrefix("Array") { return "an array" }
            if name.hasPrefix("Dictionary") { return "an object" }
            return "an object"
        }
    }
}
