import Synchronization

/// Per-client shares of the buffer budget (body memory and fairness): the bytes each
/// client (`ClientKey`) holds in bodies being read, unparsed input and answers it has not taken.
/// The server-wide budget alone lets one client that requests large answers and never reads them
/// push the total past the budget, and then every client's requests are 503 until its connections
/// time out; with a share, that client is turned away once it holds its share, and the rest of the
/// budget stays for everyone else. Only clients that hold bytes are kept: memory follows the
/// connections, not the clients ever seen.
final class ClientBuffers: Sendable {
    private let share: Int
    private let held = Mutex<[String: Int]>([:])

    init(_ configuration: HTTPServerConfiguration) {
        share = max(1, Int((Double(configuration.maxBufferedBytes) * configuration.maxBufferSharePerClient).rounded(.down)))
    }

    /// Counts `delta` bytes more (or fewer) for `client`.
    func add(_ delta: Int, for client: String?) {
        guard let client, delta != 0 else { return }
        held.withLock { held in
            let total = (held[client] ?? 0) + delta
            held[client] = total > 0 ? total : nil
        }
    }

    /// Whether `client` holds more than its share. A request without an address (not from a
    /// socket) is not limited.
    func isOverShare(_ client: String?) -> Bool {
        guard let client else { return false }
        return held.withLock { ($0[client] ?? 0) > share }
    }

    /// Clients holding bytes now (for tests).
    var clients: Int { held.withLock { $0.count } }
}
