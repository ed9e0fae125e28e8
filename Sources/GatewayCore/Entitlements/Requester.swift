/// Who asks for an answer, as E30 reads it: the client's address (nil when none is believed:
/// no socket, or a header from an untrusted proxy) and whether an institution's grant given to
/// the account is recorded in its history (an admin's request records nothing: an operator's
/// address says nothing of where the reader reads; an explanation gives no access).
package struct Requester: Sendable {
    package var address: [UInt8]?
    package var records: Bool

    package init(address: [UInt8]?, records: Bool) { self.address = address; self.records = records }
}

/// How far an answer may reach: `memory` never blocks (an event loop's fast path) and answers
/// nil whenever the store would be needed; `store` may read and queue writes (a worker's route).
package enum Reach: Sendable, Equatable {
    case memory, store
}
