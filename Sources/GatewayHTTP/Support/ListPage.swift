import GatewayCore
import IssueCatalog
import Wire

/// `?limit=N` and `?after=<cursor>` on the issue lists (http-api.md, "Reader lists are cheap to
/// poll"): at most `limit` issues, newest first, starting after the cursor's position.
package struct ListPage: Sendable, Equatable {
    /// http-api.md: `limit` is 1–500.
    package static let limits = 1...500

    package var limit: Int?
    package var after: ListCursor?

    /// No `limit` and no `after`: the whole list, as before pages existed (and no `next`).
    package var isWhole: Bool { limit == nil && after == nil }

    /// 400 for a limit outside 1–500 or not a decimal, a malformed cursor, or either given twice.
    package init(_ query: [(String, String)]) throws(GatewayError) {
        let (limit, after) = try Self.parameters(query)
        self.limit = limit
        if let after {
            guard let cursor = ListCursor(token: after) else {
                throw .invalid("after must be a cursor from a list's next member")
            }
            self.after = cursor
        }
    }

    /// `limit` (checked: 1–500, a whole decimal) and `after` (its text), each at most once; shared
    /// by every paged answer (issue lists, account history).
    package static func parameters(_ query: [(String, String)]) throws(GatewayError) -> (limit: Int?, after: String?) {
        let limits = query.filter { $0.0 == "limit" }, afters = query.filter { $0.0 == "after" }
        guard limits.count <= 1, afters.count <= 1 else { throw .invalid("limit and after may be given once each") }
        guard let text = limits.first?.1 else { return (nil, afters.first?.1) }
        guard text.utf8.count <= 3, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int(text),
              Self.limits.contains(value) else {
            throw .invalid("limit must be a whole number from \(Self.limits.lowerBound) to \(Self.limits.upperBound)")
        }
        return (value, afters.first?.1)
    }

    /// What the page adds to a list's entity tag.
    package func combine(into hash: inout FNV1a) {
        hash.combine(UInt64(limit ?? 0))
        hash.combine(after?.token ?? "")
    }
}

/// A position in an issue list, newest first: an issue's (publishedAt, publicationId, id). A
/// position rather than an offset, so that a page continues where the last one ended while
/// editors publish (a new issue lands before the position and shifts nothing after it) or
/// retract (the position stays meaningful when its issue is gone).
package struct ListCursor: Sendable, Equatable {
    package var publishedAt: Instant
    package var publicationId: String
    package var issueId: String

    package init(_ issue: Issue) {
        publishedAt = issue.publishedAt
        publicationId = issue.publicationId
        issueId = issue.id
    }

    /// base64url of `<publishedAt ms>~<publicationId>~<issueId>` (ids never hold `~`); opaque to
    /// clients.
    package var token: String {
        Base64URL.encode(Array("\(publishedAt.millisecondsSinceEpoch)~\(publicationId)~\(issueId)".utf8))
    }

    package init?(token: String) {
        guard token.utf8.count <= Self.maxTokenBytes, let bytes = Base64URL.decode(token),
              let text = String(validating: bytes, as: UTF8.self) else { return nil }
        let parts = text.split(separator: "~", omittingEmptySubsequences: false)
        guard parts.count == 3, let milliseconds = Int64(parts[0]),
              FieldRules.isIdentifier(String(parts[1])), FieldRules.isIdentifier(String(parts[2])) else { return nil }
        publishedAt = Instant(millisecondsSinceEpoch: milliseconds)
        publicationId = String(parts[1])
        issueId = String(parts[2])
    }

    /// Two ids of 128 bytes and a time, base64url-coded, with room to spare.
    private static let maxTokenBytes = 512

    /// Whether `issue` comes after this position in list order: newer first; at one time, by
    /// publication id, then newer id first within a publication (the engine's and the catalog's
    /// order, `IssueListing`).
    package func isFollowed(by issue: Issue) -> Bool {
        if issue.publishedAt != publishedAt { return issue.publishedAt < publishedAt }
        if issue.publicationId != publicationId { return issue.publicationId > publicationId }
        return issue.id < issueId
    }
}

/// Picks a page's items out of a list walked newest first: skips those up to the cursor, takes
/// `limit`, and notes whether more remain.
package struct ListPager {
    package let page: ListPage
    package private(set) var taken = 0
    package private(set) var hasMore = false
    /// The last issue taken, for the next cursor.
    package private(set) var last: Issue?

    package init(_ page: ListPage) { self.page = page }

    /// Whether the issue goes on the page; `issue` is read only when a cursor or limit needs it.
    package mutating func admits(_ issue: () -> Issue) -> Bool {
        if page.isWhole { return true }
        if hasMore { return false }
        if let after = page.after, !after.isFollowed(by: issue()) { return false }
        if let limit = page.limit, taken == limit {
            hasMore = true
            return false
        }
        taken += 1
        if page.limit != nil { last = issue() }
        return true
    }

    /// The cursor to answer as `next`: only while more remain.
    package var next: ListCursor? { hasMore ? last.map(ListCursor.init) : nil }
}

extension ListCursor {
    /// `{"issues":[…]}` becomes `{"issues":[…],"next":"<cursor>"}`.
    package func append(to body: inout [UInt8]) {
        guard body.last == UInt8(ascii: "}") else { return }
        body.removeLast()
        body.append(contentsOf: #","next":"#.utf8)
        JSONString.appendQuoted(token, to: &body)
        body.append(UInt8(ascii: "}"))
    }
}
