import Entitle
import Wire

/// readers.md E35: deleting an account erases what identifies the reader and keeps the store
/// transactions as an unowned ledger (GDPR Art. 17(3)(b)), in one unit of work; exporting reads
/// everything kept about it on one snapshot.
extension GatewayStore {
    /// Deletes the account at `instant`; nil (nothing written) when there is no such account.
    ///
    /// Erased: the reader's identity (`eraseReaderIdentity`: push devices, bearer secret,
    /// `appAccountToken`, identities, sessions, link codes and download records),
    /// free text and client addresses in its history and grants, the institutions' records of it.
    /// Ended at `instant`: every grant (print claims released, redeemed codes ended). Kept: the
    /// transactions and renewal infos, owned by nobody, so a later post of the same purchase by
    /// another account takes it as E4 binds an unowned purchase, whatever the policy.
    public func deleteAccount(_ accountId: String, at instant: Instant, events: EventPolicy = .off) throws(StoreError) -> DeletedAccount? {
        try write { tx throws(StoreError) in
            guard try tx.account(id: accountId) != nil else { return nil }
            let renewals = try tx.renewalInfos(ofAccount: accountId)
            var playReceipts: [SubscriptionKey: String] = [:]
            for key in Set(renewals.filter { $0.store == .googlePlay }.map(\.subscriptionKey)) {
                playReceipts[key] = try tx.latestReceipt(for: key)?.receiptData
            }
            let deleted = DeletedAccount(transactions: try tx.transactions(ofAccount: accountId), renewalInfos: renewals,
                                         playReceipts: playReceipts)
            try tx.eraseReaderIdentity(ofAccount: accountId)
            try tx.releaseOwnership(ofAccount: accountId)
            try tx.endGrants(ofAccount: accountId, at: instant)
            try tx.deleteInstitutionAccounts(ofAccount: accountId)
            try Self.eraseFreeText(ofAccount: accountId, tx)
            // Marked first: the facts' upkeep then derives nothing for it (reports.md: a deleted
            // reader leaves circulation as if never a reader).
            try tx.markAccountDeleted(accountId, at: instant)
            try tx.bumpFactsVersion(ofAccount: accountId)
            if events.webhooks {
                var data = JSONWriter()
                data.object { w in w.field("accountId", accountId) }
                try tx.insert(OutboxEvent(eventId: "account.deleted/\(accountId)", kind: .accountDeleted, accountId: accountId,
                                          data: String(decoding: data.bytes, as: UTF8.self), createdAt: instant))
            }
            return deleted
        }
    }

    /// History details that are free text (a publisher's or operator's `note`) or a client
    /// address (E30's `address`).
    public static var erasedHistoryDetails: Set<String> { ["note", "address"] }

    private static func eraseFreeText(ofAccount accountId: String, _ tx: any WriteTransaction) throws(StoreError) {
        try forEachHistoryPage(ofAccount: accountId, tx) { page throws(StoreError) in
            for event in page where event.details.names.contains(where: erasedHistoryDetails.contains) {
                let kept = JSONObject(event.details.members.filter { !erasedHistoryDetails.contains($0.name) })
                try tx.replaceHistoryDetails(sequence: event.sequence, details: kept)
            }
        }
    }

    /// Everything kept about the account; nil when there is no such account.
    public func accountRecords(_ accountId: String) throws(StoreError) -> AccountRecords? {
        try read { tx throws(StoreError) in
            guard let account = try tx.account(id: accountId) else { return nil }
            var institutions: [(given: InstitutionAccount, institution: Institution?)] = []
            for given in try tx.institutionAccounts(ofAccount: accountId) {
                institutions.append((given, try tx.institution(id: given.institutionId)))
            }
            var history: [HistoryEvent] = []
            try Self.forEachHistoryPage(ofAccount: accountId, tx) { page in history += page }
            return AccountRecords(account: account, identities: try tx.identities(ofAccount: accountId),
                                  sessions: try tx.liveSessions(ofAccount: accountId, idleCutoff: Instant(millisecondsSinceEpoch: 0)),
                                  devices: try tx.devices(ofAccount: accountId),
                                  transactions: try tx.transactions(ofAccount: accountId),
                                  renewalInfos: try tx.renewalInfos(ofAccount: accountId), grants: try tx.grants(ofAccount: accountId),
                                  institutions: institutions, history: history,
                                  downloads: try tx.downloadRecords(of: .account(accountId)))
        }
    }
}
