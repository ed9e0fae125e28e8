import Testing
import GatewayStore

/// `SQLRowChunks.idLists`: every id once and in order, lists of at most the limit, each padded to
/// a power of two with its own last id, so a connection prepares a few statement texts.
@Suite struct SQLRowChunksTests {
    private func lists(_ count: Int, maxIds: Int = 128) -> [[String]] {
        SQLRowChunks.idLists((0..<count).map { "a\($0)" }, maxIds: maxIds).map { list in
            list.values.map { value -> String in
                guard case .text(let id) = value else { return "not text: \(value)" }
                return id
            }
        }
    }

    @Test func idsAreListedOnceInOrderInPowerOfTwoListsWithinTheLimit() {
        for count in [1, 2, 3, 5, 100, 128, 129, 300] {
            let listed = lists(count)
            #expect(listed.count == (count + 127) / 128, "\(count) ids")
            #expect(listed.allSatisfy { $0.count <= 128 && $0.count & ($0.count - 1) == 0 }, "\(count) ids: \(listed.map(\.count))")
            var seen: [String] = []
            for list in listed {
                // The padding repeats the list's own last id.
                let real = list.reduce(into: [String]()) { ids, id in if ids.last != id { ids.append(id) } }
                seen += real
            }
            #expect(seen == (0..<count).map { "a\($0)" }, "\(count) ids")
        }
        #expect(lists(0).isEmpty)
        #expect(lists(5, maxIds: .max).map(\.count) == [8])
    }
}
