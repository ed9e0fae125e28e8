import Entitle
import GatewayCrypto
import GatewayStore
import IssueCatalog
import Wire

/// Access codes (E22): an editor makes a batch of single-use codes for a publication, shown once;
/// a reader redeems one into a grant (E21). Codes are stored only as SHA-256 hashes, like every
/// other secret.
package struct AccessCodes: Sendable {
    package static let maxCodesPerBatch = 10_000

    let store: any GatewayStore
    private let catalog: CatalogCache
    private let accounts: AccountFactsCache
    let clock: any GatewayClock
    private let identifiers: Identifiers
    private let events: EventPolicy

    package init(store: any GatewayStore, catalog: CatalogCache, accounts: AccountFactsCache, clock: any GatewayClock,
                 identifiers: Identifiers, events: EventPolicy) {
        self.store = store; self.catalog = catalog; self.accounts = accounts; self.clock = clock
        self.identifiers = identifiers; self.events = events
    }

    /// A stored batch and its codes in clear, the only time they are shown.
    package func createBatch(_ order: CodeBatchOrder, publicationId: String) throws(GatewayError) -> (CodeBatch, [String]) {
        let (batch, count) = try codeBatch(order, publicationId: publicationId)
        var codes: [String] = []
        for _ in 0..<count { codes.append(try newCode()) }
        let hashes = try codes.map { code throws(GatewayError) in try Self.codeHash(code) }
        try stored { () throws(StoreError) in try store.createCodeBatch(batch, codeHashes: hashes) }
        return (batch, codes)
    }

    /// Redeems `text` (as a reader typed it) into a grant for the account; a redeemed code drops
    /// the account's cached answers. False when there is no such usable code (E22: unknown, used,
    /// expired and withdrawn alike); `conflict` when its issue was retracted (E16), nothing used up.
    package func redeem(_ text: String, for accountId: String, at now: Instant) throws(GatewayError) -> Bool {
        guard let hash = try Self.normalizedCodeHash(text) else { return false }
        let grantId = "grant-" + (try identifiers.newIdentifier())
        switch try stored({ () throws(StoreError) in
            try store.redeem(codeHash: hash, for: accountId, grantId: grantId, at: now, events: events)
        }) {
        case .redeemed:
            accounts.invalidate([accountId])
            return true
        case .notFound: return false
        case .issueRetracted: throw .conflict("the code's issue has been withdrawn by the publisher; the code is still unused")
        case .unknownAccount: throw .notFound("account \(accountId)")
        }
    }

    private func codeBatch(_ order: CodeBatchOrder, publicationId: String) throws(GatewayError) -> (CodeBatch, Int) {
        guard let count = order.count, (1...Int64(Self.maxCodesPerBatch)).contains(count) else {
            throw .invalid("count must be an integer from 1 to \(Self.maxCodesPerBatch)")
        }
        let issueId = order.issueId, duration = order.duration
        guard (issueId == nil) != (duration == nil) else { throw .invalid("give exactly one of issueId and duration") }
        if let issueId {
            let ref = IssueRef(publicationId: publicationId, issueId: issueId)
            guard let issue = catalog.state.snapshot.issue(ref) else { throw .invalid("no issue \(issueId) in \(publicationId)") }
            guard issue.retractedAt == nil else { throw .invalid("issue \(issueId) is retracted") }
        }
        if let duration, ISODuration(duration) == nil { throw .invalid("duration must be an ISO 8601 duration such as P1M") }
        let now = clock.now()
        let expiresAt = order.expiresAt
        if let expiresAt, expiresAt <= now { throw .invalid("expiresAt must be in the future") }
        let batch = CodeBatch(batchId: "batch-" + (try identifiers.newIdentifier()), publicationId: publicationId,
                              issueId: issueId, duration: duration, expiresAt: expiresAt, createdAt: now)
        return (batch, Int(count))
    }

    /// Sixteen characters in groups of four (`7KQ4-M2XH-9PRT-C3WA`) from an alphabet without the
    /// easily confused 0, O, 1, I and L: 31^16, about 79 random bits. Codes are stored as plain
    /// SHA-256 hashes, so their length is what stands against guessing from a stolen copy of the
    /// database: with a million unredeemed codes, finding one by brute force is still about 2^59
    /// hashes (12 characters, 59 bits, would leave 2^39: hours on one GPU).
    private func newCode() throws(GatewayError) -> String {
        var characters: [Character] = []
        while characters.count < Self.codeLength {
            let bytes: [UInt8]
            do { bytes = try identifiers.random.randomBytes(count: 32) } catch { throw .failed("no randomness available") }
            // Rejection sampling: 248 = 8 × 31, so every character is equally likely.
            for byte in bytes where byte < 248 && characters.count < Self.codeLength {
                characters.append(Self.codeAlphabet[Int(byte) % Self.codeAlphabet.count])
            }
        }
        return stride(from: 0, to: Self.codeLength, by: 4).map { String(characters[$0..<$0 + 4]) }.joined(separator: "-")
    }

    package static let codeAlphabet = Array("23456789ABCDEFGHJKMNPQRSTUVWXYZ")
    package static let codeLength = 16

    /// What is stored of a code: the SHA-256 of its canonical form (upper case, no separators).
    package static func codeHash(_ code: String) throws(GatewayError) -> String {
        guard let hash = try normalizedCodeHash(code) else { throw .failed("a generated code did not read back") }
        return hash
    }

    /// Nil for text that cannot be a code; readers may type lower case, spaces or no dashes.
    package static func normalizedCodeHash(_ text: String) throws(GatewayError) -> String? {
        let canonical = String(text.uppercased().filter { $0 != "-" && $0 != " " })
        guard canonical.count == codeLength, canonical.allSatisfy(codeAlphabet.contains) else { return nil }
        do { return try SecretHash.hex(of: canonical) } catch { throw .failed("hashing failed") }
    }
}
