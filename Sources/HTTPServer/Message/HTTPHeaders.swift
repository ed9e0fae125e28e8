/// The header fields of a request, in the order they arrived.
///
/// Lookup is case-insensitive (RFC 9110 §5.1). Names are kept as sent; a repeated field keeps each
/// line, and `values(_:)` returns them all in order.
public struct HTTPHeaders: Sendable, Sequence {
    private(set) var fields: [(name: String, value: String)] = []

    public init() {}

    public mutating func append(name: String, value: String) {
        fields.append((name: name, value: value))
    }

    public var count: Int { fields.count }

    /// The first value of `name`, or nil.
    subscript(name: String) -> String? {
        for field in fields where field.name.equalsIgnoringASCIICase(name) { return field.value }
        return nil
    }

    public func values(_ name: String) -> [String] {
        fields.compactMap { $0.name.equalsIgnoringASCIICase(name) ? $0.value : nil }
    }

    /// How many lines carry `name`, without collecting them (checked on every request).
    func occurrences(of name: String) -> Int {
        var count = 0
        for field in fields where field.name.equalsIgnoringASCIICase(name) { count += 1 }
        return count
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }
}

extension String {
    /// ASCII case-insensitive equality: header names and tokens are ASCII (RFC 9110 §5.1).
    func equalsIgnoringASCIICase(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }  // O(1) for native strings
        var a = utf8.makeIterator()
        var b = other.utf8.makeIterator()
        while true {
            switch (a.next(), b.next()) {
            case (nil, nil): return true
            case let (x?, y?) where x.asciiLowercased == y.asciiLowercased: continue
            default: return false
            }
        }
    }
}

extension UInt8 {
    var asciiLowercased: UInt8 { (self >= 0x41 && self <= 0x5A) ? self | 0x20 : self }
}
