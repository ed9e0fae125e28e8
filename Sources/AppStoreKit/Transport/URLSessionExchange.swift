import Foundation
import Lifecycle
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request on an ephemeral `URLSession` (App Store calls must not share cookies or caches),
/// the body read through a delegate so an oversized answer is cut off while it arrives instead
/// of after it has filled memory. Both App Store transports send through here.
enum URLSessionExchange {
    /// The deadline is kept here, not by URLSession: swift-corelibs-foundation truncates its
    /// timeouts to whole seconds (0.5 s fires at once), so URLSession gets the timeout rounded up
    /// plus this margin as a backstop, and the caller cancels the task at the exact deadline.
    static let sessionTimeoutMargin: TimeInterval = 1

    static func perform(_ request: URLRequest, timeout: TimeInterval,
                        maximumResponseBytes: Int) throws(TransportFailure) -> HTTPExchangeResult {
        let configuration = URLSessionConfiguration.ephemeral
        let sessionTimeout = timeout.rounded(.up) + sessionTimeoutMargin
        configuration.timeoutIntervalForRequest = sessionTimeout
        configuration.timeoutIntervalForResource = sessionTimeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        let collector = ResponseCollector(limit: maximumResponseBytes)
        let session = URLSession(configuration: configuration, delegate: collector, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        var request = request
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.timeoutInterval = sessionTimeout
        let task = session.dataTask(with: request)
        task.resume()
        guard collector.waitUntilFinished(timeout: .seconds(timeout)) else {
            task.cancel()
            throw .timedOut
        }
        return try collector.result()
    }
}

/// Collects one task's answer: URLSession calls it on its own queue, the caller waits until the
/// task has completed and then reads the result.
private final class ResponseCollector: NSObject, URLSessionDataDelegate, Sendable {
    private struct Collected: Sendable {
        var statusCode: Int?
        var headers: [String: String] = [:]
        var body = Data()
        var exceeded = false
        var failure: Error?
        var finished = false
    }

    private let limit: Int
    private let collected = Condition(Collected())

    init(limit: Int) { self.limit = limit }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let http = response as? HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        collected.withLock { $0.statusCode = http?.statusCode; $0.headers = fields }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overflow: Bool = collected.withLock { collected in
            guard !collected.exceeded else { return false }
            if collected.body.count + data.count > limit {
                collected.exceeded = true
                collected.body = Data()
                return true
            }
            collected.body.append(data)
            return false
        }
        if overflow { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        collected.withLock { $0.failure = error; $0.finished = true }
        collected.signal()
    }

    /// True when the task completed within `timeout`.
    func waitUntilFinished(timeout: Duration) -> Bool {
        collected.withLock(when: \.finished, timeout: timeout) { $0.finished }
    }

    func result() throws(TransportFailure) -> HTTPExchangeResult {
        let collected = collected.withLock { $0 }
        if collected.exceeded { throw .responseTooLarge(limit: limit) }
        if let failure = collected.failure {
            if let urlError = failure as? URLError, urlError.code == .timedOut { throw .timedOut }
            throw .connection(failure.localizedDescription)
        }
        guard let statusCode = collected.statusCode else { throw .connection("no HTTP response") }
        return HTTPExchangeResult(statusCode: statusCode, body: collected.body, headers: collected.headers)
    }
}
