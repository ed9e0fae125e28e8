import Foundation
import Lifecycle
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One kept `URLSession` for one outside service, its requests waited for with an exact deadline
/// and their bodies read through a delegate, so an oversized answer is cut off while it arrives
/// instead of after it has filled memory. Every client of Apple, Google, Stripe and webhook
/// receivers sends through one of these (`HTTPTransport`).
///
/// Kept, so that libcurl reuses connections to the service between calls instead of opening a
/// new TCP (and TLS) connection and session machinery for each; one per service, so no state
/// crosses services. No cookies, cache or stored credentials: every answer must come from the
/// service, and nothing one caller received is sent by another.
public final class URLSessionExchange: HTTPTransport {
    /// The deadline is kept here, not by URLSession: swift-corelibs-foundation truncates its
    /// timeouts to whole seconds (0.5 s fires at once), so URLSession gets the timeout rounded up
    /// plus this margin as a backstop, and the caller cancels the task at the exact deadline.
    static let sessionTimeoutMargin: TimeInterval = 1
    /// Connections open to one host at once: above any worker pool's thread count
    /// (`ISSUE_GATEWAY_*_THREADS` ≤ 1024), so the calling pool is the bound and no call waits inside
    /// libcurl (6 by default) while its deadline runs.
    public static let defaultMaximumConnectionsPerHost = 1024

    private let session: URLSession
    private let tasks: TaskCollectors

    public init(maximumConnectionsPerHost: Int = defaultMaximumConnectionsPerHost) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCredentialStorage = nil
        configuration.httpMaximumConnectionsPerHost = maximumConnectionsPerHost
        tasks = TaskCollectors()
        session = URLSession(configuration: configuration, delegate: tasks, delegateQueue: nil)
    }

    deinit { session.invalidateAndCancel() }

    public func send(method: String, url: URL, headers: [String: String], body: Data?, timeout: TimeInterval,
                     maximumResponseBytes: Int) throws(TransportFailure) -> HTTPExchangeResult {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        return try perform(request, timeout: timeout, maximumResponseBytes: maximumResponseBytes)
    }

    public func perform(_ request: URLRequest, timeout: TimeInterval,
                        maximumResponseBytes: Int) throws(TransportFailure) -> HTTPExchangeResult {
        var request = request
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.timeoutInterval = timeout.rounded(.up) + Self.sessionTimeoutMargin
        let task = session.dataTask(with: request)
        let collector = ResponseCollector(limit: maximumResponseBytes)
        tasks.register(collector, for: task.taskIdentifier)
        defer { tasks.remove(task.taskIdentifier) }
        task.resume()
        guard collector.waitUntilFinished(timeout: .seconds(timeout)) else {
            task.cancel()
            throw .timedOut
        }
        return try collector.result()
    }
}

/// The session's delegate: hands each callback to the collector of its task. A callback for a
/// task no longer waited for (cancelled at its deadline) is dropped.
private final class TaskCollectors: NSObject, URLSessionDataDelegate, Sendable {
    private let collectors = Mutex<[Int: ResponseCollector]>([:])

    func register(_ collector: ResponseCollector, for task: Int) { collectors.withLock { $0[task] = collector } }
    func remove(_ task: Int) { _ = collectors.withLock { $0.removeValue(forKey: task) } }
    private func collector(_ task: URLSessionTask) -> ResponseCollector? { collectors.withLock { $0[task.taskIdentifier] } }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        guard let collector = collector(dataTask) else { return completionHandler(.cancel) }
        collector.received(response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let collector = collector(dataTask) else { return dataTask.cancel() }
        if collector.received(data) { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        collector(task)?.completed(error)
    }
}

/// Collects one task's answer: the session's delegate feeds it on URLSession's queue, the caller
/// waits until the task has completed and then reads the result.
private final class ResponseCollector: Sendable {
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

    func received(_ response: URLResponse) {
        let http = response as? HTTPURLResponse
        var fields: [String: String] = [:]
        for (name, value) in http?.allHeaderFields ?? [:] {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        collected.withLock { $0.statusCode = http?.statusCode; $0.headers = fields }
    }

    /// Appends a part of the body; true when the answer went over the limit (the task is cancelled).
    func received(_ data: Data) -> Bool {
        collected.withLock { collected in
            guard !collected.exceeded else { return false }
            if collected.body.count + data.count > limit {
                collected.exceeded = true
                collected.body = Data()
                return true
            }
            collected.body.append(data)
            return false
        }
    }

    func completed(_ error: Error?) {
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
