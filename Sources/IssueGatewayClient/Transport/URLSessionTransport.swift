import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default ``HTTPTransport``: a `URLSession` of its own with no cache and no cookie storage,
/// so that the client's entity tags and the CDN cookies it is handed decide, and nothing else.
///
/// `URLSession` asks for gzip (`Accept-Encoding`) and decodes it by itself, on Apple platforms
/// and on Linux alike.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession

    /// Makes a transport; `timeout` bounds each request (seconds without any data arriving).
    public init(timeout: TimeInterval = 30) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.timeoutIntervalForRequest = timeout
        session = URLSession(configuration: configuration)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Sends the request through the transport's `URLSession`.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let urlRequest = Self.urlRequest(request)
        return try await withCheckedThrowingContinuation { continuation in
            let task = session.dataTask(with: urlRequest) { data, response, error in
                guard let http = response as? HTTPURLResponse else {
                    continuation.resume(throwing: error ?? URLError(.badServerResponse))
                    return
                }
                continuation.resume(returning: Self.response(http, body: data ?? Data()))
            }
            task.resume()
        }
    }

    /// Streams the file to a temporary file, then moves it to `destination` on a 2xx answer.
    public func download(_ request: HTTPRequest, to destination: URL) async throws -> HTTPResponse {
        let urlRequest = Self.urlRequest(request)
        return try await withCheckedThrowingContinuation { continuation in
            let task = session.downloadTask(with: urlRequest) { file, response, error in
                guard let http = response as? HTTPURLResponse else {
                    continuation.resume(throwing: error ?? URLError(.badServerResponse))
                    return
                }
                do {
                    // The temporary file is removed when this handler returns: move or read it now.
                    guard let file else { throw error ?? URLError(.cannotCreateFile) }
                    if (200..<300).contains(http.statusCode) {
                        let manager = FileManager.default
                        if manager.fileExists(atPath: destination.path) { try manager.removeItem(at: destination) }
                        try manager.moveItem(at: file, to: destination)
                        continuation.resume(returning: Self.response(http, body: Data()))
                    } else {
                        continuation.resume(returning: Self.response(http, body: (try? Data(contentsOf: file)) ?? Data()))
                    }
                } catch {
                    continuation.resume(throwing: error)
                }
            }
            task.resume()
        }
    }

    private static func urlRequest(_ request: HTTPRequest) -> URLRequest {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        return urlRequest
    }

    private static func response(_ http: HTTPURLResponse, body: Data) -> HTTPResponse {
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return HTTPResponse(status: http.statusCode, headers: headers, body: body)
    }
}
