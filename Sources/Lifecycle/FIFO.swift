/// A first-in, first-out queue. A taken element's slot is emptied at once (what a queue holds
/// must not outlive its taking: a request's body, a caller's closure), and the storage is
/// compacted now and then instead of shifting the array on every take.
public struct FIFO<Element> {
    private var slots: [Element?] = []
    private var head = 0

    public init() {}

    public var count: Int { slots.count - head }

    public mutating func append(_ element: Element) { slots.append(element) }

    /// The oldest element, nil when the queue is empty.
    public mutating func popFirst() -> Element? {
        guard head < slots.count else { return nil }
        let element = slots[head]
        slots[head] = nil
        head += 1
        if head == slots.count {
            slots.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 1024 && head * 2 > slots.count {
            slots.removeFirst(head)
            head = 0
        }
        return element
    }
}

extension FIFO: Sendable where Element: Sendable {}
