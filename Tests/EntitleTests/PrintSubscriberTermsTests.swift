import Entitle
import Testing
import Wire

/// E29: how a later list moves a print subscriber's interval.
@Suite struct PrintSubscriberTermsTests {
    static func at(_ text: String) -> Instant { Instant(rfc3339: text)! }
    static let start = at("2026-01-01T00:00:00Z"), listTime = at("2026-03-01T00:00:00Z")

    func terms(_ start: String, _ end: String?) -> PrintSubscriberTerms {
        PrintSubscriberTerms(start: Self.at(start), end: end.map(Self.at))
    }

    @Test func e29ALaterEndExtends() {
        let running = terms("2026-01-01T00:00:00Z", "2026-04-01T00:00:00Z")
        #expect(running.following(terms("2026-01-01T00:00:00Z", "2026-07-01T00:00:00Z"), at: Self.listTime).end
                == Self.at("2026-07-01T00:00:00Z"))
        #expect(running.following(terms("2026-01-01T00:00:00Z", nil), at: Self.listTime).end == nil)
        let lapsed = terms("2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z")
        #expect(lapsed.following(terms("2026-01-01T00:00:00Z", "2026-12-01T00:00:00Z"), at: Self.listTime).end
                == Self.at("2026-12-01T00:00:00Z"), "a lapsed subscriber renewed")
    }

    @Test func e29AnEarlierEndMovesButNeverBeforeTheListsTimeOrWhatWasServed() {
        let open = terms("2026-01-01T00:00:00Z", nil)
        #expect(open.following(terms("2026-01-01T00:00:00Z", "2026-05-01T00:00:00Z"), at: Self.listTime).end
                == Self.at("2026-05-01T00:00:00Z"))
        #expect(open.following(terms("2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z"), at: Self.listTime).end
                == Self.listTime, "not before the list's time")
        let lapsed = terms("2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z")
        #expect(lapsed.following(terms("2026-01-01T00:00:00Z", "2026-01-15T00:00:00Z"), at: Self.listTime) == lapsed,
                "what was served stays served")
        #expect(open.following(terms("2026-02-01T00:00:00Z", nil), at: Self.listTime).start == Self.start,
                "a served start does not move later")
        let future = terms("2026-06-01T00:00:00Z", nil)
        #expect(future.following(terms("2026-07-01T00:00:00Z", nil), at: Self.listTime).start == Self.at("2026-07-01T00:00:00Z"))
    }

    @Test func e29AMissingSubscriberEndsAtTheListsTimeOrItsOwnEarlierEnd() {
        #expect(terms("2026-01-01T00:00:00Z", nil).endingMissing(at: Self.listTime).end == Self.listTime)
        #expect(terms("2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z").endingMissing(at: Self.listTime).end
                == Self.at("2026-02-01T00:00:00Z"))
        let future = terms("2026-06-01T00:00:00Z", nil).endingMissing(at: Self.listTime)
        #expect(future.end == future.start, "never before its start: an empty interval")
        #expect(future.hasEnded(by: Self.listTime) == false && future.hasEnded(by: future.start))
    }
}
