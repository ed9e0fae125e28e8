/// History details as stored (`history_events.details`): the event's JSON text with the pieces
/// nearly every event repeats (a subscription's store, environment and key names, the names of
/// the details `FactHistory` writes, an instant's zero seconds) each replaced by one control
/// character. Serialized JSON never holds a control character unescaped (RFC 8259 §7, as
/// `JSONString` writes it), so putting each piece back is exact, whatever was replaced and in
/// whatever order; text without them is plain JSON, as every row was before the step that
/// compacted them. A transaction seen stores ~85 bytes instead of ~230.
///
/// The table only grows: a token once written means its text for ever (the shared migration that
/// compacted the rows stored before it replaced these same pieces in SQL).
public enum HistoryDetailsText {
    /// (control character, the text it stands for). Tab, line feed and carriage return are left
    /// out, so the stored text stays readable as lines.
    public static let pieces: [(token: UInt8, text: String)] = [
        (0x01, #"{"store":"appStore","environment":"production","originalTransactionId":""#),
        (0x02, #"{"store":"googlePlay","environment":"production","originalTransactionId":""#),
        (0x03, #"{"store":"stripe","environment":"production","originalTransactionId":""#),
        (0x04, #"{"store":"appStore","environment":"sandbox","originalTransactionId":""#),
        (0x05, #"","transactionId":""#),
        (0x06, #"","productId":""#),
        (0x07, #"","purchaseDate":""#),
        (0x08, #"","expiresDate":""#),
        (0x0B, #":00.000Z""#),
        (0x0C, #"","revocationDate":""#),
        (0x0E, #","revocationReason":"#),
        (0x0F, #","revocationType":""#),
        (0x10, #"","changes":["#),
        (0x11, #""autoRenewStatus":"#),
        (0x12, #","autoRenewProductId":""#),
        (0x13, #","isInBillingRetry":"#),
        (0x14, #","gracePeriodExpiresDate":"#),
        (0x15, #"","previousExpiresDate":""#),
        (0x16, #"","offer":""#),
        (0x17, #","expirationIntent":"#),
        (0x18, #""new"],"#),
        (0x19, "false"),
        (0x1A, "true"),
        (0x1B, "null"),
    ]

    private static let expansions: [[UInt8]?] = {
        var table = [[UInt8]?](repeating: nil, count: 0x20)
        for piece in pieces { table[Int(piece.token)] = Array(piece.text.utf8) }
        return table
    }()

    /// The stored form of serialized JSON: each piece, in table order, replaced by its token.
    public static func compact(_ json: String) -> String {
        var bytes = Array(json.utf8)
        for piece in patterns { replace(piece.bytes, with: piece.token, in: &bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Each piece's bytes, made once (ingest compacts one text per event it records).
    private static let patterns: [(bytes: [UInt8], token: UInt8)] = pieces.map { (Array($0.text.utf8), $0.token) }

    /// The JSON text a stored value stands for (plain JSON comes back as it is). Nil when it holds
    /// a control character that is no token: not a value this gateway wrote.
    public static func expand(_ stored: String) -> String? {
        let utf8 = stored.utf8
        guard utf8.contains(where: { $0 < 0x20 }) else { return stored }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count * 3)
        for byte in utf8 {
            guard byte < 0x20 else { out.append(byte); continue }
            guard let text = expansions[Int(byte)] else { return nil }
            out += text
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Every occurrence of `pattern`, left to right and never overlapping, replaced by `token`, in
    /// place: a token is never longer than what it replaces, so what is written is always behind
    /// what is still to be read.
    private static func replace(_ pattern: [UInt8], with token: UInt8, in bytes: inout [UInt8]) {
        let length = pattern.count, count = bytes.count
        guard length > 0, count >= length else { return }
        let written = bytes.withUnsafeMutableBufferPointer { text in
            pattern.withUnsafeBufferPointer { pattern in
                var read = 0, write = 0
                while read < count {
                    if text[read] == pattern[0], read + length <= count,
                       UnsafeMutableBufferPointer(rebasing: text[read..<(read + length)]).elementsEqual(pattern) {
                        text[write] = token
                        read += length
                    } else {
                        text[write] = text[read]
                        read += 1
                    }
                    write += 1
                }
                return write
            }
        }
        bytes.removeLast(count - written)
    }

    /// `column` with every piece replaced, as SQL both dialects run (`replace` and a literal
    /// holding the control character): the shared migration that compacts rows stored before.
    static func compactingSQL(_ column: String) -> String {
        var expression = column
        for piece in pieces {
            let text = piece.text.replacingSingleQuotes
            expression = "replace(\(expression), '\(text)', '\(String(UnicodeScalar(piece.token)))')"
        }
        return expression
    }
}

private extension String {
    /// A SQL string literal's body: a single quote doubled.
    var replacingSingleQuotes: String {
        var out = ""
        for c in self { out += c == "'" ? "''" : String(c) }
        return out
    }
}
