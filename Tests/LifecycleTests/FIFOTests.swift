import Testing
import Lifecycle

/// `FIFO`: first in, first out, across its compactions, and a taken element is let go of at once.
@Suite struct FIFOTests {
    @Test func elementsComeOutInTheOrderTheyWentInAcrossCompactions() {
        var queue = FIFO<Int>()
        var taken: [Int] = []
        // A queue that never empties: two in for every one out, long past the compaction's threshold.
        for value in 0..<6_000 {
            queue.append(value)
            if value % 2 == 1, let first = queue.popFirst() { taken.append(first) }
        }
        #expect(queue.count == 3_000)
        while let first = queue.popFirst() { taken.append(first) }
        #expect(taken.count == 6_000)
        #expect(taken.indices.first { taken[$0] != $0 } == nil, "the first element out of its place")
        #expect(queue.count == 0 && queue.popFirst() == nil)
    }

    @Test func aTakenElementIsNotKeptByTheQueue() {
        final class Held {}
        var queue = FIFO<Held>()
        weak var watched: Held?
        do {
            let held = Held()
            watched = held
            queue.append(held)
            queue.append(Held())
            _ = queue.popFirst()
        }
        #expect(watched == nil)
        #expect(queue.count == 1)
    }
}
