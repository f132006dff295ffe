import { createHash } from "node:crypto";
import pg from "pg";
import { SqlInvalidError, SqlRejectedError, SqlTimeoutError, StoreError } from "../../spec/errors.js";
import type { Principal } from "../../spec/principal.js";
import type { TableSchema } from "../../spec/source.js";
import type { SqlQueryOptions, SqlResult, TableWrite } from "../../spec/store.js";
import { checkTableWrite, visibleColumns } from "../table-schema.js";
import { Params, type PgDb, principalScope, quoteIdent, setScope, toStoreError } from "./db.js";
import { bumpDataVersion } from "./documents.js";
import { sourceAllowed } from "./filters.js";

export const DEFAULT_SQL_ROWS = 200;
export const DEFAULT_SQL_TIMEOUT_MS = 5000;
/** Longest text value returned by querySql; longer ones are clipped and counted. */
const MAX_CELL_CHARS = 10_000;
/** Result size (characters of JSON) past which no more rows are fetched. */
const MAX_RESULT_CHARS = 4 * 1024 * 1024;
const FETCH_BATCH = 1000;

const PG_TYPES: Record<string, string> = { TEXT: "text", INTEGER: "bigint", REAL: "double precision" };

/** The schema holding a tenant's tables: sanitised tenant name plus a hash against collisions. */
export function tenantSchema(tenant: string): string {
  const clean = tenant
    .replace(/[^A-Za-z0-9_]/g, "_")
    .slice(0, 30)
    .toLowerCase();
  const hash = createHash("sha256").update(tenant).digest("hex").slice(0, 8);
  return `ferret_t_${clean}_${hash}`;
}

/** The real table's name inside the tenant schema (short and plain; the name queries use is `name`). */
function internalName(name: string): string {
  const clean = name
    .replace(/[^A-Za-z0-9_]/g, "_")
    .slice(0, 40)
    .toLowerCase();
  const hash = createHash("sha256").update(name).digest("hex").slice(0, 8);
  return `t_${clean}_${hash}`;
}

async function freeName(client: pg.ClientBase, tenant: string, wanted: string): Promise<string> {
  const taken = await client.query<{ name: string }>(
    "SELECT lower(name) AS name FROM table_sources WHERE tenant = $1 AND lower(name) LIKE lower($2) || '%'",
    [tenant, wanted.replace(/[\\%_]/g, (c) => `\\${c}`)],
  );
  const names = new Set(taken.rows.map((row) => row.name));
  if (!names.has(wanted.toLowerCase())) return wanted;
  for (let n = 2; ; n++) {
    const candidate = `${wanted}_${n}`;
    if (!names.has(candidate.toLowerCase())) return candidate;
  }
}

/** Rows per INSERT statement (PostgreSQL takes at most 65,535 parameters). */
const INSERT_BATCH = 500;

/** Creates or replaces one file's table in the tenant's schema and fills it, in the caller's transaction. */
export async function writeTable(client: pg.ClientBase, table: TableWrite): Promise<{ name: string }> {
  checkTableWrite(table, /^(sqlite_|pg_)/i);
  const schemaName = tenantSchema(table.tenant);
  // Writers of one tenant's tables take turns, so two never pick the same free name (nor race to create the
  // schema: IF NOT EXISTS does not make concurrent creates safe).
  await client.query("SELECT pg_advisory_xact_lock(hashtext('ferret.tables:' || $1))", [table.tenant]);
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schemaName)}`);
  const existing = (
    await client.query<{ name: string; sql_name: string }>(
      "SELECT name, sql_name FROM table_sources WHERE tenant = $1 AND source = $2 AND file = $3",
      [table.tenant, table.source, table.file],
    )
  ).rows[0];
  const name = existing?.name ?? (await freeName(client, table.tenant, table.schema.name));
  const sqlName = existing?.sql_name ?? internalName(name);
  const schema: TableSchema = { ...table.schema, name };
  const qualified = `${quoteIdent(schemaName)}.${quoteIdent(sqlName)}`;
  const columns = visibleColumns(schema);
  await client.query(`DROP TABLE IF EXISTS ${qualified}`);
  await client.query(
    `CREATE TABLE ${qualified} (${columns.map((c) => `${quoteIdent(c.name)} ${PG_TYPES[c.type]}`).join(", ")})`,
  );
  const names = schema.columns.map((c) => c.name);
  const width = names.length + 1;
  const perBatch = Math.max(1, Math.floor(Math.min(INSERT_BATCH, 60_000 / width)));
  for (let at = 0; at < table.rows.length; at += perBatch) {
    const p = new Params();
    const tuples = table.rows.slice(at, at + perBatch).map((row) => {
      const values = schema.columns.map((c) => p.add(cell(row[c.name], c.type)));
      values.push(p.add(`${table.file}#${row[schema.primaryKey] ?? ""}`));
      return `(${values.join(", ")})`;
    });
    await client.query(`INSERT INTO ${qualified} VALUES ${tuples.join(", ")}`, p.values);
  }
  await client.query(
    `INSERT INTO table_sources (tenant, name, source, file, schema_name, sql_name, schema)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (tenant, name) DO UPDATE SET schema = excluded.schema`,
    [table.tenant, name, table.source, table.file, schemaName, sqlName, JSON.stringify(schema)],
  );
  await bumpDataVersion(client, table.tenant);
  return { name };
}

