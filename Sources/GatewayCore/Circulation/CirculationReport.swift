import Entitle
import GatewayStore
import IssueCatalog
import Wire

/// E36: one issue's circulation, as reports.md answers it (JSON counts and the CSV recipient list).
package struct CirculationReport: Sendable {
    /// Counts by basis, in E36's order.
    package struct Counts: Sendable, Equatable {
        package var byBasis: [CirculationBasis: Int] = [:]
        package var byStore: [Store: Int] = [:]
        package var total: Int { byBasis.values.reduce(0, +) }

        package subscript(basis: CirculationBasis) -> Int { byBasis[basis] ?? 0 }
    }

    /// One recipient: an account entitled or that downloaded.
    package struct Row: Sendable, Equatable {
        package var accountId: String
        /// nil: downloaded and not entitled (`none`), or a free issue's downloader (`free`).
        package var deciding: CirculationEvidence?
        package var download: DownloadRecord?
    }

    package var issue: Issue
    package var asOf: Instant
    /// nil for a free issue (reports.md: no entitled counts).
    package var entitled: Counts?
    package var downloaded: Counts
    package var notEntitled: Int
    package var institutionsEntitled: Int
    package var institutionsDownloaded: Int
    /// The evidence deciding each entitled account (none for a free issue), and each account's
    /// download record: the counts are made from these, the recipient list only when asked.
    private let deciding: [String: CirculationEvidence]
    private let accountDownloads: [String: DownloadRecord]

    /// reports.md: every account that downloaded the issue (the four bases and `notEntitled`;
    /// for a free issue, every downloader).
    package var downloadedTotal: Int { accountDownloads.count }

    /// The recipient list: every account entitled or that downloaded (for a free issue, every
    /// downloader), in account-id byte order.
    package var rows: [Row] {
        var rows = deciding.map { Row(accountId: $0.key, deciding: $0.value, download: accountDownloads[$0.key]) }
        for (accountId, download) in accountDownloads where deciding[accountId] == nil {
            rows.append(Row(accountId: accountId, deciding: nil, download: download))
        }
        return rows.sorted { $0.accountId.utf8.lexicographicallyPrecedes($1.accountId.utf8) }
    }

    /// reports.md: counts from the evidence that may entitle the issue and its download records.
    package init(issue: Issue, window: CirculationWindow, facts: CirculationFacts) {
        self.issue = issue
        asOf = window.asOf
        // `window.deciding` per account, in one pass: the entitling item that decides over the
        // account's others (the first of equals stays).
        var deciding: [String: CirculationEvidence] = [:]
        if !issue.free {
            deciding.reserveCapacity(facts.evidence.count)
            for (accountId, item) in facts.evidence where window.entitles(item) {
                if let held = deciding[accountId], !CirculationEvidence.decides(item, over: held) { continue }
                deciding[accountId] = item
            }
        }
        var accountDownloads: [String: DownloadRecord] = [:]
        var institutionDownloads: Set<String> = []
        for download in facts.downloads {
            switch download.reader {
            case .account(let id): accountDownloads[id] = download
            case .institution(let id): institutionDownloads.insert(id)
            }
        }
        var entitled = Counts(), downloaded = Counts(), notEntitled = 0
        for item in deciding.values {
            entitled.byBasis[item.basis, default: 0] += 1
            if item.basis <= .trial, let store = item.store { entitled.byStore[store, default: 0] += 1 }
        }
        if !issue.free {
            for accountId in accountDownloads.keys {
                if let item = deciding[accountId] { downloaded.byBasis[item.basis, default: 0] += 1 } else { notEntitled += 1 }
            }
        }
        self.deciding = deciding
        self.accountDownloads = accountDownloads
        self.entitled = issue.free ? nil : entitled
        self.downloaded = downloaded
        self.notEntitled = notEntitled
        // reports.md: institutions not deleted whose interval entitles the issue as a grant would
        // (E30, the issue current at their start included); downloaded: those handed a token.
        let covering = facts.institutions.filter { $0.publications.contains(issue.publicationId) }
        institutionsEntitled = covering.filter { institution in
            let end = institution.end ?? .distantFuture
            guard institution.start < end else { return false }
            return [CirculationEvidence.Kind.interval, .unlock].contains { kind in
                window.entitles(CirculationEvidence(kind: kind, publicationId: issue.publicationId, start: institution.start,
                                                    end: end, basis: .grant, store: nil, productId: nil,
                                                    subscriptionId: institution.institutionId, beganAt: institution.start))
            }
        }.count
        institutionsDownloaded = facts.institutions.filter { institutionDownloads.contains($0.institutionId) }.count
    }
}
