/** The SQL dialect interface each adapter implements (`TableStoreV1.sqlDialect`); it lives in the spec. */
export type { SqlDialect } from "../spec/sql-dialect.js";
