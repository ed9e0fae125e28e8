import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StripeKit
import Synchronization

/// Stripe's webhook delivery, played: each event the simulator recorded is posted to an endpoint
/// signed with its secret (`Stripe-Signature`, t = the sending time), in the order given, and an
/// answer other than 2xx or no answer is tried again with backoff (Stripe: up to three days in
/// live mode; here `attempts` tries), so tests see redelivery after a 503.
public struct StripeEventDelivery: Sendable {
    public var endpoint: URL
    public var secret: String
    public var attempts = 4
    public var backoff: TimeInterval = 0.05
    /// The signing time (the gateway's clock in tests).
    public var now: @Sendable () -> Int64

    public init(endpoint: URL, secret: String, now: @escaping @Sendable () -> Int64) {
        self.endpoint = endpoint; self.secret = secret; self.now = now
    }

    /// What became of one event: the statuses of its tries, the last one 2xx when it was taken.
    public struct Outcome: Sendable, Equatable {
        public var eventId: String
        public var statuses: [Int]
        public var taken: Bool { statuses.last.map { (200..<300).contains($0) } ?? false }
    }

    /// Posts each event until it is taken or the tries run out.
    public func deliver(_ events: [(id: String, body: [UInt8])]) -> [Outcome] {
        events.map { event in
            var statuses: [Int] = []
            for attempt in 0..<max(1, attempts) {
                if attempt > 0 { Thread.sleep(forTimeInterval: backoff * Double(1 << (attempt - 1))) }
                let status = post(event.body)
                statuses.append(status)
                if (200..<300).contains(status) { break }
            }
            return Outcome(eventId: event.id, statuses: statuses)
        }
    }

    /// One signed POST; 0 when no answer came.
    private func post(_ body: [UInt8]) -> Int {
        guard let header = try? StripeSignatureVerifier.header(for: body, timestamp: now(), secrets: [secret]) else { return 0 }
        var request = URLRequest(url: endpoint, timeoutInterval: 15)
        request.httpMethod = "POST"
        request.setValue(header, forHTTPHeaderField: "Stripe-Signature")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body)
        let done = DispatchSemaphore(value: 0)
        let status = StatusBox()
        URLSession.shared.dataTask(with: request) { _, response, _ in
            status.set((response as? HTTPURLResponse)?.statusCode ?? 0)
            done.signal()
        }.resume()
        done.wait()
        return status.value
    }
}

/// The status a URLSession callback hands back to the waiting sender.
private final class StatusBox: Sendable {
    private let stored = Mutex(0)
    func set(_ value: Int) { stored.withLock { $0 = value } }
    var value: Int { stored.withLock { $0 } }
}
