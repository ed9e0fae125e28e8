import Synchronization

/// What a scripted transport shares: answers handed out one per request, in order, and the
/// requests recorded, from any thread. Running past the script's end gives `exhausted`.
final class ScriptQueue<Answer: Sendable, Request: Sendable>: Sendable {
    private struct State {
        var script: [Answer]
        var recorded: [Request] = []
    }

    private let state: Mutex<State>

    init(_ script: [Answer]) { state = Mutex(State(script: script)) }

    var requests: [Request] { state.withLock { $0.recorded } }

    /// Records `request` and hands out the next answer.
    func next(for request: Request, exhausted: Answer) -> Answer {
        state.withLock { state in
            state.recorded.append(request)
            return state.script.isEmpty ? exhausted : state.script.removeFirst()
        }
    }
}
