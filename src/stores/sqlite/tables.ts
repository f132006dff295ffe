import { createHash } from "node:crypto";
import { InvalidInputError } from "../../spec/errors.js";
import type { TableColumn, TableSchema } from "../../spec/source.js";
import type { TableWrite } from "../../spec/store.js";
import type { StoreContext } from "./context.js";

/** Column every table gets: `<path>#<primary key value>`, the row's citable id (path: the source's, else its name). */
export const ROW_ID_COLUMN = "_id";

const TYPES = new Set(["TEXT", "INTEGER", "REAL"]);

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Internal SQL name of a table source: `tbl__<tenant>__<source>`, sanitised, with a hash against collisions. */
export function internalTableName(tenant: string, source: string): string {
  const clean = (s: string) => s.replace(/[^A-Za-z0-9_]/g, "_").slice(0, 40);
  const hash = createHash("sha256").update(`${tenant}\u0000${source}`).digest("hex").slice(0, 8);
  return `tbl__${clean(tenant)}__${clean(source)}__${hash}`;
}

/** The columns queries see: the schema's, then `_id`. */
export function visibleColumns(schema: TableSchema): TableColumn[] {
  return [...schema.columns, { name: ROW_ID_COLUMN, type: "TEXT" }];
}

export function createTableSql(name: string, schema: TableSchema): string {
  const columns = visibleColumns(schema).map((column) => `${quoteIdent(column.name)} ${column.type}`);
  return `CREATE TABLE ${quoteIdent(name)} (${columns.join(", ")})`;
}

function validate(table: TableWrite): void {
  const { schema } = table;
  const names = new Set<string>();
  for (const column of schema.columns) {
    if (!TYPES.has(column.type)) {
      throw new InvalidInputError(`Column ${column.name} of table ${table.source} has unknown type ${column.type}.`, {
        field: column.name,
      });
    }
    const lower = column.name.toLowerCase();
    if (lower === ROW_ID_COLUMN || names.has(lower) || column.name.length === 0) {
      throw new InvalidInputError(
        `Table ${table.source} has a duplicate, empty or reserved column name "${column.name}".`,
        {
          field: column.name,
        },
      );
    }
    names.add(lower);
  }
  if (!schema.columns.some((column) => column.name === schema.primaryKey)) {
    throw new InvalidInputError(`Table ${table.source}: primary key ${schema.primaryKey} is not one of its columns.`, {
      field: schema.primaryKey,
    });
  }
}

/** Creates or replaces the SQL table of a table source and fills it, in one transaction. */
export function writeTable(ctx: StoreContext, table: TableWrite): void {
  ctx.assertWritable("write a table");
  validate(table);
  const schema: TableSchema = { ...table.schema, name: table.source };
  const sqlName = internalTableName(table.tenant, table.source);
  const source = ctx.stmt("SELECT path FROM sources WHERE tenant = ? AND name = ?").get(table.tenant, table.source) as
    | { path: string | null }
    | undefined;
  const idPrefix = source?.path ?? table.source;
  const columns = schema.columns.map((column) => column.name);
  ctx.db
    .transaction(() => {
      ctx.db.exec(`DROP TABLE IF EXISTS ${quoteIdent(sqlName)}`);
      ctx.db.exec(createTableSql(sqlName, schema));
      const insert = ctx.db.prepare(
        `INSERT INTO ${quoteIdent(sqlName)} VALUES (${[...columns, ROW_ID_COLUMN].map(() => "?").join(", ")})`,
      );
      for (const row of table.rows) {
        const values = columns.map((name) => row[name] ?? null);
        insert.run(...values, `${idPrefix}#${row[schema.primaryKey] ?? ""}`);
      }
      ctx
        .stmt(
          `INSERT INTO table_sources (tenant, source, sql_name, schema) VALUES (?, ?, ?, ?)
           ON CONFLICT (tenant, source) DO UPDATE SET sql_name = excluded.sql_name, schema = excluded.schema`,
        )
        .run(table.tenant, table.source, sqlName, JSON.stringify(schema));
      ctx.bump("tables_version");
    })
    .immediate();
}

export interface RegisteredTable {
  source: string;
  sqlName: string;
  schema: TableSchema;
}

export function parseTableRow(row: { source: string; sql_name: string; schema: string }): RegisteredTable {
  return { source: row.source, sqlName: row.sql_name, schema: JSON.parse(row.schema) as TableSchema };
}

/** Drops a table source's SQL table and registration (inside the caller's transaction). */
export function dropTable(ctx: StoreContext, tenant: string, source: string): void {
  const row = ctx.stmt("SELECT sql_name FROM table_sources WHERE tenant = ? AND source = ?").get(tenant, source) as
    | { sql_name: string }
    | undefined;
  if (!row) return;
  ctx.db.exec(`DROP TABLE IF EXISTS ${quoteIdent(row.sql_name)}`);
  ctx.stmt("DELETE FROM table_sources WHERE tenant = ? AND source = ?").run(tenant, source);
  ctx.bump("tables_version");
}
