/// Why a catalog, or one of its files, was refused: which file, which field, what is wrong.
/// Editors read these in a terminal or a pull-request check, so the field is a path into the file
/// (`issues[3].assets[0].path`) and the message a sentence.
public struct CatalogProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// The catalog file, relative to the catalog folder (`publications/monthly.json`); nil for
    /// values that did not come from a file (an API request body).
    public var file: String?
    public var field: String
    public var message: String

    public init(file: String? = nil, field: String, message: String) {
        self.file = file; self.field = field; self.message = message
    }

    public var description: String {
        let location = [file, field.isEmpty ? nil : field].compactMap { $0 }.joined(separator: ": ")
        return location.isEmpty ? message : "\(location): \(message)"
    }

    /// The same problem, attributed to `file`.
    public func `in`(file: String) -> CatalogProblem {
        CatalogProblem(file: file, field: field, message: message)
    }
}

/// Builds field paths the way editors see them in the file: `issues[3].assets[0].path`.
public struct FieldPath: Hashable, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ text: String = "") { description = text }

    public func field(_ name: String) -> FieldPath {
        FieldPath(description.isEmpty ? name : "\(description).\(name)")
    }

    public func index(_ index: Int) -> FieldPath { FieldPath("\(description)[\(index)]") }

    func problem(_ message: String) -> CatalogProblem { CatalogProblem(field: description, message: message) }
}
