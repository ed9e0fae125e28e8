import CSystem

/// The `Date` header line (RFC 9110 §6.6.1), formatted once per second rather than per response.
/// One per event loop: no sharing, no lock.
struct DateCache {
    private var second: Int64 = -1
    private(set) var headerLine: [UInt8] = []

    /// Refreshes the line when the wall clock's second has changed.
    mutating func refresh() {
        let now = csystem_wall_seconds()
        guard now != second else { return }
        second = now
        headerLine = Array("Date: \(UTCTime(unixSeconds: now).imfFixdate)\r\n".utf8)
    }
}
