import Foundation
import GatewayStore
import GooglePlayKit
import Lifecycle
import Wire

/// Pub/Sub pull (for gateways no public endpoint reaches): drains the configured subscription and
/// acknowledges a message only once its facts are stored (or it is one the gateway can never take:
/// malformed, another package), so nothing acknowledged is lost; a message whose facts could not
/// be stored (Google or the store unreachable) is left for Pub/Sub to deliver again. Deduplicated on
/// `messageId` with the pushes.
public final class GooglePlayPuller: ThreadBackedService {
    /// The pause after an empty pull or a failure; a full pull pulls again at once.
    static let idle: Duration = .seconds(1)

    private let client: PubSubPullClient
    private let ingestion: GooglePlayIngestion
    public let serviceThread = ServiceThread(name: "googleplay-puller")

    package init(client: PubSubPullClient, ingestion: GooglePlayIngestion) {
        self.client = client; self.ingestion = ingestion
    }

    /// One pull: the messages taken (stored or seen before) and acknowledged.
    @discardableResult
    package func pass() -> Int {
        guard let received = try? client.pull() else { return 0 }
        var done: [String] = []
        for message in received {
            switch message.envelope {
            case .failure:
                done.append(message.ackId)  // never readable: redelivering it would change nothing
            case .success(let envelope):
                do {
                    _ = try ingestion.take(envelope)
                    done.append(message.ackId)
                } catch .invalid {
                    done.append(message.ackId)  // another package: never the gateway's to take
                } catch {
                    continue  // left unacknowledged: Pub/Sub delivers it again
                }
            }
        }
        try? client.acknowledge(done)
        return done.count
    }

    public func run(until stop: StopToken) {
        while !stop.isStopRequested {
            let taken = pass()
            if taken == 0, stop.pause(for: Self.idle) { break }
        }
    }
}
