/// What went wrong in a store call. No database type or text leaks out: a backend logs the
/// detail (its `StoreLog`) and throws a case whose description is a fixed sentence, safe to show
/// a client.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The thing exists already (an issue id in its publication, an account id, a key id).
    case conflict(String)
    /// The thing, or a thing it refers to, does not exist.
    case notFound(String)
    /// Another connection or process held the database for longer than the busy timeout
    /// (SQLite's BUSY and LOCKED, PostgreSQL's lock timeouts and serialization failures): the
    /// same unit of work may succeed if tried again.
    case busy
    /// The database could not be read or written (disk, corruption, a schema from a newer
    /// gateway). Trying again will not help.
    case failed

    /// True when the same unit of work may succeed later (a client may be told to retry).
    public var isRetryable: Bool { self == .busy }

    public var description: String {
        switch self {
        case .conflict(let m): return "conflict: \(m)"
        case .notFound(let m): return "not found: \(m)"
        case .busy: return "the database is busy; try again shortly"
        case .failed: return "the database could not be read or written (the details are in the log)"
        }
    }
}
