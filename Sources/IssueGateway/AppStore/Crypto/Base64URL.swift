import Foundation

/// base64url without padding (RFC 7515 §2, RFC 4648 §5), strict: any byte outside the alphabet,
/// padding, or a length that cannot come from whole bytes is refused.
enum Base64URL {
    static func decode(_ text: Substring) -> Data? {
        guard text.utf8.count % 4 != 1 else { return nil }
        var standard = ""
        standard.reserveCapacity(text.utf8.count + 3)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "A"..."Z", "a"..."z", "0"..."9": standard.unicodeScalars.append(scalar)
            case "-": standard.append("+")
            case "_": standard.append("/")
            default: return nil
            }
        }
        standard.append(String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4))
        return Data(base64Encoded: standard)
    }

    static func encode(_ data: Data) -> String {
        var text = data.base64EncodedString()
        while text.hasSuffix("=") { text.removeLast() }
        return String(text.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
    }
}
