import AppStoreKit
import Foundation
import OutboundHTTP

/// POSTs a JSON body and waits for the answer: how the simulator delivers notifications to a
/// gateway and how the CLI talks to a running simulator. It goes through the verifyReceipt
/// client's transport, whose deadline is kept exactly (Linux URLSession rounds its own).
/// Blocking: worker threads and the CLI only.
public enum NotificationPoster {
    public struct Answer: Sendable {
        public var status: Int
        public var body: Data
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// How long a gateway or simulator gets to answer one notification.
    public static let timeout: TimeInterval = 15
    /// The longest answer read.
    static let maximumAnswerBytes = 1 << 20

    public static func post(_ body: Data, to url: URL, timeout: TimeInterval = timeout) throws(Failure) -> Answer {
        do {
            let exchange = try URLSessionExchange().postJSON(body, to: url, timeout: timeout,
                                                             maximumResponseBytes: maximumAnswerBytes)
            return Answer(status: exchange.statusCode, body: exchange.body)
        } catch {
            throw Failure(description: "\(error)")
        }
    }
}
