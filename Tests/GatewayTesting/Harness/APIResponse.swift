import Foundation

/// One answer of the gateway as a test reads it: status, headers, raw body and the body as JSON.
package struct APIResponse {
    package var status: Int
    package var headers: [(String, String)]
    package var body: [UInt8]

    package var text: String { String(decoding: body, as: UTF8.self) }

    package func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }

    /// The body as a JSON object; empty when it is not one (a test expecting JSON then fails on the
    /// missing member it looks for).
    package var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])) as? [String: Any] ?? [:]
    }

    /// `error.code` of the spec's error shape.
    package var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
    package var errorMessage: String? { (json["error"] as? [String: Any])?["message"] as? String }

    /// The spec's error shape: exactly an `error` object with a snake_case `code` and a `message`.
    package var hasErrorShape: Bool {
        guard let error = json["error"] as? [String: Any], json.count == 1,
              let code = error["code"] as? String, let message = error["message"] as? String else { return false }
        return !message.isEmpty && code.allSatisfy { $0.isLowercase || $0 == "_" }
            && header("Content-Type")?.hasPrefix("application/json") == true
    }

    /// `json[key]` as an array of objects.
    package func objects(_ key: String) -> [[String: Any]] { json[key] as? [[String: Any]] ?? [] }
}
