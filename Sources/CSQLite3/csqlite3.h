#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift cannot import: these wrappers make SQLite copy the bytes,
// so Swift buffers may be freed as soon as the bind returns.
static inline int csqlite3_bind_text(sqlite3_stmt *stmt, int index, const char *text, int length) {
    return sqlite3_bind_text(stmt, index, text, length, SQLITE_TRANSIENT);
}
static inline int csqlite3_bind_blob(sqlite3_stmt *stmt, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(stmt, index, bytes, length, SQLITE_TRANSIENT);
}
