import Foundation

/// One issue as the reader's list shows it: what it is, whether this reader may download it, and
/// why (http-api.md, Issue list item).
public struct ReaderIssue: Sendable, Hashable, Decodable, Identifiable {
    /// The publication's id.
    public var publicationId: String
    /// The issue's id within its publication (`2026-03`).
    public var issueId: String
    /// The title.
    public var title: String
    /// When it was published.
    public var publishedAt: Date
    /// Whether anyone may read it.
    public var free: Bool
    /// Whether this reader may download it now.
    public var entitled: Bool
    /// Why it is entitled, or the one reason it is not.
    public var reasons: [IssueReason]
    /// Its files.
    public var assets: [Asset]

    /// The issue within its publication.
    public var id: IssueReference { IssueReference(publicationId: publicationId, issueId: issueId) }

    enum CodingKeys: String, CodingKey {
        case publicationId, issueId = "id", title, publishedAt, free, entitled, reasons, assets
    }

    /// Decodes a list item; `free`, `entitled` and the lists default to false and empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        publicationId = try container.decode(String.self, forKey: .publicationId)
        issueId = try container.decode(String.self, forKey: .issueId)
        title = try container.decode(String.self, forKey: .title)
        publishedAt = try container.decode(Date.self, forKey: .publishedAt)
        free = try container.decodeIfPresent(Bool.self, forKey: .free) ?? false
        entitled = try container.decodeIfPresent(Bool.self, forKey: .entitled) ?? false
        reasons = try container.list([IssueReason].self, forKey: .reasons)
        assets = try container.list([Asset].self, forKey: .assets)
    }
}

/// One file of an issue.
public struct Asset: Sendable, Hashable, Decodable {
    /// Its absolute URL path on the CDN (`/content/monthly/2026-03/issue.pdf`).
    public var path: String
    /// Its size.
    public var bytes: Int64
    /// Its SHA-256, lowercase hex.
    public var sha256: String
}

/// Why an issue is entitled or not (http-api.md; E21, E30), open to reasons the gateway adds
/// later: an unknown one is kept as ``unrecognized(_:)``.
public enum IssueReason: OpenEnumeration {
    /// A subscription period covered its publication.
    case activePeriod
    /// Published during the store's grace period.
    case gracePeriod
    /// The latest issue when the subscription started (E13).
    case unlockedAtStart
    /// Bought on its own.
    case purchased
    /// Free for everyone.
    case free
    /// Given by a grant (E21).
    case granted
    /// Given by an institution the reader is in (E30).
    case institution
    /// Not entitled: no subscription was active when it was published.
    case notSubscribedWhenPublished
    /// Not entitled: the purchase or period that covered it was refunded.
    case refunded
    /// Not entitled: nothing bought covers it.
    case noPurchase
    /// A reason this version of the client does not know.
    case unrecognized(String)

    private static let known: [IssueReason] = [
        .activePeriod, .gracePeriod, .unlockedAtStart, .purchased, .free, .granted, .institution,
        .notSubscribedWhenPublished, .refunded, .noPurchase,
    ]

    /// The reason named `rawValue`.
    public init(rawValue: String) {
        self = Self.known.first { $0.rawValue == rawValue } ?? .unrecognized(rawValue)
    }

    /// The reason as the gateway spells it.
    public var rawValue: String {
        switch self {
        case .activePeriod: "activePeriod"
        case .gracePeriod: "gracePeriod"
        case .unlockedAtStart: "unlockedAtStart"
        case .purchased: "purchased"
        case .free: "free"
        case .granted: "granted"
        case .institution: "institution"
        case .notSubscribedWhenPublished: "notSubscribedWhenPublished"
        case .refunded: "refunded"
        case .noPurchase: "noPurchase"
        case .unrecognized(let reason): reason
        }
    }
}
