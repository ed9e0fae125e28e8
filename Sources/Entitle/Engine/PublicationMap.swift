/// A few values keyed by publication number: an account holds a handful of publications, so a
/// linear list beats hashing, and no per-catalog-size table is allocated per evaluation.
struct PublicationMap<Value> {
    private(set) var entries: [(publication: Int, value: Value)] = []

    subscript(publication: Int) -> Value? {
        entries.first { $0.publication == publication }?.value
    }

    /// The position in `entries` of a publication's value, inserting `value` if it has none.
    mutating func slot(_ publication: Int, default value: @autoclosure () -> Value) -> Int {
        if let i = entries.firstIndex(where: { $0.publication == publication }) { return i }
        entries.append((publication, value()))
        return entries.count - 1
    }

    subscript(slot slot: Int) -> Value {
        get { entries[slot].value }
        _modify { yield &entries[slot].value }
    }
}

extension PublicationMap: Sendable where Value: Sendable {}
