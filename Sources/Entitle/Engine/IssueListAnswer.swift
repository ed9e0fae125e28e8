import IssueCatalog
import Wire

/// The part of an account's entitlements that its issue lists are made of, kept compact so that
/// a server can hold it for every active reader: per publication, the visible issues (E16) as runs
/// of positions with equal reasons (E12–E15, E20), and until when that holds (E18). Hundreds of
/// bytes, where the rendered lists are tens of KiB; lists are walked from it in O(listed issues).
///
/// Valid for the catalog it was computed on and, for a publication, until its
/// `issuesStableUntil`; `issues(publicationId:entitledOnly:)` answers exactly what the
/// `AccountEntitlements` it came from answers.
public struct IssueListAnswer: Sendable {
    let catalog: EntitlementCatalog
    /// Every publication's runs, by publication number: those of publication `n` are
    /// `runs[starts[n]..<starts[n + 1]]`.
    let runs: [ListedRun]
    let starts: [Int32]
    let stableUntil: [Instant]
    /// A hash of what the lists hold (every run and where each publication's runs start): with the
    /// catalog's own, it names a rendered list, so servers derive entity tags from it without
    /// rendering. `stableUntil` is left out: it says until when the runs hold, not what is listed.
    public let fingerprint: UInt64

    init(_ entitlements: AccountEntitlements) {
        catalog = entitlements.catalog
        var runs: [ListedRun] = []
        var starts: [Int32] = [0]
        var stableUntil: [Instant] = []
        for number in catalog.publications.indices {
            let p = entitlements.publication(number)
            p.listedRuns(into: &runs)
            starts.append(Int32(runs.count))
            stableUntil.append(p.stableUntil)
        }
        self.runs = runs
        self.starts = starts
        self.stableUntil = stableUntil
        var hash = FNV1a()
        for run in runs {
            hash.combine(UInt64(UInt32(bitPattern: run.upper)) << 32 | UInt64(UInt32(bitPattern: run.lower)))
            hash.combine(UInt64(run.bits))
        }
        for start in starts { hash.combine(UInt64(UInt32(bitPattern: start))) }
        fingerprint = hash.value
    }

    /// As `AccountEntitlements.issues(publicationId:entitledOnly:)`.
    public func issues(publicationId: String?, entitledOnly: Bool) -> [IssueEntitlement] {
        IssueListing.list(catalog, publicationId: publicationId, entitledOnly: entitledOnly, publication)
    }

    /// One publication's list without materialising `IssueEntitlement`s, for renderers that keep
    /// each issue's output by `indexInPublication`: `body(indexInPublication, reasonSet)`, newest
    /// first, the same items as `issues(publicationId:entitledOnly:)`. False (and no call) for a
    /// publication the catalog does not hold.
    public func forEachListed(publicationId: String, entitledOnly: Bool, _ body: (Int, UInt16) -> Void) -> Bool {
        guard let number = catalog.publicationNumbers[publicationId] else { return false }
        publication(number).forEachListed(entitledOnly: entitledOnly, body)
        return true
    }

    /// As `AccountEntitlements.entitlement(for:)` (E16, E12–E15, E20): nil when the reader cannot
    /// see the issue, else the listed issue with its reasons. Exact at any instant before
    /// `issuesStableUntil(publicationId: ref.publicationId)` (E18), so that a download's decision
    /// needs no evaluation of the facts. Costs O(log issues + log runs).
    public func entitlement(for ref: IssueRef) -> IssueEntitlement? {
        guard let number = catalog.publicationNumbers[ref.publicationId],
              let issue = catalog.snapshot.issue(ref) else { return nil }
        let p = publication(number)
        return p.index.position(of: issue).flatMap(p.listed(at:))
    }

    /// As `AccountEntitlements.issuesStableUntil(publicationId:)`.
    public func issuesStableUntil(publicationId: String?) -> Instant {
        IssueListing.stableUntil(catalog, publicationId: publicationId) { stableUntil[$0] }
    }

    /// The snapshot it was computed on: valid only while the server's catalog is that one.
    public var snapshot: CatalogSnapshot { catalog.snapshot }

    /// The heap it holds beyond the shared catalog: its three arrays (a header each) and their
    /// elements, for caches that count what they keep in bytes.
    public var heapBytes: Int {
        3 * Self.arrayHeaderBytes + runs.count * MemoryLayout<ListedRun>.stride
            + starts.count * MemoryLayout<Int32>.stride + stableUntil.count * MemoryLayout<Instant>.stride
    }

    /// A Swift array's heap header (object header, count and capacity).
    static let arrayHeaderBytes = 32

    private func publication(_ number: Int) -> PublicationRuns {
        PublicationRuns(index: catalog.publications[number], runs: runs[Int(starts[number])..<Int(starts[number + 1])])
    }
}

extension AccountEntitlements {
    /// The compact form of the issue lists (`IssueListAnswer`), to keep between requests.
    public var issueListAnswer: IssueListAnswer { IssueListAnswer(self) }
}
