import Entitle
import GatewayCore
import GatewayStore
import Wire

/// readers.md E35's export: one document with every key the Decisions name, the facts as stored
/// (never a secret or a secret's hash). What the history route hides from a reader's own token
/// (`HistoryView`), the export hides too.
extension JSONWriter {
    package mutating func accountExport(_ r: AccountRecords, view: HistoryView) {
        let printClaims = r.grants.filter { $0.source == PrintSubscriber.grantSource }
        object { w in
            w.key("account")
            w.object { w in
                w.field("accountId", r.account.id)
                w.field("createdAt", r.account.createdAt.rfc3339)
                w.field("appAccountToken", r.account.appAccountToken)
            }
            w.key("identities")
            w.array { w in
                for identity in r.identities {
                    w.object { w in
                        w.field("provider", identity.key.provider)
                        w.field("subject", identity.key.subject)
                        w.field("email", identity.email)
                        w.key("emailVerified"); if let verified = identity.emailVerified { w.bool(verified) } else { w.null() }
                        w.key("isPrivateEmail"); if let relay = identity.isPrivateEmail { w.bool(relay) } else { w.null() }
                        w.key("realUserStatus"); if let status = identity.realUserStatus { w.int(status) } else { w.null() }
                        w.field("createdAt", identity.createdAt.rfc3339)
                    }
                }
            }
            w.key("sessions"); w.array { w in for session in r.sessions { w.rawValue(SessionJSON.value(session, current: nil).serializedBytes) } }
            w.key("devices"); w.array { w in for device in r.devices { w.device(device) } }
            w.key("transactions"); w.array { w in for t in r.transactions { w.transactionFacts(t) } }
            w.key("renewalInfo"); w.array { w in for renewal in r.renewalInfos { w.renewalInfoFacts(renewal) } }
            w.key("grants")
            w.array { w in for g in r.grants where g.source != PrintSubscriber.grantSource { w.grant(g, withNote: view == .staff) } }
            w.key("printClaims")
            w.array { w in
                for g in printClaims {
                    w.object { w in
                        w.field("publicationId", g.publications.first ?? "")
                        w.field("customerNumber", g.externalId.split(separator: ":", maxSplits: 1).last.map(String.init) ?? "")
                        w.field("grantId", g.grantId)
                        w.field("start", g.start.rfc3339)
                        w.field("end", g.end?.rfc3339)
                        w.field("revokedAt", g.revokedAt?.rfc3339)
                    }
                }
            }
            w.key("institutions")
            w.array { w in
                for (given, institution) in r.institutions {
                    w.object { w in
                        w.field("institutionId", given.institutionId)
                        w.field("name", institution?.name)
                        w.field("firstSeen", given.firstSeen.rfc3339)
                        w.field("address", given.address)
                    }
                }
            }
            w.key("history"); w.array { w in for event in r.history { w.historyEvent(event, view: view) } }
            w.key("downloads")
            w.array { w in
                for record in r.downloads {
                    w.object { w in
                        w.field("publicationId", record.issue.publicationId)
                        w.field("issueId", record.issue.issueId)
                        w.field("firstDownloadAt", record.firstAt.rfc3339)
                        w.field("lastDownloadAt", record.lastAt.rfc3339)
                        w.field("downloads", Int(record.downloads))
                    }
                }
            }
        }
    }

    /// A stored transaction as the store-neutral fact it is (E1's fields).
    package mutating func transactionFacts(_ t: Transaction) {
        object { w in
            w.field("store", t.store.rawValue)
            w.field("environment", t.environment.rawValue)
            w.field("transactionId", t.transactionId)
            w.field("originalTransactionId", t.originalTransactionId)
            w.field("productId", t.productId)
            w.field("purchaseDate", t.purchaseDate.rfc3339)
            w.field("originalPurchaseDate", t.originalPurchaseDate?.rfc3339)
            w.field("expiresDate", t.expiresDate?.rfc3339)
            w.field("revocationDate", t.revocationDate?.rfc3339)
            w.key("revocationReason"); if let reason = t.revocationReason { w.int(reason) } else { w.null() }
            w.field("revocationKind", t.revocationKind?.rawValue)
            w.field("isUpgraded", t.isUpgraded)
            w.field("offer", t.offer?.rawValue)
            w.field("ownership", t.ownership.rawValue)
            w.field("webOrderLineItemId", t.webOrderLineItemId)
            w.field("subscriptionGroup", t.subscriptionGroup)
            w.field("appAccountToken", t.appAccountToken)
            w.field("source", t.source.rawValue)
            w.field("observedAt", t.observedAt?.rfc3339)
        }
    }

    package mutating func renewalInfoFacts(_ r: RenewalInfo) {
        object { w in
            w.field("store", r.store.rawValue)
            w.field("environment", r.environment.rawValue)
            w.field("originalTransactionId", r.originalTransactionId)
            w.field("productId", r.productId)
            w.field("autoRenewStatus", r.autoRenewStatus)
            w.field("autoRenewProductId", r.autoRenewProductId)
            w.key("expirationIntent"); if let intent = r.expirationIntent { w.int(intent.rawValue) } else { w.null() }
            w.field("isInBillingRetry", r.isInBillingRetry)
            w.field("gracePeriodExpiresDate", r.gracePeriodExpiresDate?.rfc3339)
            w.field("pausedAt", r.pausedAt?.rfc3339)
            w.field("resumesAt", r.resumesAt?.rfc3339)
            w.field("source", r.source.rawValue)
            w.field("observedAt", r.observedAt?.rfc3339)
        }
    }
}
