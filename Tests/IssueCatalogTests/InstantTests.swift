import Testing
import IssueCatalog
import Wire

@Test func rfc3339ParsesOffsetsAndFormatsUTC() {
    let t = Instant(rfc3339: "2026-11-01T00:00:00-05:00")
    #expect(t?.rfc3339 == "2026-11-01T05:00:00.000Z")
    #expect(Instant(rfc3339: "2012-02-20T00:00:00.123456Z")?.millisecondsSinceEpoch == 1_329_696_000_123)
    #expect(Instant(rfc3339: "2012-02-30T00:00:00Z") == nil)
    #expect(Instant(rfc3339: "2012-02-01 00:00:00Z") == nil)
    #expect(Instant(rfc3339: "2012-02-01T00:00:00") == nil)
}

@Test func durationsUseCalendarArithmeticInUTC() {
    let jan31 = Instant(rfc3339: "2024-01-31T10:00:00Z")!
    #expect(ISODuration("P1M")!.added(to: jan31).rfc3339 == "2024-02-29T10:00:00.000Z")
    #expect(ISODuration("P3M")!.added(to: jan31).rfc3339 == "2024-04-30T10:00:00.000Z")
    #expect(ISODuration("P1Y2W")!.added(to: jan31).rfc3339 == "2025-02-14T10:00:00.000Z")
    #expect(ISODuration("PT36H")!.added(to: jan31).rfc3339 == "2024-02-01T22:00:00.000Z")
    #expect(ISODuration("P") == nil)
    #expect(ISODuration("P1MT") == nil)
    #expect(ISODuration("3M") == nil)
    #expect(ISODuration("P1D1M") == nil)
}
