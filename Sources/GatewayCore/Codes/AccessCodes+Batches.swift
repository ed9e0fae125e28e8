import GatewayStore

extension AccessCodes {
    /// A batch of the publication and its codes (hashes and state, never the codes in clear).
    package func batch(_ batchId: String, of publicationId: String) throws(GatewayError) -> (CodeBatch, [AccessCode])? {
        try stored { () throws(StoreError) in try store.codeBatch(batchId, of: publicationId) }
    }

    /// Withdraws the batch's unused codes (E22); nil when the publication has no such batch.
    package func revoke(_ batchId: String, of publicationId: String) throws(GatewayError) -> (CodeBatch, [AccessCode])? {
        let now = clock.now()
        guard let batch = try stored({ () throws(StoreError) in try store.revokeCodeBatch(batchId, of: publicationId, at: now) }) else {
            return nil
        }
        return (batch, try self.batch(batchId, of: publicationId)?.1 ?? [])
    }
}
