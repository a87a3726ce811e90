#ifndef C_SQLITE_SHIMS_H
#define C_SQLITE_SHIMS_H

/// Makes closing `connection` (a `sqlite3 *`) leave the write-ahead log as it is instead of checkpointing
/// it into the database and deleting it (`SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE`; `sqlite3_db_config` is
/// variadic, which Swift cannot call). Returns SQLite's result code.
int coffer_sqlite_keep_wal_on_close(void *connection);

#endif
