import CSQLite

/// Process-wide settings of the SQLite library, applied once before the first connection opens
/// (`sqlite3_config` is refused once the library is initialised, "Configuring The SQLite Library").
enum SQLiteLibrary {
    /// Memory statistics off (`SQLITE_CONFIG_MEMSTATUS`): with them on, every SQLite allocation
    /// takes one global mutex to count itself, which serialises the reader connections of the
    /// pool on every row (the distribution's library keeps them on and has no lookaside). The
    /// gateway reads no `sqlite3_status` figure. Decision 113.
    ///
    /// Sub-journals kept in memory up to `subJournalSpillBytes` (`SQLITE_CONFIG_STMTJRNL_SPILL`,
    /// 64 KiB by default). Each unit of a group commit runs in a savepoint (decision 109), whose
    /// sub-journal holds the first image of every page the unit changes; an ingested event
    /// changes about 15 pages, so at the default most groups spilled: a temporary file created,
    /// written page by page and unlinked, about 70% of the writer's `pwrite`s. In memory the
    /// sub-journal is emptied at each `RELEASE`, so it holds one unit's pages at most; a unit
    /// larger than the bound (a whole print list) still spills. Decision 129.
    static let configured: Bool = csqlite_config_memstatus(0) == SQLITE_OK
        && csqlite_config_stmtjrnl_spill(subJournalSpillBytes) == SQLITE_OK

    /// 512 pages of 4 KiB: one writer connection holds it at most.
    static let subJournalSpillBytes: Int32 = 2 << 20
}
