import CLibPQ
import Foundation
import PostgresStore

/// A fresh schema on the throw-away cluster `scripts/test` starts (`ISSUE_GATEWAY_TEST_DATABASE_URL`),
/// dropped with everything in it when this goes away: each test gets its own tables.
public final class TemporaryPostgresSchema: Sendable {
    /// The variable `scripts/test` sets to the cluster's URL.
    public static let urlVariable = "ISSUE_GATEWAY_TEST_DATABASE_URL"

    /// The cluster's URL, nil when the tests run without one (a developer's bare `swift test`).
    public static var clusterURL: String? {
        guard let url = ProcessInfo.processInfo.environment[urlVariable], !url.isEmpty else { return nil }
        return url
    }

    public let name: String
    /// The cluster's URL with this schema first on the search path.
    public let url: String
    /// The same as the cluster's own user, whom `cutOff()` never locks out (another process that
    /// still reaches the database).
    public let ownerURL: String
    private let clusterURL: String

    public struct Unreachable: Error, CustomStringConvertible {
        public let description: String
    }

    /// Whether the schema's stores log in as a role of their own (`cutOff()`, `restore()`).
    private let ownRole: Bool

    /// Creates the schema; throws when the cluster cannot be reached (a test then fails: the
    /// variable says a server should be there). With `ownRole`, stores log in as a role made for
    /// this schema, which `cutOff()` can lock out as if the server had gone away.
    public init(clusterURL: String, ownRole: Bool = false) throws {
        self.clusterURL = clusterURL
        self.ownRole = ownRole
        name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let separator = clusterURL.contains("?") ? "&" : "?"
        ownerURL = clusterURL + separator + "options=-csearch_path%3D" + name
        url = ownerURL + (ownRole ? "&user=" + name : "")
        if ownRole {
            try Self.execute("CREATE ROLE \(name) LOGIN; CREATE SCHEMA \(name) AUTHORIZATION \(name)", on: clusterURL)
        } else {
            try Self.execute("CREATE SCHEMA \(name)", on: clusterURL)
        }
    }

    /// A schema on the configured cluster (`clusterURL`); throws when none is configured.
    public convenience init(ownRole: Bool = false) throws {
        guard let clusterURL = Self.clusterURL else { throw Unreachable(description: "\(Self.urlVariable) is not set") }
        try self.init(clusterURL: clusterURL, ownRole: ownRole)
    }

    /// The database becomes unreachable for this schema's stores: their role may no longer log
    /// in and its sessions are ended (a server that went away, without stopping the shared cluster).
    public func cutOff() throws {
        try Self.execute("""
            ALTER ROLE \(name) NOLOGIN;
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '\(name)'
            """, on: clusterURL)
    }

    /// The database is reachable again.
    public func restore() throws { try Self.execute("ALTER ROLE \(name) LOGIN", on: clusterURL) }

    /// A store on this schema.
    public func open(settings: PostgresSettings = PostgresSettings(poolSize: 4)) throws -> PostgresStore {
        try PostgresStore(url: url, settings: settings)
    }

    /// Runs `sql` on a connection of its own (as another process would).
    public func execute(_ sql: String) throws { try Self.execute(sql, on: url) }

    deinit {
        try? Self.execute("DROP SCHEMA \(name) CASCADE", on: clusterURL)
        if ownRole {
            try? Self.execute("""
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '\(name)';
                DROP ROLE \(name)
                """, on: clusterURL)
        }
    }

    public static func execute(_ sql: String, on url: String) throws {
        let connection = PQconnectdb(url)
        defer { PQfinish(connection) }
        guard PQstatus(connection) == CONNECTION_OK else {
            throw Unreachable(description: "PostgreSQL at \(url) unreachable: \(String(cString: PQerrorMessage(connection)))")
        }
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            throw Unreachable(description: "\(sql): \(String(cString: PQerrorMessage(connection)))")
        }
    }
}

/// A session of its own that runs `sql` (say, `BEGIN; SELECT … FOR UPDATE`) and keeps the
/// transaction open until `release()`: another process holding locks.
public final class PostgresLockHolder: @unchecked Sendable {
    private let connection: OpaquePointer?

    public init(url: String, sql: String) throws {
        connection = PQconnectdb(url)
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(connection))
            PQfinish(connection)
            throw TemporaryPostgresSchema.Unreachable(description: message)
        }
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_TUPLES_OK || PQresultStatus(result) == PGRES_COMMAND_OK else {
            let message = String(cString: PQerrorMessage(connection))
            PQfinish(connection)
            throw TemporaryPostgresSchema.Unreachable(description: message)
        }
    }

    public func release() { PQfinish(connection) }
}
