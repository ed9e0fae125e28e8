import Entitle
import GatewayCrypto
import GatewayStore
import HTTPServer
import IssueCatalog
import Wire

/// Access codes (E22; http-api.md, Support, grants and Apple's current API): an editor makes a
/// batch of single-use codes for a publication, shown once; a reader redeems one into a grant
/// (E21). Codes are stored only as SHA-256 hashes, like every other secret.
extension Gateway {
    static let maxCodesPerBatch = 10_000

    func registerCodeRoutes(_ router: APIRouterBuilder) {
        let batches = "/v1/publications/{publicationId}/codes"
        router.add("POST", batches, execution: .store, handler: apiHandler { [self] request throws(APIError) in
            let publicationId = try requireEditor(request)
            let body = try RequestBody(request)
            let (batch, count) = try codeBatch(body, publicationId: publicationId)
            var codes: [String] = []
            for _ in 0..<count { codes.append(try newCode()) }
            let hashes = try codes.map { code throws(APIError) in try Self.codeHash(code) }
            try stored { () throws(StoreError) in try store.createCodeBatch(batch, codeHashes: hashes) }
            return .json(201) { w in
                w.object { w in
                    w.field("batchId", batch.batchId)
                    w.key("codes")
                    w.array { w in for code in codes { w.string(code) } }
                }
            }
        })
        router.add("GET", batches + "/{batchId}", execution: .store, handler: apiHandler { [self] request throws(APIError) in
            let publicationId = try requireEditor(request)
            let batchId = request.parameter("batchId")
            guard let (batch, codes) = try stored({ () throws(StoreError) in try store.codeBatch(batchId, of: publicationId) }) else {
                throw .notFound("no batch \(batchId) for \(publicationId)")
            }
            return .json(200) { w in w.codeBatch(batch, codes: codes) }
        })
        router.add("DELETE", batches + "/{batchId}", execution: .store, handler: apiHandler { [self] request throws(APIError) in
            let publicationId = try requireEditor(request)
            let batchId = request.parameter("batchId")
            guard let batch = try stored({ () throws(StoreError) in
                try store.revokeCodeBatch(batchId, of: publicationId, at: clock.now())
            }) else { throw .notFound("no batch \(batchId) for \(publicationId)") }
            let codes = try stored { () throws(StoreError) in try store.codeBatch(batchId, of: publicationId)?.1 ?? [] }
            return .json(200) { w in w.codeBatch(batch, codes: codes) }
        })
        router.add("POST", "/v1/accounts/{accountId}/codes/redeem", execution: .store, handler: apiHandler { [self] request throws(APIError) in
            let accountId = try requireAccount(request)
            // A service key is a publisher's backend redeeming for all its readers from one
            // address: limiting that address would let ten readers' typos lock out every other
            // reader, so its failures count per account only.
            let byAddress = try authenticator.principal(request).isReader
            let address = byAddress ? request.sourceAddress.map { ["client:" + ClientKey.of($0)] } ?? [] : []
            let keys = ["account:" + accountId] + address
            let now = clock.now()
            for key in keys {
                if case .limited(let seconds) = redemptionFailures.check(key, now: now) { throw .rateLimited(retryAfterSeconds: seconds) }
            }
            let text = try RequestBody(request).string("code")
            let outcome: RedemptionOutcome
            if let hash = try Self.normalizedCodeHash(text) {
                let grantId = "grant-" + (try newIdentifier())
                outcome = try stored { () throws(StoreError) in try store.redeem(codeHash: hash, for: accountId, grantId: grantId, at: now, events: events) }
            } else {
                outcome = .notFound
            }
            switch outcome {
            case .redeemed:
                accounts.invalidate([accountId])
                return try entitlementsResponse(accountId)
            case .notFound:
                for key in keys { _ = redemptionFailures.take(key, now: now) }
                throw APIError(status: 404, code: "code_not_found", message: "no such code, or it was used, has expired or was withdrawn")
            case .issueRetracted:
                throw .conflict("the code's issue has been withdrawn by the publisher; the code is still unused")
            }
        })
    }

