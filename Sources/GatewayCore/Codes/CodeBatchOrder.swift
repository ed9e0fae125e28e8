import Wire

/// What an editor asks of a batch of access codes (E22): `count` codes for one issue
/// (`issueId`) or for a period from redemption (`duration`, ISO 8601), usable until `expiresAt`.
/// `AccessCodes.createBatch` checks it against the catalog and the clock.
package struct CodeBatchOrder: Sendable {
    package var count: Int64?
    package var issueId: String?
    package var duration: String?
    package var expiresAt: Instant?

    package init(count: Int64?, issueId: String?, duration: String?, expiresAt: Instant?) {
        self.count = count; self.issueId = issueId; self.duration = duration; self.expiresAt = expiresAt
    }
}
