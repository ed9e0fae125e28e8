import Testing
@testable import HTTPServer
import TestSupport

/// A seeded mutation fuzzer for the parser, bounded in iterations so it runs in the normal suite.
/// Properties: the parser never crashes or stalls (the harness traps on no progress), and cutting
/// the same bytes into different pieces never changes what it finds.
@Suite struct HTTPRequestParserFuzzTests {
    static let corpus: [String] = [
        "GET /v1/publications/monthly/issues?include=all HTTP/1.1\r\nHost: gw\r\nAuthorization: Bearer abc\r\n\r\n",
        "POST /v1/accounts HTTP/1.1\r\nHost: gw\r\nContent-Length: 11\r\nContent-Type: application/json\r\n\r\n{\"a\":\"b\"}\r\n",
        "PUT /x HTTP/1.1\r\nHost: gw\r\nTransfer-Encoding: chunked\r\n\r\n4;a=b\r\nwiki\r\n5\r\npedia\r\n0\r\nT: 1\r\n\r\n",
        "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\nHEAD /h HTTP/1.1\r\nHost: a\r\n\r\n",
        "POST /e HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nhi",
    ]

    static let interesting: [[UInt8]] = ["\r\n", "\r", "\n", " ", ":", "\t", "0", "chunked", "Content-Length: 5\r\n",
                                          "Transfer-Encoding: chunked\r\n", "\u{0}", "ffffffff", ",", ";", "HTTP/1.1"]
        .map { Array($0.utf8) }

    static func mutate(_ input: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &rng)
            switch Int.random(in: 0..<6, using: &rng) {
            case 0 where !bytes.isEmpty: bytes[position] = UInt8.random(in: 0...255, using: &rng)
            case 1 where !bytes.isEmpty: bytes[position] ^= 1 << UInt8.random(in: 0..<8, using: &rng)
            case 2: bytes.insert(contentsOf: interesting.randomElement(using: &rng)!, at: position)
            case 3 where !bytes.isEmpty:
                bytes.removeSubrange(position..<min(bytes.count, position + Int.random(in: 1...8, using: &rng)))
            case 4 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int.random(in: 1...16, using: &rng))
                bytes.insert(contentsOf: bytes[position..<end], at: end)
            default: bytes = Array(bytes.prefix(position))
            }
        }
        return bytes
    }

    @Test func mutatedRequestsNeverCrashAndDoNotDependOnHowTheyAreCut() {
        var rng = SplitMix64(seed: 0x1554_0E47_A7E0_0004)
        var harness = ParserHarness()
        harness.limits.maxRequestLineBytes = 64
        harness.limits.maxHeaderBytes = 160
        harness.limits.maxHeaderFields = 6
        harness.bodyLimit = 24
        var failures = 0
        var requests = 0
        for iteration in 0..<20_000 {
            let seed = Array(Self.corpus[iteration % Self.corpus.count].utf8)
            let input = Self.mutate(seed, &rng)
            let whole = harness.run(input)
            var pieces: [Int] = []
            var remaining = input.count
            while remaining > 0 {
                let piece = Int.random(in: 1...max(1, min(remaining, 9)), using: &rng)
                pieces.append(piece)
                remaining -= piece
            }
            let cut = harness.run(input, pieces: pieces)
            #expect(whole.outcomes == cut.outcomes, "iteration \(iteration): \(String(decoding: input, as: UTF8.self).debugDescription)")
            if whole.outcomes != cut.outcomes { break }
            for outcome in whole.outcomes {
                if case .failure = outcome { failures += 1 } else { requests += 1 }
            }
        }
        // The mutator reaches both sides of the parser.
        #expect(failures > 2000)
        #expect(requests > 2000)
    }
}
