import Entitle
import IssueCatalog
import Wire

/// One account's devices, read for a push page (its facts come through the gateway's account
/// cache, shared with its lists and tokens).
public struct PushTarget: Sendable, Equatable {
    public var accountId: String
    public var devices: [Device]
}

/// Publication events (http-api.md, pushes and webhooks): an issue is announced once, when it is
/// published (at once, or when its scheduled `publishedAt` arrives). The announcement, its
/// `issue.published` event and its push job are written in one unit of work with the row that
/// proves it fired, so with several processes on one database it fires once, and a crash either
/// leaves all of it or none (to be fired on the next pass).
extension GatewayStore {
    /// The first time events are on, every issue already published is recorded as announced
    /// without pushes: turning the feature on does not push a publication's whole history.
    public func preparePublicationEvents(now: Instant) throws(StoreError) {
        try write { tx throws(StoreError) in
            guard try tx.publicationEventsBaseline() == nil else { return }
            try tx.skipPublishedIssues(publishedBy: now, at: now)
            try tx.setPublicationEventsBaseline(now)
        }
    }

    /// Announces up to `limit` issues published by `now` and never announced: each gets its
    /// `issue.published` event (webhooks on) and a push job (pushes on). Returns them.
    public func announceDueIssues(now: Instant, policy: EventPolicy, limit: Int) throws(StoreError) -> [Issue] {
        guard policy.publicationEvents else { return [] }
        return try write { tx throws(StoreError) in
            var announced: [Issue] = []
            for ref in try tx.unannouncedIssues(publishedBy: now, limit: limit) {
                guard let issue = try tx.issue(ref),
                      try tx.insertPublicationEvent(ref, publishedAt: issue.publishedAt, firedAt: now, pushed: policy.pushes)
                else { continue }
                if policy.webhooks { try tx.insert(IssuePublishedEvent.event(issue, at: now)) }
                if policy.pushes { try tx.insert(PushJob(issue: ref, createdAt: now)) }
                announced.append(issue)
            }
            return announced
        }
    }

    /// When the next scheduled issue comes out, if one is waiting.
    public func nextUnannouncedPublication(after now: Instant) throws(StoreError) -> Instant? {
        try read { tx throws(StoreError) in try tx.nextUnannouncedPublication(after: now) }
    }

    public func isAnnounced(_ ref: IssueRef) throws(StoreError) -> Bool {
        try read { tx throws(StoreError) in try tx.isAnnounced(ref) }
    }

    /// Leases the oldest unfinished push job nobody else holds to `owner`.
    public func claimPushJob(owner: String, now: Instant, lease: Duration) throws(StoreError) -> PushJob? {
        try write { tx throws(StoreError) in
            for var job in try tx.openPushJobs(limit: 16) {
                if let until = job.leaseUntil, until > now, job.leaseOwner != owner { continue }
                job.leaseOwner = owner
                job.leaseUntil = now.adding(milliseconds: Int64(lease.milliseconds))
                try tx.updatePushJob(job)
                return job
            }
            return nil
        }
    }

    /// Records a page done: the cursor moves past it, the lease is renewed, and a job whose last
    /// page this was is finished.
    public func advancePushJob(_ job: PushJob, cursor: String?, finished: Bool, now: Instant, lease: Duration) throws(StoreError) -> PushJob {
        try write { tx throws(StoreError) in
            var next = job
            next.cursor = cursor ?? job.cursor
            next.finishedAt = finished ? now : nil
            next.leaseUntil = finished ? nil : now.adding(milliseconds: Int64(lease.milliseconds))
            next.leaseOwner = finished ? nil : job.leaseOwner
            try tx.updatePushJob(next)
            return next
        }
    }

    public func openPushJobs() throws(StoreError) -> [PushJob] {
        try read { tx throws(StoreError) in try tx.openPushJobs(limit: Int.max) }
    }

    /// A page of candidate accounts (see `PushAudience`) after `after`.
    public func pushCandidates(_ audience: PushAudience, after: String?, limit: Int) throws(StoreError) -> [String] {
        try read { tx throws(StoreError) in try tx.pushCandidates(audience, after: after, limit: limit) }
    }

    /// The devices of each account, from one snapshot, in the order asked.
    public func pushTargets(_ accountIds: [String]) throws(StoreError) -> [PushTarget] {
        try read { tx throws(StoreError) in
            var targets: [PushTarget] = []
            for id in accountIds { targets.append(PushTarget(accountId: id, devices: try tx.devices(ofAccount: id))) }
            return targets
        }
    }
}
