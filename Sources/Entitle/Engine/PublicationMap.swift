/// A few values keyed by publication number: an account holds a handful of publications, so a
/// linear list beats hashing, and no per-catalog-size table is allocated per evaluation.
struct PublicationMap<Value> {
    private(set) var entries: [(publication: Int, value: Value)] = []

    subscript(publication: Int) -> Value? {
        entries.first { $0.publication == publication }?.value
    }

    /// The position in `entries` of a publication's value, inserting `value` if it has none.
    /// Entries stay ordered by publication number, whatever order the facts came in (a
    /// dictionary's order differs from process to process): two processes holding the same facts
    /// list, render and draw them identically. A position is good until the next insertion.
    mutating func slot(_ publication: Int, default value: @autoclosure () -> Value) -> Int {
        let i = entries.firstIndex { $0.publication >= publication } ?? entries.count
        if i < entries.count, entries[i].publication == publication { return i }
        entries.insert((publication, value()), at: i)
        return i
    }

    subscript(slot slot: Int) -> Value {
        get { entries[slot].value }
        _modify { yield &entries[slot].value }
    }
}

extension PublicationMap: Sendable where Value: Sendable {}
