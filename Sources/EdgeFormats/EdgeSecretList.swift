import Wire

/// `ISSUE_GATEWAY_EDGE_SECRETS`: `kid:secret,kid2:secret2`, the first signs, every one stays
/// configured at the CDN until one token lifetime after it stopped signing (rotation). How a
/// secret's text becomes key bytes is the format's business.
public struct EdgeSecretList: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public let kid: String
        public let secret: String
    }

    public static let maximumKidLength = 32
    public let entries: [Entry]

    /// Blanks around entries are ignored. A kid is 1–32 of `A-Z a-z 0-9 _ -`: it travels in
    /// URLs as it is and names a line of the CDN's key map.
    public init(parsing text: String) throws(EdgeFormatError) {
        var entries: [Entry] = []
        var seen: Set<String> = []
        let trimmed = text.trimmingASCIIWhitespace()
        guard !trimmed.isEmpty else { throw .missing("ISSUE_GATEWAY_EDGE_SECRETS") }
        for (index, raw) in trimmed.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
            let entry = String(raw).trimmingASCIIWhitespace()
            guard let colon = entry.firstIndex(of: ":") else {
                throw .invalidSecrets("entry \(index + 1) is not kid:secret")
            }
            let kid = String(entry[..<colon]), secret = String(entry[entry.index(after: colon)...])
            guard Self.isValidKid(kid) else {
                throw .invalidSecrets("entry \(index + 1): the kid must be 1 to \(Self.maximumKidLength) of A-Z a-z 0-9 _ -")
            }
            guard seen.insert(kid).inserted else { throw .invalidSecrets("kid \(kid) is listed twice") }
            entries.append(Entry(kid: kid, secret: secret))
        }
        self.entries = entries
    }

    public static let minimumTextSecretLength = 16

    /// A secret used as text (Bunny, Cloudflare): at least 16 printable ASCII characters, no
    /// blank and no comma (the list's separator).
    static func textSecret(_ entry: Entry) throws(EdgeFormatError) -> String {
        guard entry.secret.utf8.count >= minimumTextSecretLength,
              entry.secret.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f && $0 != UInt8(ascii: ",") }) else {
            throw .invalidSecrets("kid \(entry.kid): a secret is at least \(minimumTextSecretLength) printable ASCII characters")
        }
        return entry.secret
    }

    static func isValidKid(_ kid: String) -> Bool {
        !kid.isEmpty && kid.utf8.count <= maximumKidLength && kid.utf8.allSatisfy(isTokenCharacter)
    }

    /// `A-Z a-z 0-9 _ -`: needs no escaping in a URL, a cookie or an nginx config string.
    static func isTokenCharacter(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}
