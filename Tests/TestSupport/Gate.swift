import Foundation

/// A one-shot signal between a handler thread and the test.
public final class Gate: @unchecked Sendable {
    public init() {}
    private let semaphore = DispatchSemaphore(value: 0)
    public func open() { semaphore.signal() }
    /// False when the gate was not opened within `seconds`.
    @discardableResult
    public func wait(seconds: Double = 5) -> Bool { semaphore.wait(timeout: .now() + seconds) == .success }
}

/// Polls `condition` until it holds or `seconds` pass: for state the server exposes no event for.
public func eventually(seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        usleep(1000)
    }
    return condition()
}
