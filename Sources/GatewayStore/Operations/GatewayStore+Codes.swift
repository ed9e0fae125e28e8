import Entitle
import IssueCatalog
import Wire

/// What a redemption did (E22).
public enum RedemptionOutcome: Sendable, Equatable {
    /// The code is now used, and this grant (E21) is the account's.
    case redeemed(Grant)
    /// Unknown, used, expired or in a revoked batch: indistinguishable to the caller.
    case notFound
    /// The code's issue has been retracted (E16): nothing is used up.
    case issueRetracted
    /// No such account; nothing was written.
    case unknownAccount
}

/// Access codes (E22): batches stored as hashes, and redemption as one unit of work that marks the
/// code used and gives the grant together, so a code is used once, also across processes.
extension GatewayStore {
    public func createCodeBatch(_ batch: CodeBatch, codeHashes: [String]) throws(StoreError) {
        try write { tx throws(StoreError) in try tx.insert(batch, codeHashes: codeHashes) }
    }

    /// A batch of the publication with its codes (hashes and redemptions), or nil.
    public func codeBatch(_ batchId: String, of publicationId: String) throws(StoreError) -> (CodeBatch, [AccessCode])? {
        try read { tx throws(StoreError) in
            guard let batch = try tx.codeBatch(id: batchId), batch.publicationId == publicationId else { return nil }
            return (batch, try tx.codes(ofBatch: batchId))
        }
    }

    /// Revokes a batch: its unused codes stop working; grants already given stay. Nil when the
    /// publication has no such batch.
    public func revokeCodeBatch(_ batchId: String, of publicationId: String, at instant: Instant) throws(StoreError) -> CodeBatch? {
        try write { tx throws(StoreError) in
            guard var batch = try tx.codeBatch(id: batchId), batch.publicationId == publicationId else { return nil }
            guard batch.revokedAt == nil else { return batch }
            try tx.setRevoked(batchId: batchId, at: instant)
            batch.revokedAt = instant
            return batch
        }
    }

    /// Redeems the code with this hash for the account at `instant`: a grant named `grantId` of
    /// one issue for good, or of the batch's duration from now.
    public func redeem(codeHash: String, for accountId: String, grantId: String, at instant: Instant,
                       events: EventPolicy = .off) throws(StoreError) -> RedemptionOutcome {
        try write { tx throws(StoreError) in
            guard try tx.account(id: accountId) != nil else { return .unknownAccount }
            guard let code = try tx.code(hash: codeHash), code.redeemedBy == nil,
                  let batch = try tx.codeBatch(id: code.batchId), batch.revokedAt == nil,
                  batch.expiresAt.map({ instant < $0 }) ?? true else { return .notFound }
            var grant = Grant(grantId: grantId, accountId: accountId, source: "code",
                              externalId: batch.batchId + "/" + codeHash.prefix(16), publications: [batch.publicationId],
                              start: instant, end: nil, createdAt: instant)
            if let issueId = batch.issueId {
                let ref = IssueRef(publicationId: batch.publicationId, issueId: issueId)
                guard let issue = try tx.issue(ref) else { return .notFound }
                guard issue.retractedAt == nil else { return .issueRetracted }
                grant.issue = ref
            } else if let text = batch.duration, let duration = ISODuration(text) {
                grant.end = duration.added(to: instant)
            } else {
                return .notFound
            }
            guard try tx.markRedeemed(codeHash: codeHash, by: accountId, at: instant) else { return .notFound }
            guard try tx.insert(grant) else { throw Self.broken("grant \(grant.grantId) taken") }
            try tx.bumpFactsVersion(ofAccount: accountId)
            var details = FactHistory.grant(grant)
            details.set("batchId", .string(batch.batchId))
            try tx.append(HistoryEvent(accountId: accountId, at: instant, kind: .codeRedeemed, source: .code, details: details))
            try EntitlementChangeEvent.record(accountId: accountId, causes: [.codeRedeemed], at: instant, policy: events, tx)
            return .redeemed(grant)
        }
    }
}
