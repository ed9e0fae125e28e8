import Testing
import GatewayStore
import Wire

/// The query value written once: interpolated values become parameters, rendered per dialect.
@Suite struct SQLRenderingTests {
    @Test func interpolatedValuesBecomeParametersOfEachDialect() {
        let id = "p1'; DROP TABLE issues; --"
        let query: SQL = "SELECT title FROM issues WHERE publication_id = \(id) AND published_at <= \(Instant(millisecondsSinceEpoch: 5))"
        #expect(query.text(for: .sqlite) == "SELECT title FROM issues WHERE publication_id = ? AND published_at <= ?")
        #expect(query.text(for: .postgres) == "SELECT title FROM issues WHERE publication_id = $1 AND published_at <= $2")
        #expect(query.values == [.text(id), .integer(5)])
    }

    @Test func optionalsBindNullAndBooleansStayBooleans() {
        let missing: String? = nil
        let present: Int? = 7
        let query: SQL = "VALUES (\(missing), \(present), \(true))"
        #expect(query.values == [.null, .integer(7), .boolean(true)])
        #expect(query.text(for: .postgres) == "VALUES ($1, $2, $3)")
    }

    @Test func composedFragmentsKeepTheirParametersInOrder() {
        let key: SQL = "environment = \("Sandbox") AND original_transaction_id = \("1000")"
        let query: SQL = "SELECT 1 FROM owners WHERE account_id = \("a1") AND \(key) LIMIT \(3)"
        #expect(query.text(for: .sqlite) == "SELECT 1 FROM owners WHERE account_id = ? AND environment = ? AND original_transaction_id = ? LIMIT ?")
        #expect(query.values == [.text("a1"), .text("Sandbox"), .text("1000"), .integer(3)])
        #expect((key + " ORDER BY \(literal: "bound_at")").text(for: .postgres)
                == "environment = $1 AND original_transaction_id = $2 ORDER BY bound_at")
    }

    /// `upsert` keeps each shape's text: every call has its own values, and another shape on the
    /// same table (other columns, or `onlyWhenChanged`) its own text.
    @Test func upsertsOfOneShapeShareTheirTextAndKeepTheirValues() {
        func save(_ id: String, _ title: String?, changedOnly: Bool = false) -> SQL {
            .upsert(into: "publications", key: ["id": id], set: ["title": title, "position": 2], onlyWhenChanged: changedOnly)
        }
        let text = """
            INSERT INTO publications (id, title, position) VALUES ($1, $2, $3)
            ON CONFLICT (id) DO UPDATE SET title = excluded.title, position = excluded.position
            """
        for (id, title) in [("p1", "One"), ("p2", nil)] {
            let query = save(id, title)
            #expect(query.text(for: .postgres) == text)
            #expect(query.values == [.text(id), title.map { .text($0) } ?? .null, .integer(2)])
        }
        #expect(save("p3", "Three", changedOnly: true).text(for: .postgres) == text + """

            WHERE publications.title IS DISTINCT FROM excluded.title OR publications.position IS DISTINCT FROM excluded.position
            """)
        let titleOnly: SQL = .upsert(into: "publications", key: ["id": "p4"], set: ["title": "Four"])
        #expect(titleOnly.text(for: .sqlite) == """
            INSERT INTO publications (id, title) VALUES (?, ?)
            ON CONFLICT (id) DO UPDATE SET title = excluded.title
            """)
        #expect(titleOnly.values == [.text("p4"), .text("Four")])
    }

    @Test func aQuestionMarkInTheGatewaysOwnTextIsNoPostgreSQLPlaceholder() {
        let query: SQL = "SELECT '?' || \(raw: "'??'") || \("a") || '?'"
        #expect(query.text(for: .postgres) == "SELECT '?' || '??' || $1 || '?'")
        #expect(query.text(for: .sqlite) == "SELECT '?' || '??' || ? || '?'")
    }

    @Test func literalAndRawTextAreNotParameters() {
        let query: SQL = "SELECT \(raw: "id, title") FROM \(literal: "publications")"
        #expect(query.values.isEmpty)
        #expect(query.text(for: .sqlite) == "SELECT id, title FROM publications")
    }

    @Test func joinedFragmentsNumberAcrossTheList() {
        let row: [String?] = ["a", nil, "c"]
        let query: SQL = "VALUES (\(SQL.joined(row.map { value -> SQL in "\(value)" })))"
        #expect(query.text(for: .postgres) == "VALUES ($1, $2, $3)")
        #expect(query.values == [.text("a"), .null, .text("c")])
    }

    @Test func aSharedMigrationIsSpelledPerDialect() {
        let step: SharedMigration = """
            CREATE TABLE t (id \(.serialPrimaryKey), key \(.key) NOT NULL, on_sale \(.boolean) NOT NULL DEFAULT FALSE,
                at \(.instant))\(.tableOptions);
            """
        #expect(step.sql(for: .sqlite) == """
            CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL, on_sale INTEGER NOT NULL DEFAULT FALSE,
                at INTEGER) STRICT;
            """)
        #expect(step.sql(for: .postgres) == """
            CREATE TABLE t (id BIGSERIAL PRIMARY KEY, key TEXT COLLATE "C" NOT NULL, on_sale BOOLEAN NOT NULL DEFAULT FALSE,
                at BIGINT);
            """)
    }
}

extension SQLRenderingTests {
    @Test func anUpsertNamesEachColumnOnceBesideItsValue() {
        let note: String? = nil
        let query = SQL.upsert(into: "grants_note", key: ["grant_id": "g1"], set: ["note": note, "revoked": false])
        #expect(query.text(for: .sqlite) == """
            INSERT INTO grants_note (grant_id, note, revoked) VALUES (?, ?, ?)
            ON CONFLICT (grant_id) DO UPDATE SET note = excluded.note, revoked = excluded.revoked
            """)
        #expect(query.values == [.text("g1"), .null, .boolean(false)])
    }
}

extension SQLRenderingTests {
    @Test func aRebuiltTableTakesTheKeptColumnsUnderItsNewKey() {
        let step = SharedMigration.rebuild("t", adding: [("store", "\(.key) NOT NULL DEFAULT 'appStore'")],
                                           keeping: [("id", "\(.key) NOT NULL"), ("at", "\(.instant)")],
                                           primaryKey: ["store", "id"])
        let copy = """
            INSERT INTO t_rebuilt (id, at) SELECT id, at FROM t;
            DROP TABLE t;
            ALTER TABLE t_rebuilt RENAME TO t;

            """
        #expect(step.sql(for: .sqlite) == """
            CREATE TABLE t_rebuilt (store TEXT NOT NULL DEFAULT 'appStore', id TEXT NOT NULL, at INTEGER, \
            PRIMARY KEY (store, id)) STRICT;

            """ + copy)
        #expect(step.sql(for: .postgres) == """
            CREATE TABLE t_rebuilt (store TEXT COLLATE "C" NOT NULL DEFAULT 'appStore', id TEXT COLLATE "C" NOT NULL, \
            at BIGINT, PRIMARY KEY (store, id));

            """ + copy)
    }
}
