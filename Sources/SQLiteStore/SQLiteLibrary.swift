import CSQLite

/// Process-wide settings of the SQLite library, applied once before the first connection opens
/// (`sqlite3_config` is refused once the library is initialised, "Configuring The SQLite Library").
enum SQLiteLibrary {
    /// Memory statistics off (`SQLITE_CONFIG_MEMSTATUS`): with them on, every SQLite allocation
    /// takes one global mutex to count itself, which serialises the reader connections of the
    /// pool on every row (the distribution's library keeps them on and has no lookaside). The
    /// gateway reads no `sqlite3_status` figure. Decision 113.
    ///
    /// The sub-journals' spill (`SQLITE_CONFIG_STMTJRNL_SPILL`) stays SQLite's 64 KiB, although in
    /// a Stripe ingest run most of group commit's `pwrite`s went to the temporary files it spills
    /// to: raised to 256 KiB, spilling failed with `SQLITE_FULL` on a disk with room (decision 129).
    static let configured: Bool = csqlite_config_memstatus(0) == SQLITE_OK
}
