import Foundation

/// PyJWT (an independent JWT library, installed by `scripts/setup`) run in a child process, so
/// the gateway's tokens are checked by code that shares nothing with it (tokens.md, test vectors).
/// A missing python3 or PyJWT is a failure, never a skip.
public enum PyJWT {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Verifies with `algorithms=["HS256"], audience="edge"` and returns the claims.
    public static func decode(_ token: String, secret: [UInt8]) throws -> [String: Any] {
        let output = try run("""
            import jwt, json, sys
            key = bytes.fromhex(sys.argv[1])
            print(json.dumps(jwt.decode(sys.argv[2], key, algorithms=["HS256"], audience="edge")))
            """, arguments: [hex(secret), token])
        return try object(output)
    }

    /// The header as PyJWT reads it, unverified.
    public static func header(_ token: String) throws -> [String: Any] {
        try object(try run("""
            import jwt, json, sys
            print(json.dumps(jwt.get_unverified_header(sys.argv[1])))
            """, arguments: [token]))
    }

    /// Signs `claims` with HS256 and `kid`.
    public static func encode(claims: [String: Any], kid: String, secret: [UInt8]) throws -> String {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: claims), as: UTF8.self)
        return try run("""
            import jwt, json, sys
            print(jwt.encode(json.loads(sys.argv[3]), bytes.fromhex(sys.argv[1]), algorithm="HS256", headers={"kid": sys.argv[2]}))
            """, arguments: [hex(secret), kid, json]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs `python3 -c script arguments…` and returns its standard output; a non-zero exit
    /// (python3 or PyJWT missing, an assertion in the script) throws.
    public static func run(_ script: String, arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "python3/PyJWT failed (\(process.terminationStatus)): \(String(decoding: error, as: UTF8.self))")
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func object(_ text: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw Failure(description: "not a JSON object: \(text)")
        }
        return object
    }

    private static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
}
