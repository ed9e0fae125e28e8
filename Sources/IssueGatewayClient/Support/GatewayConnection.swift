import Foundation

/// One call of the API before it is sent: method, path segments (each percent-encoded on its
/// own), query, JSON body and the bearer.
struct APICall: Sendable {
    var method: String
    var path: [String]
    var query: [URLQueryItem] = []
    var body: Data? = nil
    var bearer: String? = nil
    var headers: [String: String] = [:]

    init(_ method: String, _ path: String..., query: [URLQueryItem] = [], bearer: String? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.bearer = bearer
    }

    /// The call with `body` encoded as its JSON body.
    func json(_ body: some Encodable) -> APICall {
        var call = self
        call.body = try? WireCoding.encoder().encode(body)
        return call
    }
}

/// Sends calls to one gateway: builds the request, maps a failure to ``IssueGatewayError`` and
/// retries as the ``RetryPolicy`` allows.
struct GatewayConnection: Sendable {
    let baseURL: URL
    let transport: any HTTPTransport
    let retryPolicy: RetryPolicy

    /// Path characters kept as they are in a segment (RFC 3986 `pchar` without `/`).
    private static let segmentCharacters: CharacterSet = {
        var set = CharacterSet.urlPathAllowed
        set.remove(charactersIn: "/;")
        return set
    }()

    func request(_ call: APICall) -> HTTPRequest {
        let path = call.path.map { $0.addingPercentEncoding(withAllowedCharacters: Self.segmentCharacters) ?? $0 }
        var base = baseURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        var components = URLComponents(string: base + "/" + path.joined(separator: "/"))!
        if !call.query.isEmpty { components.queryItems = call.query }
        var headers = call.headers
        headers["Accept"] = "application/json"
        if let bearer = call.bearer { headers["Authorization"] = "Bearer \(bearer)" }
        if call.body != nil { headers["Content-Type"] = "application/json" }
        return HTTPRequest(method: call.method, url: components.url!, headers: headers, body: call.body)
    }

    /// Sends the call; any status in `accepting` (2xx by default) is returned, any other is thrown
    /// as the API's error, after the retries the policy allows.
    func send(_ call: APICall, accepting: (Int) -> Bool = { (200..<300).contains($0) })
        async throws(IssueGatewayError) -> HTTPResponse {
        let request = request(call)
        var retries = 0
        while true {
            let response: HTTPResponse
            do {
                response = try await transport.send(request)
            } catch {
                throw .network(error)
            }
            if accepting(response.status) { return response }
            let failure = Self.error(from: response)
            guard RetryPolicy.isIdempotent(call.method), response.status == 429 || response.status == 503,
                  retries < retryPolicy.maximumRetries,
                  let wait = failure.retryAfter, wait <= retryPolicy.maximumWait else { throw failure }
            retries += 1
            do {
                try await retryPolicy.sleep(wait)
            } catch {
                throw .network(error)
            }
        }
    }

    /// Sends the call and decodes its JSON answer.
    func decode<T: Decodable>(_ type: T.Type, _ call: APICall) async throws(IssueGatewayError) -> T {
        try Self.decode(type, from: try await send(call).body)
    }

    static func decode<T: Decodable>(_ type: T.Type, from body: Data) throws(IssueGatewayError) -> T {
        do {
            return try WireCoding.decoder().decode(type, from: body)
        } catch {
            throw .malformed("\(T.self): \(error)")
        }
    }

    /// The API's error object (`{"error": {"code", "message", …}}`), or a generic one named for
    /// the status when the body is not that shape (a proxy's page).
    static func error(from response: HTTPResponse) -> IssueGatewayError {
        let retryAfter = RetryAfter.seconds(response.header("Retry-After"))
        if let envelope = try? JSONDecoder().decode([String: JSONValue].self, from: response.body),
           case .object(var fields)? = envelope["error"], let code = fields["code"]?.stringValue {
            let message = fields["message"]?.stringValue ?? ""
            fields["code"] = nil
            fields["message"] = nil
            return IssueGatewayError(code: .init(rawValue: code), message: message, status: response.status,
                                     retryAfter: retryAfter, details: fields)
        }
        return IssueGatewayError(code: genericCode(response.status), message: "the gateway answered \(response.status)",
                                 status: response.status, retryAfter: retryAfter)
    }

    private static func genericCode(_ status: Int) -> IssueGatewayError.Code {
        switch status {
        case 400: .badRequest
        case 401: .unauthorized
        case 403: .forbidden
        case 404: .notFound
        case 409: .conflict
        case 413: .payloadTooLarge
        case 429: .rateLimited
        default: .unrecognized("http_\(status)")
        }
    }
}
