import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The real transport: one ephemeral `URLSession` per call (verifyReceipt calls are rare and
/// must not share cookies or caches), the body read through a delegate so an oversized answer is
/// cut off while it arrives instead of after it has filled memory.
public struct URLSessionVerifyReceiptTransport: VerifyReceiptTransport {
    /// The deadline is kept here, not by URLSession: swift-corelibs-foundation truncates its
    /// timeouts to whole seconds (0.5 s fires at once), so URLSession gets the timeout rounded up
    /// plus this margin as a backstop, and the caller cancels the task at the exact deadline.
    public static let sessionTimeoutMargin: TimeInterval = 1

    public init() {}

    public func post(_ body: Data, to url: URL, timeout: TimeInterval,
                     maximumResponseBytes: Int) throws(TransportFailure) -> HTTPExchangeResult {
        try post(body, to: url, headers: [], timeout: timeout, maximumResponseBytes: maximumResponseBytes)
    }

    /// A JSON POST with extra header fields (the gateway's webhooks sign theirs).
    public func post(_ body: Data, to url: URL, headers: [(String, String)], timeout: TimeInterval,
                     maximumResponseBytes: Int) throws(TransportFailure) -> HTTPExchangeResult {
        let configuration = URLSessionConfiguration.ephemeral
        let sessionTimeout = timeout.rounded(.up) + Self.sessionTimeoutMargin
        configuration.timeoutIntervalForRequest = sessionTimeout
        configuration.timeoutIntervalForResource = sessionTimeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        let collector = ResponseCollector(limit: maximumResponseBytes)
        let session = URLSession(configuration: configuration, delegate: collector, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: sessionTimeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        let task = session.dataTask(with: request)
        task.resume()
        guard collector.finished.wait(timeout: .now() + timeout) == .success else {
            task.cancel()
            throw .timedOut
        }
        return try collector.result()
    }
}

/// Collects one task's answer; URLSession calls it on its own queue, the caller reads it after
/// `finished` is signalled, and the lock orders the two.
private final class ResponseCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let finished = DispatchSemaphore(value: 0)
    private let limit: Int
    private let lock = NSLock()
    private var statusCode: Int?
    private var body = Data()
    private var exceeded = false
    private var failure: Error?

    init(limit: Int) { self.limit = limit }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        lock.withLock { statusCode = (response as? HTTPURLResponse)?.statusCode }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overflow: Bool = lock.withLock {
            guard !exceeded else { return false }
            if body.count + data.count > limit {
                exceeded = true
                body = Data()
                return true
            }
            body.append(data)
            return false
        }
        if overflow { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.withLock { failure = error }
        finished.signal()
    }

    func result() throws(TransportFailure) -> HTTPExchangeResult {
        let (statusCode, body, exceeded, failure) = lock.withLock { (self.statusCode, self.body, self.exceeded, self.failure) }
        if exceeded { throw .responseTooLarge(limit: limit) }
        if let failure {
            if let urlError = failure as? URLError, urlError.code == .timedOut { throw .timedOut }
            throw .connection(failure.localizedDescription)
        }
        guard let statusCode else { throw .connection("no HTTP response") }
        return HTTPExchangeResult(statusCode: statusCode, body: body)
    }
}
