@testable import GatewayConfiguration
import PostgresStore
import SQLiteStore
import TestSupport
import Testing

/// `ISSUE_GATEWAY_DATABASE_URL`, `_DATABASE_POOL`, `_DATABASE_STATEMENT_TIMEOUT`, `_SQLITE_READERS`,
/// `_WRITE_GROUPS`.
@Suite struct DatabaseSettingTests {
    @Test func sqliteIsTheDefaultAndAURLSelectsPostgreSQL() throws {
        let defaults = try Configuration.load(environment: [:])
        #expect(defaults.databaseURL == nil)
        #expect(defaults.postgresSettings == PostgresSettings())
        let url = "postgresql://gw:secret@db.example:5432/gateway?sslmode=require"
        let configured = try Configuration.load(environment: [
            "ISSUE_GATEWAY_DATABASE_URL": url, "ISSUE_GATEWAY_DATABASE_POOL": "25",
            "ISSUE_GATEWAY_DATABASE_STATEMENT_TIMEOUT": "1500",
        ])
        #expect(configured.databaseURL == url)
        #expect(configured.postgresSettings == PostgresSettings(poolSize: 25, statementTimeoutMilliseconds: 1500))
        #expect(configured.storeDescription == "PostgreSQL at postgresql://gw@db.example:5432/gateway?sslmode=require")
        let inQuery = try Configuration.load(environment: [
            "ISSUE_GATEWAY_DATABASE_URL": "postgresql://db.example/gateway?user=gw&password=secret&sslmode=require"])
        #expect(inQuery.storeDescription == "PostgreSQL at postgresql://db.example/gateway?user=gw&sslmode=require")
    }

    /// Decision 127: PostgreSQL's write groups at once, 4 unless set.
    @Test func writeGroupsReachThePostgreSQLSettings() throws {
        #expect(try Configuration.load(environment: [:]).postgresSettings.writeGroups == 4)
        #expect(try Configuration.load(environment: ["ISSUE_GATEWAY_WRITE_GROUPS": "2"]).postgresSettings.writeGroups == 2)
    }

    /// Decision 113: the SQLite store opens at most this many reader connections at once.
    @Test func sqliteReadersCapTheStoresReaderConnections() throws {
        let db = TemporaryDatabase()
        let defaults = try Configuration.load(environment: ["ISSUE_GATEWAY_DATABASE": db.path])
        #expect((try defaults.openStore() as? SQLiteStore)?.readers == SQLiteStore.defaultReaders)
        let configured = try Configuration.load(environment: ["ISSUE_GATEWAY_DATABASE": db.path, "ISSUE_GATEWAY_SQLITE_READERS": "3"])
        #expect((try configured.openStore() as? SQLiteStore)?.readers == 3)
    }

    @Test(arguments: [("ISSUE_GATEWAY_DATABASE_URL", "mysql://gw:secret@db/gateway"),
                      ("ISSUE_GATEWAY_DATABASE_URL", "postgresql://gw:secret@db/gate way"),
                      ("ISSUE_GATEWAY_DATABASE_URL", ""),
                      ("ISSUE_GATEWAY_DATABASE_POOL", "0"),
                      ("ISSUE_GATEWAY_DATABASE_STATEMENT_TIMEOUT", "5"),
                      ("ISSUE_GATEWAY_SQLITE_READERS", "0"), ("ISSUE_GATEWAY_SQLITE_READERS", "257"),
                      ("ISSUE_GATEWAY_WRITE_GROUPS", "0"), ("ISSUE_GATEWAY_WRITE_GROUPS", "65")])
    func nonsenseIsRefusedNamingTheVariableButNotThePassword(_ name: String, _ value: String) {
        #expect {
            try Configuration.load(environment: [name: value])
        } throws: { error in
            (error as? ConfigurationError)?.setting == name && !"\(error)".contains("secret")
        }
    }
}