    /// `{"count": N, "issueId": "…"}` or `{"count": N, "duration": "P1M"}`, optional `expiresAt`.
    private func codeBatch(_ body: RequestBody, publicationId: String) throws(APIError) -> (CodeBatch, Int) {
        guard let count = try body.optionalInteger("count"), (1...Int64(Self.maxCodesPerBatch)).contains(count) else {
            throw .badRequest("count must be an integer from 1 to \(Self.maxCodesPerBatch)")
        }
        let issueId = try body.optionalString("issueId"), duration = try body.optionalString("duration")
        guard (issueId == nil) != (duration == nil) else { throw .badRequest("give exactly one of issueId and duration") }
        if let issueId {
            let ref = IssueRef(publicationId: publicationId, issueId: issueId)
            guard let issue = catalog.state.snapshot.issue(ref) else { throw .badRequest("no issue \(issueId) in \(publicationId)") }
            guard issue.retractedAt == nil else { throw .badRequest("issue \(issueId) is retracted") }
        }
        if let duration, ISODuration(duration) == nil { throw .badRequest("duration must be an ISO 8601 duration such as P1M") }
        let now = clock.now()
        let expiresAt = try body.optionalInstant("expiresAt")
        if let expiresAt, expiresAt <= now { throw .badRequest("expiresAt must be in the future") }
        let batch = CodeBatch(batchId: "batch-" + (try newIdentifier()), publicationId: publicationId, issueId: issueId,
                              duration: duration, expiresAt: expiresAt, createdAt: now)
        return (batch, Int(count))
    }

    /// Sixteen characters in groups of four (`7KQ4-M2XH-9PRT-C3WA`) from an alphabet without the
    /// easily confused 0, O, 1, I and L: 31^16, about 79 random bits. Codes are stored as plain
    /// SHA-256 hashes, so their length is what stands against guessing from a stolen copy of the
    /// database: with a million unredeemed codes, finding one by brute force is still about 2^59
    /// hashes (12 characters, 59 bits, would leave 2^39: hours on one GPU).
    private func newCode() throws(APIError) -> String {
        var characters: [Character] = []
        while characters.count < Self.codeLength {
            let bytes: [UInt8]
            do { bytes = try random.randomBytes(count: 32) } catch { throw .internalError("no randomness available") }
            // Rejection sampling: 248 = 8 × 31, so every character is equally likely.
            for byte in bytes where byte < 248 && characters.count < Self.codeLength {
                characters.append(Self.codeAlphabet[Int(byte) % Self.codeAlphabet.count])
            }
        }
        return stride(from: 0, to: Self.codeLength, by: 4).map { String(characters[$0..<$0 + 4]) }.joined(separator: "-")
    }

    static let codeAlphabet = Array("23456789ABCDEFGHJKMNPQRSTUVWXYZ")
    static let codeLength = 16

    /// What is stored of a code: the SHA-256 of its canonical form (upper case, no separators).
    static func codeHash(_ code: String) throws(APIError) -> String {
        guard let hash = try normalizedCodeHash(code) else { throw .internalError("a generated code did not read back") }
        return hash
    }

    /// Nil for text that cannot be a code; readers may type lower case, spaces or no dashes.
    static func normalizedCodeHash(_ text: String) throws(APIError) -> String? {
        let canonical = String(text.uppercased().filter { $0 != "-" && $0 != " " })
        guard canonical.count == codeLength, canonical.allSatisfy(codeAlphabet.contains) else { return nil }
        do { return try SecretHash.hex(of: canonical) } catch { throw .internalError("hashing failed") }
    }
}

extension JSONWriter {
    /// A batch as editors see it: its terms and each code's use, never a code itself.
    mutating func codeBatch(_ batch: CodeBatch, codes: [AccessCode]) {
        object { w in
            w.field("batchId", batch.batchId)
            w.field("publicationId", batch.publicationId)
            w.field("issueId", batch.issueId)
            w.field("duration", batch.duration)
            w.field("expiresAt", batch.expiresAt?.rfc3339)
            w.field("createdAt", batch.createdAt.rfc3339)
            w.field("revokedAt", batch.revokedAt?.rfc3339)
            w.field("count", codes.count)
            w.field("redeemed", codes.filter { $0.redeemedBy != nil }.count)
            w.key("codes")
            w.array { w in
                for code in codes {
                    w.object { w in
                        w.field("redeemedBy", code.redeemedBy)
                        w.field("redeemedAt", code.redeemedAt?.rfc3339)
                    }
                }
            }
        }
    }
}
