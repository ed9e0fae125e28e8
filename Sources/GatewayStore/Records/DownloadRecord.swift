import IssueCatalog
import Wire

/// E36: who was handed download tokens for an issue: an account, or an institution on its own
/// routes (or on an account route that only its coverage entitled).
public enum DownloadReader: Hashable, Sendable, Comparable {
    case account(String)
    case institution(String)

    /// The stored `reader` column and id.
    var column: (kind: String, id: String) {
        switch self {
        case .account(let id): ("account", id)
        case .institution(let id): ("institution", id)
        }
    }

    init?(kind: String, id: String) {
        switch kind {
        case "account": self = .account(id)
        case "institution": self = .institution(id)
        default: return nil
        }
    }
}

/// E36: one reader's download record of one issue: the first and last instant a download token
/// or CDN-native URL was handed out, and how many times.
public struct DownloadRecord: Hashable, Sendable {
    public var reader: DownloadReader
    public var issue: IssueRef
    public var firstAt: Instant
    public var lastAt: Instant
    public var downloads: Int64

    public init(reader: DownloadReader, issue: IssueRef, firstAt: Instant, lastAt: Instant, downloads: Int64) {
        self.reader = reader; self.issue = issue; self.firstAt = firstAt; self.lastAt = lastAt; self.downloads = downloads
    }

    /// What a record is kept by: one reader and one issue.
    public struct Pair: Hashable, Sendable {
        public let reader: DownloadReader
        public let issue: IssueRef

        public init(reader: DownloadReader, issue: IssueRef) { self.reader = reader; self.issue = issue }
    }

    public var pair: Pair { Pair(reader: reader, issue: issue) }

    /// Two records of one pair as one: the earliest first, the latest last, the counts added.
    public func merged(with other: DownloadRecord) -> DownloadRecord {
        DownloadRecord(reader: reader, issue: issue, firstAt: min(firstAt, other.firstAt), lastAt: max(lastAt, other.lastAt),
                       downloads: downloads + other.downloads)
    }
}
