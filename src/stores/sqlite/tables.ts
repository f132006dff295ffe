import { createHash } from "node:crypto";
import type { TableSchema } from "../../spec/source.js";
import type { TableWrite } from "../../spec/store.js";
import { checkTableWrite, ROW_ID_COLUMN, visibleColumns } from "../table-schema.js";
import type { StoreContext } from "./context.js";
import { bumpDataVersion } from "./data-version.js";

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Internal SQL name of a table: `tbl__<tenant>__<name>`, sanitised, with a hash against collisions. */
export function internalTableName(tenant: string, name: string): string {
  const clean = (s: string) => s.replace(/[^A-Za-z0-9_]/g, "_").slice(0, 40);
  const hash = createHash("sha256").update(`${tenant}\u0000${name}`).digest("hex").slice(0, 8);
  return `tbl__${clean(tenant)}__${clean(name)}__${hash}`;
}

export function createTableSql(name: string, schema: TableSchema): string {
  const columns = visibleColumns(schema).map((column) => `${quoteIdent(column.name)} ${column.type}`);
  return `CREATE TABLE ${quoteIdent(name)} (${columns.join(", ")})`;
}

/** The name a new table gets: the wanted one, else the first free `<name>_2`, `<name>_3`, ... (case-insensitive). */
function freeName(ctx: StoreContext, tenant: string, wanted: string): string {
  const taken = ctx.stmt("SELECT 1 FROM table_sources WHERE tenant = ? AND lower(name) = lower(?)");
  if (taken.get(tenant, wanted) === undefined) return wanted;
  for (let n = 2; ; n++) {
    const candidate = `${wanted}_${n}`;
    if (taken.get(tenant, candidate) === undefined) return candidate;
  }
}

/**
 * Creates or replaces one file's SQL table and fills it, in one transaction; returns its name. A file written
 * again keeps the name it has; a new one gets the wanted name or, when taken in the tenant, the first free suffix.
 */
export function writeTable(ctx: StoreContext, table: TableWrite): { name: string } {
  ctx.assertWritable("write a table");
  checkTableWrite(table, /^sqlite_/i);
  const columns = table.schema.columns.map((column) => column.name);
  return ctx.db
    .transaction(() => {
      const existing = ctx
        .stmt("SELECT name, sql_name FROM table_sources WHERE tenant = ? AND source = ? AND file = ?")
        .get(table.tenant, table.source, table.file) as { name: string; sql_name: string } | undefined;
      const name = existing?.name ?? freeName(ctx, table.tenant, table.schema.name);
      const sqlName = existing?.sql_name ?? internalTableName(table.tenant, name);
      const schema: TableSchema = { ...table.schema, name };
      ctx.db.exec(`DROP TABLE IF EXISTS ${quoteIdent(sqlName)}`);
      ctx.db.exec(createTableSql(sqlName, schema));
      const insert = ctx.db.prepare(
        `INSERT INTO ${quoteIdent(sqlName)} VALUES (${[...columns, ROW_ID_COLUMN].map(() => "?").join(", ")})`,
      );
      for (const row of table.rows) {
        const values = columns.map((column) => row[column] ?? null);
        insert.run(...values, `${table.file}#${row[schema.primaryKey] ?? ""}`);
      }
      ctx
        .stmt(
          `INSERT INTO table_sources (tenant, name, source, file, sql_name, schema) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (tenant, name) DO UPDATE SET schema = excluded.schema`,
        )
        .run(table.tenant, name, table.source, table.file, sqlName, JSON.stringify(schema));
      ctx.bump("tables_version");
      bumpDataVersion(ctx, table.tenant);
      return { name };
    })
    .immediate();
}

export interface RegisteredTable {
  /** The SQL name queries use. */
  name: string;
  source: string;
  sqlName: string;
  schema: TableSchema;
}

export function parseTableRow(row: {
  name: string;
  source: string;
  sql_name: string;
  schema: string;
}): RegisteredTable {
  return { name: row.name, source: row.source, sqlName: row.sql_name, schema: JSON.parse(row.schema) as TableSchema };
}

/**
 * Drops the SQL tables of a source (all of them, or those whose file is not in `keep`) with their registration,
 * inside the caller's transaction. Returns how many were dropped.
 */
export function dropTables(ctx: StoreContext, options: { tenant: string; source: string; keep?: string[] }): number {
  const rows = ctx
    .stmt("SELECT name, file, sql_name FROM table_sources WHERE tenant = ? AND source = ?")
    .all(options.tenant, options.source) as { name: string; file: string; sql_name: string }[];
  const keep = new Set(options.keep ?? []);
  const gone = rows.filter((row) => !keep.has(row.file));
  for (const row of gone) {
    ctx.db.exec(`DROP TABLE IF EXISTS ${quoteIdent(row.sql_name)}`);
    ctx.stmt("DELETE FROM table_sources WHERE tenant = ? AND name = ?").run(options.tenant, row.name);
  }
  if (gone.length > 0) {
    ctx.bump("tables_version");
    bumpDataVersion(ctx, options.tenant);
  }
  return gone.length;
}

/** Drops the source's tables whose file is not in `keep`, in one transaction. */
export function removeTables(ctx: StoreContext, options: { tenant: string; source: string; keep: string[] }): void {
  ctx.assertWritable("remove tables");
  ctx.db.transaction(() => dropTables(ctx, options)).immediate();
}
