#include <libpq-fe.h>

// libpq prints server notices (e.g. "relation already exists, skipping") to stderr by default;
// the store keeps its own log, so notices are dropped.
static inline void clibpq_ignore_notice(void *arg, const PGresult *res) { (void)arg; (void)res; }
static inline void clibpq_silence_notices(PGconn *conn) {
    PQsetNoticeReceiver(conn, clibpq_ignore_notice, 0);
}

// PG_DIAG_SQLSTATE is a character macro Swift does not import.
static inline const char *clibpq_sqlstate(const PGresult *res) {
    return res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : 0;
}