/** A CSV value as its column type takes it: a number that does not fit the type is stored as NULL. */
function cell(value: string | number | null | undefined, type: string): string | number | null {
  if (value === null || value === undefined) return null;
  if (type === "TEXT") return String(value);
  const n = typeof value === "number" ? value : Number(value);
  if (!Number.isFinite(n)) return null;
  if (type === "INTEGER") return Number.isSafeInteger(n) ? n : null;
  return n;
}

/** Drops the source's tables (all, or those whose file is not in `keep`) with their registration. */
export async function dropTables(
  client: pg.ClientBase,
  options: { tenant: string; source: string; keep?: string[] },
): Promise<number> {
  const rows = (
    await client.query<{ name: string; file: string; schema_name: string; sql_name: string }>(
      "SELECT name, file, schema_name, sql_name FROM table_sources WHERE tenant = $1 AND source = $2",
      [options.tenant, options.source],
    )
  ).rows;
  const keep = new Set(options.keep ?? []);
  const gone = rows.filter((row) => !keep.has(row.file));
  for (const row of gone) {
    await client.query(`DROP TABLE IF EXISTS ${quoteIdent(row.schema_name)}.${quoteIdent(row.sql_name)}`);
    await client.query("DELETE FROM table_sources WHERE tenant = $1 AND name = $2", [options.tenant, row.name]);
  }
  if (gone.length > 0) await bumpDataVersion(client, options.tenant);
  return gone.length;
}

/**
 * The statement without comments and a trailing semicolon, or a rejection: one statement that starts as a
 * query (SELECT, WITH, VALUES, TABLE or a parenthesis). Literals, quoted names and dollar quotes are skipped
 * in one pass over the text.
 */
export function checkStatement(sql: string): string {
  let i = 0;
  let out = "";
  let ended = false;
  const n = sql.length;
  while (i < n) {
    const ch = sql[i] as string;
    const next = sql[i + 1];
    let end = i + 1;
    if (ch === "-" && next === "-") {
      const nl = sql.indexOf("\n", i);
      i = nl === -1 ? n : nl + 1;
      out += " ";
      continue;
    }
    if (ch === "/" && next === "*") {
      const close = sql.indexOf("*/", i + 2);
      i = close === -1 ? n : close + 2;
      out += " ";
      continue;
    }
    if (ch === "'" || ch === '"') {
      end = i + 1;
      for (;;) {
        const close = sql.indexOf(ch, end);
        if (close === -1) {
          end = n;
          break;
        }
        if (sql[close + 1] === ch) end = close + 2;
        else {
          end = close + 1;
          break;
        }
      }
    } else if (ch === "$") {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i, i + 64));
      if (tag) {
        const close = sql.indexOf(tag[0], i + tag[0].length);
        end = close === -1 ? n : close + tag[0].length;
      }
    } else if (ch === ";") {
      ended = true;
      i++;
      continue;
    }
    if (ended && sql.slice(i, end).trim() !== "") {
      throw new SqlRejectedError("Only one SQL statement is allowed.", { sql, reason: "multiple_statements" });
    }
    out += sql.slice(i, end);
    i = end;
  }
  const statement = out.trim();
  if (statement === "") throw new SqlRejectedError("The SQL is empty.", { sql, reason: "empty" });
  const first = /^\(*\s*([A-Za-z]+)/.exec(statement)?.[1]?.toUpperCase();
  if (first === undefined || !["SELECT", "WITH", "VALUES", "TABLE"].includes(first)) {
    throw new SqlRejectedError(`Only read-only SELECT queries are allowed; ${first ?? "this"} is not.`, {
      sql,
      reason: "not_select",
    });
  }
  return statement;
}

