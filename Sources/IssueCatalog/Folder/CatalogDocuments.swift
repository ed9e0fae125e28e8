import Foundation

/// The JSON documents of the `catalog/` folder (catalog/README.md). They mirror the API bodies
/// (http-api.md) so an editor learns one shape. Instants are RFC 3339 strings with any offset.

/// `publications/<id>.json`: a publication and all its issues.
struct PublicationDocument: Codable {
    var id: String
    var title: String
    var issues: [IssueDocument]

    private enum CodingKeys: String, CodingKey { case id, title, issues }

    init(id: String, title: String, issues: [IssueDocument]) { self.id = id; self.title = title; self.issues = issues }

    init(from decoder: Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        title = try c.decode(String.self, forKey: .title)
        issues = try c.decodeIfPresent([IssueDocument].self, forKey: .issues) ?? []
    }
}

struct IssueDocument: Codable {
    var id: String
    var title: String
    var publishedAt: String
    /// Omitted when false.
    var free: Bool?
    var assets: [AssetDocument]
    /// Present only on a retracted issue (E16).
    var retractedAt: String?

    private enum CodingKeys: String, CodingKey { case id, title, publishedAt, free, assets, retractedAt }

    init(id: String, title: String, publishedAt: String, free: Bool?, assets: [AssetDocument], retractedAt: String?) {
        self.id = id; self.title = title; self.publishedAt = publishedAt; self.free = free
        self.assets = assets; self.retractedAt = retractedAt
    }

    init(from decoder: Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        title = try c.decode(String.self, forKey: .title)
        publishedAt = try c.decode(String.self, forKey: .publishedAt)
        free = try c.decodeIfPresent(Bool.self, forKey: .free)
        assets = try c.decodeIfPresent([AssetDocument].self, forKey: .assets) ?? []
        retractedAt = try c.decodeIfPresent(String.self, forKey: .retractedAt)
    }
}

struct AssetDocument: Codable {
    var path: String
    var bytes: Int64?
    var sha256: String?

    private enum CodingKeys: String, CodingKey { case path, bytes, sha256 }

    init(path: String, bytes: Int64?, sha256: String?) { self.path = path; self.bytes = bytes; self.sha256 = sha256 }

    init(from decoder: Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        path = try c.decode(String.self, forKey: .path)
        bytes = try c.decodeIfPresent(Int64.self, forKey: .bytes)
        sha256 = try c.decodeIfPresent(String.self, forKey: .sha256)
    }
}

/// `products.json`: every product, since a bundle spans publications.
struct ProductsDocument: Codable {
    var products: [ProductDocument]

    private enum CodingKeys: String, CodingKey { case products }

    init(products: [ProductDocument]) { self.products = products }

    init(from decoder: Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        products = try c.decode([ProductDocument].self, forKey: .products)
    }
}

struct ProductDocument: Codable {
    var id: String
    /// Omitted for the App Store (the default).
    var store: String?
    /// Omitted when it equals `id` (the default).
    var storeProductId: String?
    var kind: String
    var grants: [String]
    var subscriptionGroup: String?
    var level: Int?
    var duration: String?
    var issue: IssueRefDocument?
    var platform: String?
    var discontinuedAt: String?

    private enum CodingKeys: String, CodingKey {
        case id, store, storeProductId, kind, grants, subscriptionGroup, level, duration, issue, platform, discontinuedAt
    }

    init(id: String, store: String?, storeProductId: String?, kind: String, grants: [String], subscriptionGroup: String?,
         level: Int?, duration: String?, issue: IssueRefDocument?, platform: String?, discontinuedAt: String?) {
        self.id = id; self.store = store; self.storeProductId = storeProductId
        self.kind = kind; self.grants = grants; self.subscriptionGroup = subscriptionGroup
        self.level = level; self.duration = duration; self.issue = issue; self.platform = platform
        self.discontinuedAt = discontinuedAt
    }

    init(from decoder: Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        store = try c.decodeIfPresent(String.self, forKey: .store)
        storeProductId = try c.decodeIfPresent(String.self, forKey: .storeProductId)
        kind = try c.decode(String.self, forKey: .kind)
        grants = try c.decode([String].self, forKey: .grants)
        subscriptionGroup = try c.decodeIfPresent(String.self, forKey: .subscriptionGroup)
        level = try c.decodeIfPresent(Int.self, forKey: .level)
        duration = try c.decodeIfPresent(String.self, forKey: .duration)
        issue = try c.decodeIfPresent(IssueRefDocument.self, forKey: .issue)
        platform = try c.decodeIfPresent(String.self, forKey: .platform)
        discontinuedAt = try c.decodeIfPresent(String.self, forKey: .discontinuedAt)
    }
}

struct IssueRefDocument: Codable {
    var publicationId: String
    var issueId: String

    private enum CodingKeys: String, CodingKey { case publicationId, issueId }

    init(publicationId: String, issueId: String) { self.publicationId = publicationId; self.issueId = issueId }

    init(from decoder: Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        publicationId = try c.decode(String.self, forKey: .publicationId)
        issueId = try c.decode(String.self, forKey: .issueId)
    }
}
