@testable import HTTPServer

/// Drives an `HTTPRequestParser` over a byte string cut into pieces, as a connection would.
struct ParserHarness {
    enum Outcome: Equatable {
        case request(method: String, target: String, body: [UInt8])
        case failure(status: Int)
    }

    var limits = HTTPParserLimits()
    var bodyLimit = 1 << 20

    /// Every outcome for `input` delivered in `pieces`, plus the bytes left unconsumed.
    /// Stops at the first failure, as the server does. Each call must make progress or ask for
    /// more, so the loop is bounded by the input's length.
    func run(_ input: [UInt8], pieces: [Int]? = nil) -> (outcomes: [Outcome], leftover: Int) {
        var parser = HTTPRequestParser(limits: limits)
        var buffer: [UInt8] = []
        var outcomes: [Outcome] = []
        var cuts = pieces ?? [input.count]
        var offset = 0
        var calls = 0
        while offset < input.count || !cuts.isEmpty {
            let size = cuts.isEmpty ? input.count - offset : min(cuts.removeFirst(), input.count - offset)
            buffer += input[offset..<offset + size]
            offset += size
            while true {
                calls += 1
                precondition(calls < 10 * (input.count + 10), "parser made no progress")
                let (consumed, event) = buffer.withUnsafeBufferPointer { parser.parse($0) { _ in bodyLimit } }
                precondition(consumed >= 0 && consumed <= buffer.count)
                buffer.removeFirst(consumed)
                switch event {
                case .needMore: break
                case .continueExpected: continue
                case .request(let head, let body):
                    outcomes.append(.request(method: head.method, target: head.target, body: body))
                    continue
                case .failure(let error):
                    outcomes.append(.failure(status: error.status))
                    return (outcomes, buffer.count)
                }
                break
            }
            if offset >= input.count && cuts.isEmpty { break }
        }
        return (outcomes, buffer.count)
    }
}
