import Foundation

/// The last answer of each list page asked for, with its entity tag: sent back as
/// `If-None-Match`, a 304 answers from here (http-api.md, reader lists; RFC 9110 §13.1.2).
/// Kept per URL, which names the account; emptied when the session changes.
actor ListCache {
    struct Entry { var entityTag: String; var body: Data }

    /// Pages kept at most; the oldest kept goes first.
    private let capacity: Int
    private var entries: [String: Entry] = [:]
    private var order: [String] = []

    init(capacity: Int = 64) { self.capacity = capacity }

    func entry(for url: URL) -> Entry? { entries[url.absoluteString] }

    func keep(_ entry: Entry, for url: URL) {
        let key = url.absoluteString
        if entries.updateValue(entry, forKey: key) == nil { order.append(key) }
        while order.count > capacity { entries[order.removeFirst()] = nil }
    }

    func removeAll() {
        entries = [:]
        order = []
    }
}
