import CSQLite

/// Process-wide settings of the SQLite library, applied once before the first connection opens
/// (`sqlite3_config` is refused once the library is initialised, "Configuring The SQLite Library").
enum SQLiteLibrary {
    /// Memory statistics off (`SQLITE_CONFIG_MEMSTATUS`): with them on, every SQLite allocation
    /// takes one global mutex to count itself, which serialises the reader connections of the
    /// pool on every row (the distribution's library keeps them on and has no lookaside). The
    /// gateway reads no `sqlite3_status` figure. Decision 113.
    static let configured: Bool = csqlite_config_memstatus(0) == SQLITE_OK
}
