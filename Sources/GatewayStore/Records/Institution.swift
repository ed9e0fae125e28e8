import Wire

/// E30: an institution (a library, a school, a company) given publications for `[start, end)`
/// by network ranges (CIDR text, validated above the store).
public struct Institution: Sendable, Equatable {
    public var institutionId: String
    public var name: String
    public var publications: [String]
    public var networks: [String]
    public var start: Instant
    /// Nil: open-ended.
    public var end: Instant?
    /// Where several institutions cover an address, the one created first serves it (E30).
    public var createdAt: Instant

    public init(institutionId: String, name: String, publications: [String], networks: [String], start: Instant,
                end: Instant?, createdAt: Instant) {
        self.institutionId = institutionId; self.name = name; self.publications = publications; self.networks = networks
        self.start = start; self.end = end; self.createdAt = createdAt
    }

    /// The id of the grant the rules take it as (E30), which its history events and an
    /// explanation's evidence name.
    public var grantId: String { "institution:" + institutionId }
}
