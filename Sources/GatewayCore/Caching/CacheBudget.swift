/// How `ISSUE_GATEWAY_CACHE_MEMORY` is shared between the gateway's caches. Fixed shares rather
/// than one pool, so that a burst on one path (say, edges checking thousands of fresh tokens)
/// cannot evict what another path lives on (readers' issue lists):
///
/// - issue-list answers, 40%: what the issue-list fast path needs, ~420 bytes per account
///   (`IssueListAnswer`, measured in BENCHMARKS.md), so about 250,000 accounts in the default 256 MiB;
/// - principals, 25%: the other half of the fast path (a bearer secret's hash to its account),
///   ~310 bytes each, so about 215,000 accounts;
/// - account facts, 20%: several KiB per account with years of renewals, they spare a database
///   read to tokens and entitlements and to recomputing an expired answer; the store reads them
///   quickly, so they get what is left after the fast path;
/// - verified download tokens, 5%: re-verifying one is a single HMAC, the memo only spares edges'
///   repeated checks of the same token within its minutes of life;
/// - gzip-coded lists, 10%: a polling reader's compressed list (~16 KiB for a 15-year subscriber)
///   is answered without rendering or compressing again, so about 1,600 such readers in 256 MiB;
///   smaller lists fit many more, and a list that falls out costs one compression.
package struct CacheBudget: Sendable, Equatable {
    package var totalBytes: Int

    package var answerBytes: Int { share(40) }
    package var principalBytes: Int { share(25) }
    package var factsBytes: Int { share(20) }
    package var tokenBytes: Int { share(5) }
    package var compressedBytes: Int { share(10) }

    private func share(_ percent: Int) -> Int { totalBytes / 100 * percent }

    /// `ISSUE_GATEWAY_CACHE_MEMORY`'s default.
    package static let defaultTotalBytes = 256 << 20
}
