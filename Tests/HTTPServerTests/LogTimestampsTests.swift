import Testing
@testable import HTTPServer

@Test func logTimestampsReuseTheSecondButNotItsMilliseconds() {
    var timestamps = LogTimestamps()
    let base: Int64 = 1_795_000_000_000  // 2026-11-18T11:06:40.000Z
    #expect(timestamps.rfc3339(unixMilliseconds: base) == "2026-11-18T11:06:40.000Z")
    #expect(timestamps.rfc3339(unixMilliseconds: base + 7) == "2026-11-18T11:06:40.007Z")
    #expect(timestamps.rfc3339(unixMilliseconds: base + 999) == "2026-11-18T11:06:40.999Z")
    #expect(timestamps.rfc3339(unixMilliseconds: base + 1_042) == "2026-11-18T11:06:41.042Z")
    #expect(timestamps.rfc3339(unixMilliseconds: base - 1) == "2026-11-18T11:06:39.999Z")
}
