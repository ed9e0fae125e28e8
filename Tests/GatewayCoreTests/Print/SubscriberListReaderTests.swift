import GatewayCore
import Testing

/// Subscriber lists read in pieces of any size (E29; RFC 4180 for CSV).
@Suite struct SubscriberListReaderTests {
    func read(_ text: String, _ format: SubscriberListFormat, pieces: Int) -> (lines: [ListLine], header: String?) {
        var reader = SubscriberListReader(format: format)
        var lines: [ListLine] = []
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + pieces)
            reader.feed(bytes[offset..<end]) { lines.append($0) }
            offset = end
        }
        reader.finish { lines.append($0) }
        return (lines, reader.headerError)
    }

    static let csv = "\u{FEFF}start,customerNumber,verification\r\n2026-01-01T00:00:00Z,C-1,\"multi\r\nline\"\r\n\r\n2026-01-01T00:00:00Z,C-2,ok\n"

    @Test func csvRecordsAreTheSameWhateverThePieces() {
        let whole = read(Self.csv, .csv, pieces: 1 << 20)
        #expect(whole.header == nil)
        for size in [1, 2, 3, 7] { #expect(read(Self.csv, .csv, pieces: size).lines == whole.lines, "pieces of \(size)") }
        guard case .row(let first) = whole.lines.first, case .row(let second) = whole.lines.last else {
            Issue.record("two rows expected: \(whole.lines)")
            return
        }
        #expect(first.customerNumber == "C-1" && first.line == 2 && first.terms.end == nil)
        #expect(second.customerNumber == "C-2" && second.line == 5, "physical lines: the quoted break counts")
    }

    @Test func anOverlongLineIsRefusedAloneAndABadHeaderRefusesTheList() {
        let long = String(repeating: "x", count: SubscriberListReader.maxLineBytes + 10)
        let text = "customerNumber,verification,start\n\(long),a,2026-01-01T00:00:00Z\nC-2,b,2026-01-01T00:00:00Z\n"
        let lines = read(text, .csv, pieces: 100).lines
        #expect(lines.count == 2)
        if case .rejected(let line, _) = lines.first { #expect(line == 2) } else { Issue.record("\(lines)") }
        if case .row(let row) = lines.last { #expect(row.customerNumber == "C-2" && row.line == 3) } else { Issue.record("\(lines)") }
        #expect(read("customerNumber,start\nC-1,2026-01-01T00:00:00Z\n", .csv, pieces: 5).header != nil)
        #expect(read("", .csv, pieces: 5).header != nil)
    }

    @Test func jsonLinesTakeNullOrAbsentEndsAndRefuseOtherShapes() {
        let text = """
            {"customerNumber":"C-1","verification":"a","start":"2026-01-01T00:00:00Z","end":null}
            {"customerNumber":"C-2","verification":"a","start":"2026-01-01T00:00:00Z"}\r
            [1,2]
            {"customerNumber":"C-3","verification":"a","start":"2026-01-01T00:00:00Z","extra":"x"}
            {"customerNumber":7,"verification":"a","start":"2026-01-01T00:00:00Z"}
            """
        let lines = read(text, .ndjson, pieces: 4).lines
        #expect(lines.count == 5)
        let rejected = lines.compactMap { if case .rejected(let line, _) = $0 { line } else { nil } }
        #expect(rejected == [3, 4, 5])
    }
}
