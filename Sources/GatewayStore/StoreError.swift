/// What went wrong in a store call: the database could not do the unit of work. No database type
/// or text leaks out: a backend logs the detail (its `StoreLog`) and throws a case whose
/// description is a fixed sentence, safe to show a client. A missing thing or one that exists
/// already is not a failure of the storage: each operation returns it as its outcome.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Another connection or process held the database for longer than the busy timeout
    /// (SQLite's BUSY and LOCKED, PostgreSQL's lock timeouts and serialization failures): the
    /// same unit of work may succeed if tried again.
    case busy
    /// The database could not be read or written (disk, corruption, a schema from a newer
    /// gateway, a row breaking a rule the operations keep). Trying again will not help.
    case failed

    /// True when the same unit of work may succeed later (a client may be told to retry).
    public var isRetryable: Bool { self == .busy }

    public var description: String {
        switch self {
        case .busy: return "the database is busy; try again shortly"
        case .failed: return "the database could not be read or written (the details are in the log)"
        }
    }
}
