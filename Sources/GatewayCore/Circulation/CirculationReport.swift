import Entitle
import GatewayStore
import IssueCatalog
import Wire

/// E36: one issue's circulation, as reports.md answers it (JSON counts and the CSV recipient list).
package struct CirculationReport: Sendable, Equatable {
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
    /// In account-id byte order.
    package var rows: [Row]

    /// reports.md: every account that downloaded the issue (the four bases and `notEntitled`;
    /// for a free issue, every downloader).
    package var downloadedTotal: Int { rows.lazy.filter { $0.download != nil }.count }

    /// reports.md: counts from the evidence that may entitle the issue and its download records.
    package init(issue: Issue, window: CirculationWindow, facts: CirculationFacts) {
        self.issue = issue
        asOf = window.asOf
        var byAccount: [String: [CirculationEvidence]] = [:]
        for (accountId, item) in facts.evidence { byAccount[accountId, default: []].append(item) }
        var rows: [String: Row] = [:]
        if !issue.free {
            for (accountId, items) in byAccount {
                if let deciding = window.deciding(items) { rows[accountId] = Row(accountId: accountId, deciding: deciding) }
            }
        }
        var institutionDownloads: Set<String> = []
        for download in facts.downloads {
            switch download.reader {
            case .account(let id): rows[id, default: Row(accountId: id)].download = download
            case .institution(let id): institutionDownloads.insert(id)
            }
        }
        var entitled = Counts(), downloaded = Counts(), notEntitled = 0
        for row in rows.values {
            if let deciding = row.deciding {
                entitled.byBasis[deciding.basis, default: 0] += 1
                if deciding.basis <= .trial, let store = deciding.store { entitled.byStore[store, default: 0] += 1 }
                if row.download != nil { downloaded.byBasis[deciding.basis, default: 0] += 1 }
            } else if !issue.free {
                notEntitled += 1
            }
        }
        if issue.free { downloaded.byBasis = [:] }
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
        self.rows = rows.values.sorted { $0.accountId.utf8.lexicographicallyPrecedes($1.accountId.utf8) }
        if issue.free { self.rows = self.rows.filter { $0.download != nil } }
    }
}
