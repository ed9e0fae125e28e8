/// A few values keyed by publication number: an account holds a handful of publications, so a
/// linear list beats hashing, and no per-catalog-size table is allocated per evaluation.
struct PublicationMap<Value> {
    private(set) var entries: [(publication: Int, value: Value)] = []

    subscript(publication: Int) -> Value? {
        entries.first { $0.publication == publication }?.value
    }

    mutating func update(_ publication: Int, default value: @autoclosure () -> Value, _ body: (inout Value) -> Void) {
        if let i = entries.firstIndex(where: { $0.publication == publication }) {
            body(&entries[i].value)
        } else {
            var fresh = value()
            body(&fresh)
            entries.append((publication, fresh))
        }
    }
}

extension PublicationMap: Sendable where Value: Sendable {}
