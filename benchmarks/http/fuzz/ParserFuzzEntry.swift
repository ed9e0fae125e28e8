// libFuzzer entry for the HTTP request parser (benchmarks/http/fuzz.sh builds it with
// `swiftc -sanitize=fuzzer,address` together with the parser's sources).
// Property, as in the seeded fuzz test: no crash, no stall, and the same outcome whether the
// bytes arrive at once or cut in two at a point chosen by the first byte.

enum Outcome: Equatable {
    case request(String, String, [UInt8])
    case failure(Int)
}

func run(_ input: [UInt8], cut: Int) -> [Outcome] {
    var parser = HTTPRequestParser(limits: HTTPParserLimits(maxRequestLineBytes: 256, maxHeaderBytes: 512,
                                                              maxHeaderFields: 8))
    var buffer: [UInt8] = []
    var outcomes: [Outcome] = []
    for piece in [input[..<cut], input[cut...]] {
        buffer += piece
        var calls = 0
        let bound = buffer.count + 16  // every call but the last consumes at least one byte
        parsing: while true {
            calls += 1
            precondition(calls <= bound, "parser made no progress")
            let (consumed, event) = buffer.withUnsafeBufferPointer { parser.parse($0) { _ in 64 } }
            buffer.removeFirst(consumed)
            switch event {
            case .needMore: break parsing
            case .continueExpected: continue
            case .request(let head, let body): outcomes.append(.request(head.method, head.target, body))
            case .failure(let error):
                outcomes.append(.failure(error.status))
                return outcomes
            }
        }
    }
    return outcomes
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParser(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: count))
    let cut = input.isEmpty ? 0 : Int(input[0]) % (input.count + 1)
    precondition(run(input, cut: 0) == run(input, cut: cut), "outcome depends on how the input is cut")
    return 0
}
