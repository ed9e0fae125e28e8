import AppStoreKit
import Foundation
import GatewayCore

/// POSTs one signed event and waits for the answer. Blocking by contract: it runs on the webhook
/// deliverer's own thread, never on an event loop. Tests may put a scripted receiver behind it.
package protocol WebhookTransport: Sendable {
    func post(_ body: Data, to url: URL, headers: [(String, String)], timeout: TimeInterval,
              maximumResponseBytes: Int) throws(TransportFailure) -> HTTPExchangeResult
}

/// The real transport: FoundationNetworking's URLSession (libcurl), as verifyReceipt uses.
extension URLSessionVerifyReceiptTransport: WebhookTransport {}
