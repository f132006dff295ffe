export { createSqliteStore, DEFAULT_HNSW_THRESHOLD, SqliteStore, type SqliteStoreOptions } from "./sqlite/index.js";
