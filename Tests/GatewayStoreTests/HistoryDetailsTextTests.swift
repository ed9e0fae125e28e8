import Foundation
import Testing
import Entitle
import GatewayStore
import SQLiteStore
import TestSupport
import Wire

/// History details stored compacted: read back as exactly the JSON written, whatever it holds,
/// and the rows stored before the step compacted in place by it.
@Suite struct HistoryDetailsTextTests {
    static let samples = [
        #"{"store":"appStore","environment":"production","originalTransactionId":"1000","transactionId":"1001","productId":"m.1m","purchaseDate":"2022-02-28T09:00:00.000Z","expiresDate":"2022-03-28T09:00:00.000Z"}"#,
        #"{"store":"googlePlay","environment":"production","originalTransactionId":"GPA.1","changes":["new"],"autoRenewStatus":false,"autoRenewProductId":"p","isInBillingRetry":true,"gracePeriodExpiresDate":null}"#,
        #"{"action":"true null false \u0001 \" :00.000Z\"","note":"{\"store\":\"appStore\"}","n":[1,2.5,-3]}"#,
        "{}",
    ]

    @Test func theStoredTextReadsBackAsTheJSONWrittenAndIsShorter() throws {
        for json in Self.samples {
            let stored = HistoryDetailsText.compact(json)
            #expect(HistoryDetailsText.expand(stored) == json)
            #expect(stored.utf8.count <= json.utf8.count)
        }
        #expect(HistoryDetailsText.compact(Self.samples[0]).utf8.count < 90, "a transaction seen: ~230 bytes as JSON")
        #expect(HistoryDetailsText.expand(Self.samples[0]) == Self.samples[0], "plain JSON, as stored before, reads as it is")
    }

    /// Each piece is replaced wherever it stands: first, last, repeated, or right after another.
    @Test func everyOccurrenceOfAPieceIsReplacedAndNothingElse() {
        #expect(HistoryDetailsText.compact("true,[false,true]truefalse") == "\u{1A},[\u{19},\u{1A}]\u{1A}\u{19}")
        #expect(HistoryDetailsText.compact(#"{"at":"2026-01-01T00:00:00.000Z"}"#) == "{\"at\":\"2026-01-01T00:00\u{0B}}")
        #expect(HistoryDetailsText.compact("tru e nul") == "tru e nul")
    }

    @Test func aControlCharacterThatIsNoTokenIsNotAValueTheGatewayWrote() {
        #expect(HistoryDetailsText.expand("{\u{1F}}") == nil)
        #expect(HistoryDetailsText.expand("{\u{09}}") == nil)
    }

    @Test func everyTokenIsAControlCharacterOtherThanWhitespaceAndUsedOnce() {
        let tokens = HistoryDetailsText.pieces.map(\.token)
        #expect(Set(tokens).count == tokens.count)
        #expect(tokens.allSatisfy { $0 > 0 && $0 < 0x20 && ![0x09, 0x0A, 0x0D].contains($0) })
    }

    /// Events written as plain JSON before the step, then the step's SQL as a migration runs it.
    static let compactingStep = SharedMigration.all.first { $0.sql(for: .sqlite).contains("UPDATE history_events SET details") }

    @Test func theStepCompactsTheEventsStoredBeforeItInPlaceOnSQLite() throws {
        let db = TemporaryDatabase()
        let store = try db.open()
        try store.createAccount(Fixtures.account("alice"))
        let file = try SQLiteFile(db.path)
        for json in Self.samples {
            try #require(file.execute("""
                INSERT INTO history_events (account_id, at, kind, source, details)
                VALUES ('alice', 0, 'operatorAction', 'admin', '\(json.replacingOccurrences(of: "'", with: "''"))')
                """))
        }
        let before = try file.integer("SELECT SUM(length(CAST(details AS BLOB))) FROM history_events")
        let step = try #require(Self.compactingStep)
        try #require(file.execute(step.sql(for: .sqlite)))
        #expect(try file.integer("SELECT SUM(length(CAST(details AS BLOB))) FROM history_events") < before - 200)
        let events = try #require(try store.history(ofAccount: "alice", after: nil, limit: 10)).events
        #expect(events.map { JSONValue.object($0.details).serialized } == Self.samples.map { (try? JSONParser().parse($0))!.serialized })
    }

    @Test(.postgresCluster)
    func theStepCompactsTheEventsStoredBeforeItInPlaceOnPostgreSQL() throws {
        let schema = try TemporaryPostgresSchema()
        let store = try schema.open()
        try store.createAccount(Fixtures.account("alice"))
        for json in Self.samples {
            try schema.execute("""
                INSERT INTO history_events (account_id, at, kind, source, details)
                VALUES ('alice', 0, 'operatorAction', 'admin', '\(json.replacingOccurrences(of: "'", with: "''"))')
                """)
        }
        let step = try #require(Self.compactingStep)
        try schema.execute(step.sql(for: .postgres))
        try schema.execute("""
            DO $$ BEGIN IF (SELECT SUM(octet_length(details)) FROM history_events) > \(Self.samples.joined().utf8.count - 200)
            THEN RAISE EXCEPTION 'not compacted'; END IF; END $$
            """)
        let events = try #require(try store.history(ofAccount: "alice", after: nil, limit: 10)).events
        #expect(events.map { JSONValue.object($0.details).serialized } == Self.samples.map { (try? JSONParser().parse($0))!.serialized })
    }
}
