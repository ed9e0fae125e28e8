#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer; Swift cannot import it.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

// sqlite3_config is variadic, which Swift cannot call. SQLITE_CONFIG_MEMSTATUS: whether every
// allocation is counted for sqlite3_status (each count takes SQLite's global memory mutex).
static inline int csqlite_config_memstatus(int enabled) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, enabled); }
