import Entitle
import GatewayCrypto

/// Moving up from one store to another (`issue-gateway store copy --to postgresql://…`):
/// every table the source holds, row by row, in an order that respects foreign keys, verified
/// by a count and a checksum per table computed on both sides from the rows as stored.
///
/// Rows cross as text (integers in decimal, booleans as 0 or 1, NULL as nil), which both
/// backends' column types read back exactly.
public struct CopyTable: Sendable, Equatable {
    public var name: String
    public var columns: [String]
    /// Tables this one's foreign keys refer to: copied before it.
    public var references: [String]

    public init(name: String, columns: [String], references: [String]) {
        self.name = name; self.columns = columns; self.references = references
    }
}

/// A table's rows summed up: how many, and a checksum that does not depend on their order (the
/// wrapping sum of the first 64 bits of each row's SHA-256 over its values).
public struct TableChecksum: Sendable, Equatable, CustomStringConvertible {
    public private(set) var rows = 0
    public private(set) var sum: UInt64 = 0

    public init() {}

    public mutating func add(_ row: [String?]) throws(StoreError) {
        var bytes: [UInt8] = []
        for value in row {
            // A length prefix keeps ("ab", "c") and ("a", "bc") apart; nil is its own marker.
            if let value {
                bytes += Array("\(value.utf8.count):".utf8) + Array(value.utf8)
            } else {
                bytes += Array("-".utf8)
            }
        }
        let digest: [UInt8]
        do { digest = try SHA256Digest.hash(bytes) } catch { throw .failed }
        rows += 1
        sum &+= digest.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    public var description: String { "\(rows) rows, checksum \(String(sum, radix: 16))" }
}

/// A store whose tables can be read for a copy (the SQLite store).
public protocol TableExporting: AnyObject {
    /// Every table holding the gateway's data, in an order where each comes after those it refers to.
    func copyTables() throws(StoreError) -> [CopyTable]
    /// Hands `table`'s rows, in `table.columns` order, to `batch` a few thousand at a time.
    func forEachRowBatch(of table: CopyTable, _ batch: ([[String?]]) throws(StoreError) -> Void) throws(StoreError)
}

/// What a copy did to one table.
public struct CopiedTable: Sendable, Equatable {
    public var name: String
    public var source: TableChecksum
    public var destination: TableChecksum

    public init(name: String, source: TableChecksum, destination: TableChecksum) {
        self.name = name; self.source = source; self.destination = destination
    }
}

/// A store that can take a copy (the PostgreSQL store): all tables in one transaction, into a
/// store that holds no data yet, committed only when every table's count and checksum read back
/// equal the source's.
public protocol TableImporting: AnyObject {
    func importEverything(from source: any TableExporting) throws(TableCopyError) -> [CopiedTable]
}

public enum TableCopyError: Error, Equatable, CustomStringConvertible {
    case notEmpty(table: String)
    case missingTable(String)
    case mismatch(table: String, source: TableChecksum, destination: TableChecksum)
    case store(StoreError)

    public var description: String {
        switch self {
        case .notEmpty(let table): return "the destination is not empty (table \(table) has rows); copy into an empty database"
        case .missingTable(let table): return "the destination has no table \(table) (a gateway too old for the source?)"
        case .mismatch(let table, let source, let destination):
            return "table \(table) differs after the copy: source \(source), destination \(destination); nothing was kept"
        case .store(let error): return "\(error)"
        }
    }
}

extension CopyTable {
    /// `tables` ordered so that each comes after every table it refers to (Kahn's algorithm;
    /// references outside the set, and to itself, are ignored). Ties keep the given order.
    public static func dependencyOrdered(_ tables: [CopyTable]) -> [CopyTable] {
        var remaining = tables
        var ordered: [CopyTable] = []
        var placed: Set<String> = []
        let names = Set(tables.map(\.name))
        while !remaining.isEmpty {
            let index = remaining.firstIndex { table in
                table.references.allSatisfy { $0 == table.name || placed.contains($0) || !names.contains($0) }
            } ?? 0  // a cycle: take the first (the copy then fails on its foreign key, naming it)
            let table = remaining.remove(at: index)
            ordered.append(table)
            placed.insert(table.name)
        }
        return ordered
    }
}
