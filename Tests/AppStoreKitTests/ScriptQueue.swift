import Foundation

/// What a scripted transport shares: answers handed out one per request, in order, and the
/// requests recorded, from any thread. Running past the script's end gives `exhausted`.
final class ScriptQueue<Answer, Request>: @unchecked Sendable {
    private let lock = NSLock()
    private var script: [Answer]
    private var recorded: [Request] = []

    init(_ script: [Answer]) { self.script = script }

    var requests: [Request] { lock.withLock { recorded } }

    /// Records `request` and hands out the next answer.
    func next(for request: Request, exhausted: Answer) -> Answer {
        lock.withLock {
            recorded.append(request)
            return script.isEmpty ? exhausted : script.removeFirst()
        }
    }
}
