import pg from "pg";
import {
  FerretError,
  InvalidInputError,
  StoreBusyError,
  StoreConstraintError,
  StoreError,
  StoreFullError,
  StoreReadOnlyError,
} from "../../spec/errors.js";
import type { Principal } from "../../spec/principal.js";

/** A parameter list that hands out `$n` placeholders, so fragments can be built in any order. */
export class Params {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * A string as a quoted SQL literal, the one way ferret writes a value into a statement: the driver's
 * `escapeLiteral` (quotes doubled; where there is a backslash, backslashes doubled in an `E''` literal). A NUL
 * character is refused (InvalidInputError): PostgreSQL's text cannot hold it, and a query string ends at it, so
 * the statement would be cut short there.
 */
export function quoteLiteral(value: string): string {
  if (value.includes("\0")) {
    throw new InvalidInputError(
      "A value written into a PostgreSQL statement contains a NUL character (U+0000), which PostgreSQL text cannot hold.",
      { field: "SQL literal", at: value.indexOf("\0") },
    );
  }
  return pg.escapeLiteral(value);
}

/**
 * A value as a quoted SQL literal (`quoteLiteral`), which PostgreSQL types from its context as it types a
 * parameter (strings, finite numbers and arrays of strings: what the search filters and the scope pass).
 */
export function sqlLiteral(value: unknown): string {
  if (typeof value === "string") return quoteLiteral(value);
  if (typeof value === "number" && Number.isFinite(value)) return quoteLiteral(String(value));
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) {
    const items = value.map((v) => `"${v.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`);
    return quoteLiteral(`{${items.join(",")}}`);
  }
  throw new TypeError(`no SQL literal for ${typeof value}`);
}

/**
 * Params that write each value into the statement as a quoted literal (`sqlLiteral`), for statements sent
 * together in one simple query, which takes no parameters.
 */
export class Literals extends Params {
  override add(value: unknown): string {
    return sqlLiteral(value);
  }
}

/**
 * What the row-level-security policies read for one transaction: the tenant whose rows are visible, the
 * roles that ACLs are checked against (`*` sees every ACL), or every tenant (listing tenants, migrations).
 */
export interface Scope {
  tenant?: string;
  roles?: readonly string[];
  allTenants?: boolean;
}

/** The scope of a principal's reads. */
export function principalScope(principal: Principal): Scope {
  return { tenant: principal.tenant, roles: principal.roles };
}

/** The scope of writes for a tenant: every ACL, that tenant only. */
export function writeScope(tenant: string): Scope {
  return { tenant, roles: ["*"] };
}

const INT8 = 20;
const NUMERIC = 1700;

/** Counts and sums come back as numbers (not strings) while they are exact in a double; else as text. */
const types = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === INT8 || oid === NUMERIC) {
      return (value: string) => {
        const n = Number(value);
        return Number.isFinite(n) && (oid === NUMERIC || Number.isSafeInteger(n)) ? n : value;
      };
    }
    return pg.types.getTypeParser(oid, format as "text");
  },
};

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "the PostgreSQL server";
  }
}

export interface PgDbOptions {
  url: string;
  /** Most pooled connections. */
  max: number;
  /** Role every pooled connection switches to (the owner of the tables, bound by FORCE ROW LEVEL SECURITY). */
  appRole?: string;
}

/** The pool, the per-transaction scope and the mapping of driver errors to typed store errors. */
export class PgDb {
  readonly pool: pg.Pool;
  readonly url: string;
  appRole: string | undefined;

  constructor(options: PgDbOptions) {
    this.url = options.url;
    this.appRole = options.appRole;
    this.pool = new pg.Pool({ connectionString: options.url, max: options.max, types });
    // An idle client that errors (the server went away) must not crash the process.
    this.pool.on("error", () => {});
    this.pool.on("connect", (client) => {
      client.on("notice", () => {});
      const role = this.appRole === undefined ? "" : `SET ROLE ${quoteIdent(this.appRole)}; `;
      client.query(`${role}SET search_path = ferret, public`).catch(() => {});
    });
  }

  /** A pooled connection; a failure to get one is a typed store error naming `operation`. */
  private async connect(operation: string): Promise<pg.PoolClient> {
    try {
      return await this.pool.connect();
    } catch (error) {
      throw toStoreError(error, { operation, url: this.url });
    }
  }

