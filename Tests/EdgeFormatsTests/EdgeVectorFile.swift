import Foundation

/// The CDN-native vectors (tokens.md, CDN-native formats, Tests), made with the CDNs' own
/// libraries and kept here byte for byte as shared/vectors/edge/edge-vectors.json has them, and
/// the test-only keys of the refusal tests.
enum EdgeVectorFile {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Vectors")

    /// Parsed on each use: `[String: Any]` is not `Sendable`, so it is not kept in a static.
    static var root: [String: Any] {
        let data = try! Data(contentsOf: folder.appendingPathComponent("edge-vectors.json"))
        return try! JSONSerialization.jsonObject(with: data) as! [String: Any]
    }

    static func section(_ name: String) -> [[String: Any]] {
        (root[name] as! [String: Any])["vectors"] as! [[String: Any]]
    }

    static var keys: [String: Any] { root["keys"] as! [String: Any] }

    static func cloudFrontKey(_ name: String) -> [String: String] {
        (keys["cloudfront"] as! [String: Any])[name] as! [String: String]
    }

    static func text(_ file: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
    }

    /// CloudFront's base64 back to bytes: `-`→`+`, `_`→`=`, `~`→`/`.
    static func cloudFrontDecode(_ text: String) -> [UInt8]? {
        let standard = String(text.map { c -> Character in
            switch c { case "-": "+"; case "_": "="; case "~": "/"; default: c }
        })
        return Data(base64Encoded: standard).map(Array.init)
    }
}
