import Wire

/// E22: a batch of single-use access codes for one publication, each granting one issue for good
/// (`issueId`) or a duration from redemption (`duration`, ISO 8601), until `expiresAt` if set.
/// The codes themselves are never stored: only their hashes (`AccessCode`).
public struct CodeBatch: Sendable, Equatable {
    public var batchId: String
    public var publicationId: String
    public var issueId: String?
    public var duration: String?
    public var expiresAt: Instant?
    public var createdAt: Instant
    public var revokedAt: Instant?

    public init(batchId: String, publicationId: String, issueId: String?, duration: String?, expiresAt: Instant?,
                createdAt: Instant, revokedAt: Instant? = nil) {
        self.batchId = batchId; self.publicationId = publicationId; self.issueId = issueId; self.duration = duration
        self.expiresAt = expiresAt; self.createdAt = createdAt; self.revokedAt = revokedAt
    }
}

/// One code of a batch as stored: its hash and who redeemed it, when.
public struct AccessCode: Sendable, Equatable {
    public var codeHash: String
    public var batchId: String
    public var redeemedBy: String?
    public var redeemedAt: Instant?

    public init(codeHash: String, batchId: String, redeemedBy: String? = nil, redeemedAt: Instant? = nil) {
        self.codeHash = codeHash; self.batchId = batchId; self.redeemedBy = redeemedBy; self.redeemedAt = redeemedAt
    }
}