  /** Runs `fn` in one transaction whose RLS settings are `scope`; rolls back on any error. */
  async tx<T>(operation: string, scope: Scope, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    // BEGIN and the scope in one round trip (a simple query of two statements): a keyword search is a
    // handful of short statements, and each round trip costs as much as one of them on a loaded machine.
    const begin = `BEGIN; ${scopeStatement(scope)}`;
    const client = await this.connect(operation);
    let broken = false;
    try {
      await client.query(begin);
      const out = await fn(client);
      await client.query("COMMIT");
      return out;
    } catch (error) {
      try {
        await client.query("ROLLBACK");
      } catch {
        broken = true;
      }
      throw toStoreError(error, { operation, url: this.url });
    } finally {
      client.release(broken);
    }
  }

  /**
   * Runs `sql` (statements separated by semicolons, values written as literals, see `Literals`) after the
   * statement of `scope`, as one simple query: one round trip and one implicit transaction, so the scope's
   * settings hold for every statement and end with them. Returns each of `sql`'s statements' results.
   */
  async once(operation: string, scope: Scope, sql: string): Promise<pg.QueryResult[]> {
    const statements = `${scopeStatement(scope)}; ${sql}`;
    return this.call(operation, async (client) => {
      const results = (await client.query(statements)) as unknown as pg.QueryResult | pg.QueryResult[];
      return Array.isArray(results) ? results.slice(1) : [];
    });
  }

  /**
   * Runs `fn` on a pooled connection outside any transaction block: each statement it sends is its own
   * transaction, so it must set its own scope (as `ferret.keyword_top` does). One round trip where `tx` takes
   * three for a single statement.
   */
  async call<T>(operation: string, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.connect(operation);
    // A failed statement rolled its own transaction back; a connection that failed without a server error
    // (no SQLSTATE: it broke) is not returned to the pool.
    let broken = false;
    try {
      return await fn(client);
    } catch (error) {
      broken =
        typeof (error as { code?: unknown }).code !== "string" || CONNECTION.has((error as { code: string }).code);
      throw toStoreError(error, { operation, url: this.url });
    } finally {
      client.release(broken);
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

/**
 * The statement that sets the per-transaction settings the RLS policies read, its values as literals
 * (`quoteLiteral`), so it can follow BEGIN in one simple query. Same settings and texts as `setScope`.
 */
export function scopeStatement(scope: Scope): string {
  const roles = `ARRAY[${(scope.roles ?? []).map(quoteLiteral).join(", ")}]::text[]::text`;
  return `SELECT set_config('ferret.tenant', ${quoteLiteral(scope.tenant ?? "")}, true), set_config('ferret.roles', ${roles}, true), set_config('ferret.all_tenants', ${quoteLiteral(scope.allTenants ? "on" : "off")}, true)`;
}

/** Sets the per-transaction settings the RLS policies read (see `schema.ts`). */
export async function setScope(client: pg.ClientBase, scope: Scope): Promise<void> {
  await client.query(
    // The driver writes the roles as an array literal (quoting each); the policies cast it back to text[].
    "SELECT set_config('ferret.tenant', $1, true), set_config('ferret.roles', $2::text[]::text, true), set_config('ferret.all_tenants', $3, true)",
    [scope.tenant ?? "", [...(scope.roles ?? [])], scope.allTenants ? "on" : "off"],
  );
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

const BUSY = new Set(["40001", "40P01", "55P03", "57P03", "53300"]);
const CONNECTION = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "ETIMEDOUT", "EHOSTUNREACH"]);

/** A driver failure as a typed store error naming the operation; ferret errors pass through. */
export function toStoreError(error: unknown, where: { operation: string; url?: string }): Error {
  if (error instanceof FerretError) return error;
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const context = { code, operation: where.operation };
  const text = `Cannot ${where.operation}: ${message}`;
  if (typeof code === "string") {
    if (CONNECTION.has(code)) {
      return new StoreError(
        `Cannot ${where.operation}: ${where.url ? redactUrl(where.url) : "the PostgreSQL server"} is not reachable (${code}).`,
        error,
        context,
      );
    }
    if (BUSY.has(code)) return new StoreBusyError(text, error, context);
    if (code === "53100" || code === "53200") return new StoreFullError(text, error, context);
    if (code === "25006") return new StoreReadOnlyError(text, error, context);
    if (code.startsWith("23")) return new StoreConstraintError(text, error, context);
  }
  return new StoreError(text, error, context);
}
