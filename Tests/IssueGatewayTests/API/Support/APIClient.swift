import Foundation
import TestSupport

/// Sends requests to an in-process gateway over real sockets, one connection each (so an answer
/// that closes its connection cannot disturb the next request).
struct APIClient {
    let port: Int

    func get(_ path: String, as secret: String? = nil, headers: [(String, String)] = []) throws -> APIResponse {
        try send("GET", path, as: secret, headers: headers)
    }

    func post(_ path: String, as secret: String? = nil, json: String? = nil) throws -> APIResponse {
        try send("POST", path, as: secret, body: json.map { Array($0.utf8) })
    }

    func put(_ path: String, as secret: String? = nil, json: String) throws -> APIResponse {
        try send("PUT", path, as: secret, body: Array(json.utf8))
    }

    func delete(_ path: String, as secret: String? = nil) throws -> APIResponse {
        try send("DELETE", path, as: secret)
    }

    func send(_ method: String, _ target: String, as secret: String? = nil, headers: [(String, String)] = [],
              body: [UInt8]? = nil) throws -> APIResponse {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        if let secret { head += "Authorization: Bearer \(secret)\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body {
            head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n"
        }
        head += "\r\n"
        return try exchange(Array(head.utf8) + (body ?? []), headOnly: method == "HEAD")
    }

    /// Sends bytes as they are (for malformed requests) and reads one answer.
    func exchange(_ bytes: [UInt8], headOnly: Bool = false) throws -> APIResponse {
        let connection = try TestClient(port: port)
        connection.send(bytes)
        let response = try connection.readResponse(headOnly: headOnly)
        return APIResponse(status: response.status, headers: response.headers, body: response.body)
    }
}
