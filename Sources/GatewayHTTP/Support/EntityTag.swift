import GatewayCore
import HTTPServer
import Wire

/// Strong entity tags (RFC 9110 §8.8.3) derived from what a body is made of, and the
/// `If-None-Match` precondition on them (RFC 9110 §13.1.2).
package struct EntityTag: Sendable, Equatable {
    /// Between the quotes: hex digits (and `-gzip`), so always a valid `etagc` run.
    package let opaque: String

    /// The tag for a body: the hash of every input it is rendered from.
    package init(_ hash: FNV1a) { opaque = hash.hex }

    private init(opaque: String) { self.opaque = opaque }

    /// The field value, a strong tag: `"…"`.
    package var field: String { "\"" + opaque + "\"" }

    /// The same content in the gzip coding: a different representation, so a different strong
    /// tag (RFC 9110 §8.8.3), as Apache's mod_deflate does with its `-gzip` suffix.
    package var gzipped: EntityTag { EntityTag(opaque: opaque + "-gzip") }

    /// RFC 9110 §13.1.2: the tag of `current` that `If-None-Match` names (the first of them for
    /// `*`), when it names one, and the answer is then 304; nil otherwise. Tags are compared with
    /// the weak comparison, which that section prescribes for this field (§8.8.3.2: `W/"x"`
    /// matches `"x"`). A field that is neither `*` nor a list of entity tags is ignored and the
    /// request answered as unconditional (RFC 9110 §13.1).
    package static func noneMatch(_ request: HTTPRequest, current: [EntityTag]) -> EntityTag? {
        let fields = request.headers.values("If-None-Match")
        guard !fields.isEmpty else { return nil }
        var listed: [Substring] = []
        for field in fields {
            guard let tags = parseList(Substring(field)) else { return nil }
            listed.append(contentsOf: tags)
        }
        if listed.contains("*") { return current.first }
        return current.first { tag in listed.contains { $0 == tag.opaque } }
    }

    /// `*` or `#entity-tag` as the tags' opaque parts (`*` as itself); nil when the field is
    /// neither. Scanned rather than split on commas: `etagc` includes the comma.
    private static func parseList(_ field: Substring) -> [Substring]? {
        if field.trimmingOptionalWhitespace() == "*" { return ["*"] }
        var tags: [Substring] = []
        var rest = field
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "," }
            if rest.isEmpty { return tags }
            if rest.hasPrefix("W/") { rest = rest.dropFirst(2) }
            guard rest.first == "\"" else { return nil }
            let opaqueStart = rest.index(after: rest.startIndex)
            guard let close = rest[opaqueStart...].firstIndex(of: "\"") else { return nil }
            let opaque = rest[opaqueStart..<close]
            // etagc = %x21 / %x23-7E / obs-text: no space, no control character.
            guard opaque.utf8.allSatisfy({ $0 == 0x21 || ($0 >= 0x23 && $0 != 0x7F) }) else { return nil }
            tags.append(opaque)
            rest = rest[rest.index(after: close)...].drop { $0 == " " || $0 == "\t" }
            guard rest.isEmpty || rest.first == "," else { return nil }
        }
    }
}