interface PermittedTable {
  name: string;
  schema_name: string;
  sql_name: string;
  schema: TableSchema;
}

/**
 * Read-only SQL over the tables the principal may read: in one transaction, each permitted table gets a
 * temporary view under its own name (so only those are reachable by name), then the transaction turns read
 * only, switches to the restricted role (which may read nothing but those views), sets statement_timeout,
 * and fetches at most maxRows + 1 rows through a cursor. Everything is rolled back at the end.
 */
export async function querySql(
  db: PgDb,
  sqlRole: string | undefined,
  sql: string,
  principal: Principal,
  options: SqlQueryOptions = {},
): Promise<SqlResult> {
  const maxRows = Math.max(1, Math.floor(options.maxRows ?? DEFAULT_SQL_ROWS));
  const timeoutMs = Math.max(1, Math.floor(options.timeoutMs ?? DEFAULT_SQL_TIMEOUT_MS));
  const statement = checkStatement(sql);
  options.signal?.throwIfAborted();
  let client: pg.PoolClient;
  try {
    client = await db.pool.connect();
  } catch (error) {
    throw toStoreError(error, { operation: "query tables", url: db.url });
  }
  let broken = false;
  let tables: PermittedTable[] = [];
  const onAbort = () => void cancelBackend(db.url, pid);
  let pid = 0;
  try {
    pid = (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]?.pid ?? 0;
    await client.query("BEGIN");
    await setScope(client, principalScope(principal));
    const p = new Params();
    const allowed = sourceAllowed(p, "t", principal);
    tables = (
      await client.query<PermittedTable>(
        `SELECT t.name, t.schema_name, t.sql_name, t.schema FROM table_sources AS t
         WHERE t.tenant = ${p.add(principal.tenant)} AND ${allowed}`,
        p.values,
      )
    ).rows;
    for (const table of tables) {
      // Unquoted names fold to lower case in PostgreSQL; names are unique per tenant in any case, so a table
      // is reachable as written (quoted) and unquoted in any case, as in SQLite.
      for (const name of new Set([table.name, table.name.toLowerCase()])) {
        const view = quoteIdent(name);
        await client.query(
          `CREATE TEMPORARY VIEW ${view} AS SELECT * FROM ${quoteIdent(table.schema_name)}.${quoteIdent(table.sql_name)}`,
        );
        if (sqlRole !== undefined) await client.query(`GRANT SELECT ON ${view} TO ${quoteIdent(sqlRole)}`);
      }
    }
    await client.query("SET LOCAL search_path = pg_temp");
    if (sqlRole !== undefined) await client.query(`SET LOCAL ROLE ${quoteIdent(sqlRole)}`);
    await client.query("SET LOCAL transaction_read_only = on");
    options.signal?.addEventListener("abort", onAbort, { once: true });
    options.signal?.throwIfAborted();
    // statement_timeout counts per statement: each FETCH gets what is left of the query's time.
    const deadline = Date.now() + timeoutMs;
    const budget = async () => {
      const left = deadline - Date.now();
      if (left <= 0) throw Object.assign(new Error("statement timeout"), { code: "57014" });
      await client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.ceil(left))}`);
    };
    await budget();
    await client.query({ text: `DECLARE ferret_query NO SCROLL CURSOR FOR ${statement}`, values: [] });
    let columns: string[] = [];
    const values: unknown[][] = [];
    let bytes = 0;
    let truncatedBy: "rows" | "bytes" | undefined;
    // Rows come in batches so the result-size cap stops a query before its rows fill memory.
    for (;;) {
      await budget();
      const want = Math.min(FETCH_BATCH, maxRows + 1 - values.length);
      const fetched = await client.query({ text: `FETCH ${want} FROM ferret_query`, rowMode: "array" });
      columns = fetched.fields.map((f) => f.name);
      for (const row of fetched.rows as unknown[][]) {
        bytes += JSON.stringify(row).length;
        values.push(row);
      }
      if (values.length > maxRows) {
        truncatedBy = "rows";
        break;
      }
      if (bytes > MAX_RESULT_CHARS) {
        truncatedBy = "bytes";
        break;
      }
      if (fetched.rows.length < want) break;
    }
    let clipped = 0;
    const rows = values.slice(0, maxRows).map((cells) => {
      const row: Record<string, unknown> = {};
      columns.forEach((column, i) => {
        let value = cells[i];
        if (typeof value === "string" && value.length > MAX_CELL_CHARS) {
          value = value.slice(0, MAX_CELL_CHARS);
          clipped++;
        }
        row[column] = value;
      });
      return row;
    });
    const out: SqlResult = { columns, rows, truncated: truncatedBy !== undefined };
    if (truncatedBy !== undefined) out.truncatedBy = truncatedBy;
    if (clipped > 0) out.clippedCells = clipped;
    return out;
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw sqlError(error, sql, timeoutMs, tables);
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    try {
      await client.query("ROLLBACK");
    } catch {
      broken = true;
    }
    client.release(broken);
  }
}

/** Cancels a running statement from a separate connection (the pool's may all be busy). */
async function cancelBackend(url: string, pid: number): Promise<void> {
  if (pid === 0) return;
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.query("SELECT pg_cancel_backend($1)", [pid]);
  } catch {
    // The statement ends at its timeout anyway.
  } finally {
    await client.end().catch(() => {});
  }
}

/** A PostgreSQL error of a user's query as the typed error it stands for. */
function sqlError(error: unknown, sql: string, timeoutMs: number, tables: PermittedTable[]): Error {
  if (error instanceof SqlRejectedError || error instanceof StoreError) return error;
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const context = { sql, tables: tables.map((t) => t.name) };
  switch (code) {
    case "57014":
      return new SqlTimeoutError(`The query ran longer than ${timeoutMs} ms and was stopped.`, {
        timeoutMs,
        cause: error,
        context,
      });
    case "42P01": {
      const folded = /relation "(?:[^"]*\.)?([^"]+)" does not exist/.exec(message)?.[1];
      const missing = folded === undefined ? undefined : asWritten(sql, folded);
      return new SqlInvalidError(`No such table${missing ? ` ${missing}` : ""}: ${message}`, {
        reason: "missing_table",
        detail: message,
        ...(missing !== undefined ? { missingTable: missing } : {}),
        cause: error,
        context,
      });
    }
    case "42703": {
      const folded = /column "?(?:[^"\s]*\.)?([^"\s]+)"? does not exist/.exec(message)?.[1];
      const column = folded === undefined ? undefined : asWritten(sql, folded);
      return new SqlInvalidError(`No such column${column ? ` ${column}` : ""}: ${message}`, {
        reason: "missing_column",
        detail: message,
        ...(column !== undefined ? { column } : {}),
        cause: error,
        context,
      });
    }
    case "42601":
      return new SqlInvalidError(`The query does not parse: ${message}`, {
        reason: "syntax",
        detail: message,
        cause: error,
        context,
      });
    case "25006":
    case "42501":
    case "0A000":
      return new SqlRejectedError(`Only read-only SELECT queries over the listed tables are allowed: ${message}`, {
        ...context,
        reason: "not_read_only",
      });
    default:
      if (typeof code === "string" && /^(42|22|21|2F|3F)/.test(code)) {
        return new SqlInvalidError(`The query is not valid: ${message}`, {
          // 42601 is PostgreSQL's syntax_error: the same portable code as SQLite's syntax errors.
          reason: code === "42601" ? "syntax" : "invalid",
          detail: message,
          cause: error,
          context,
        });
      }
      return toStoreError(error, { operation: "run the query" });
  }
}

/** How the query spelled a name PostgreSQL reports folded to lower case (the first spelling found, else as is). */
function asWritten(sql: string, folded: string): string {
  const lower = sql.toLowerCase();
  const wanted = folded.toLowerCase();
  for (let at = lower.indexOf(wanted); at !== -1; at = lower.indexOf(wanted, at + 1)) {
    const before = lower[at - 1] ?? " ";
    const after = lower[at + wanted.length] ?? " ";
    if (!/[\p{L}\p{N}_$]/u.test(before) && !/[\p{L}\p{N}_$]/u.test(after)) return sql.slice(at, at + wanted.length);
  }
  return folded;
}
