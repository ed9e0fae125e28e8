import Synchronization
import Testing
import Lifecycle

/// What the fakes did, in order.
private final class Journal: Sendable {
    private let entries = Mutex<[String]>([])
    func note(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

private struct Refused: Error {}

private final class FakeService: BackgroundService {
    let name: String
    let journal: Journal
    let refuses: Bool

    init(_ name: String, _ journal: Journal, refuses: Bool = false) {
        self.name = name
        self.journal = journal
        self.refuses = refuses
    }

    func start() throws {
        if refuses { throw Refused() }
        journal.note("start \(name)")
    }
    func stop() { journal.note("stop \(name)") }
    func join() { journal.note("join \(name)") }
}

@Suite struct ServiceGroupTests {
    @Test func startsInOrderAndStopsInReverseJoiningEach() throws {
        let journal = Journal()
        let group = ServiceGroup(["log", "watcher", "poller"].map { FakeService($0, journal) })
        try group.run { journal.note("serving") }
        #expect(journal.all == ["start log", "start watcher", "start poller", "serving",
                                "stop poller", "join poller", "stop watcher", "join watcher", "stop log", "join log"])
    }

    @Test func aFailedStartStopsWhatAlreadyStarted() {
        let journal = Journal()
        let group = ServiceGroup([FakeService("log", journal), FakeService("watcher", journal),
                                  FakeService("poller", journal, refuses: true)])
        #expect(throws: Refused.self) { try group.run { journal.note("serving") } }
        #expect(journal.all == ["start log", "start watcher", "stop watcher", "join watcher", "stop log", "join log"])
    }

    @Test func theWaitFailingStillStopsEverything() {
        let journal = Journal()
        let group = ServiceGroup([FakeService("log", journal), FakeService("poller", journal)])
        #expect(throws: Refused.self) { try group.run { throw Refused() } }
        #expect(journal.all == ["start log", "start poller", "stop poller", "join poller", "stop log", "join log"])
    }
}
