import Foundation
import HTTPServer
import HTTPServerTesting
import TestSupport

/// Sends requests to an in-process gateway: straight to its frozen router (`InProcessClient`, no
/// sockets) when the test is about routes, or over real sockets, one connection each (so an answer
/// that closes its connection cannot disturb the next request).
package struct APIClient {
    package enum Transport {
        case socket(port: Int)
        case inProcess(InProcessClient)
    }

    package let transport: Transport

    package init(port: Int) { transport = .socket(port: port) }
    package init(_ client: InProcessClient) { transport = .inProcess(client) }

    package func get(_ path: String, as secret: String? = nil, headers: [(String, String)] = []) throws -> APIResponse {
        try send("GET", path, as: secret, headers: headers)
    }

    package func post(_ path: String, as secret: String? = nil, json: String? = nil) throws -> APIResponse {
        try send("POST", path, as: secret, body: json.map { Array($0.utf8) })
    }

    package func put(_ path: String, as secret: String? = nil, json: String) throws -> APIResponse {
        try send("PUT", path, as: secret, body: Array(json.utf8))
    }

    package func delete(_ path: String, as secret: String? = nil) throws -> APIResponse {
        try send("DELETE", path, as: secret)
    }

    package func send(_ method: String, _ target: String, as secret: String? = nil, headers: [(String, String)] = [],
              body: [UInt8]? = nil, contentType: String = "application/json",
              sourceAddress: String? = nil) throws -> APIResponse {
        var fields = [("Host", "gateway")]
        if let secret { fields.append(("Authorization", "Bearer \(secret)")) }
        fields += headers
        if let body {
            fields += [("Content-Type", contentType), ("Content-Length", String(body.count))]
        }
        switch transport {
        case .inProcess(let client):
            let response = client.send(method, target, headers: fields, body: body ?? [], sourceAddress: sourceAddress)
            return APIResponse(status: response.status, headers: response.headers, body: response.body)
        case .socket:
            let head = "\(method) \(target) HTTP/1.1\r\n" + fields.map { "\($0.0): \($0.1)\r\n" }.joined() + "\r\n"
            return try exchange(Array(head.utf8) + (body ?? []), headOnly: method == "HEAD")
        }
    }

    /// Sends bytes as they are (for malformed requests) and reads one answer: sockets only.
    package func exchange(_ bytes: [UInt8], headOnly: Bool = false) throws -> APIResponse {
        guard case .socket(let port) = transport else { preconditionFailure("raw bytes need a socket transport") }
        let connection = try TestClient(port: port)
        connection.send(bytes)
        let response = try connection.readResponse(headOnly: headOnly)
        return APIResponse(status: response.status, headers: response.headers, body: response.body)
    }
}
