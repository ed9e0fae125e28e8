import Foundation
import Lifecycle

/// A signal between handler threads and the test, counted: each `open` lets one `wait` through.
public final class Gate: Sendable {
    private let opened = Condition(0)

    public init() {}

    public func open() {
        opened.withLock { $0 += 1 }
        opened.signal()
    }

    /// False when the gate was not opened within `seconds`.
    @discardableResult
    public func wait(seconds: Double = 5) -> Bool {
        opened.withLock(when: { $0 > 0 }, timeout: .seconds(seconds)) { opened in
            guard opened > 0 else { return false }
            opened -= 1
            return true
        }
    }
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
