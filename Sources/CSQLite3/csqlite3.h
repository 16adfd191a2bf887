#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift cannot import: these wrappers make SQLite copy the bytes,
// so Swift buffers may be freed as soon as the bind returns.
static inline int csqlite3_bind_text(sqlite3_stmt *stmt, int index, const char *text, int length) {
    return sqlite3_bind_text(stmt, index, text, length, SQLITE_TRANSIENT);
}
static inline int csqlite3_bind_blob(sqlite3_stmt *stmt, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(stmt, index, bytes, length, SQLITE_TRANSIENT);
}

// sqlite3_db_config is variadic, which Swift cannot call. With `on`, closing the last connection
// leaves the write-ahead log to the next checkpoint instead of copying it into the database then.
static inline int csqlite3_no_checkpoint_on_close(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, on, (int *)0);
}
