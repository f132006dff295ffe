/**
 * Defence in depth before a query reaches the store (which runs it read-only in a private copy anyway):
 * exactly one statement, starting with SELECT or WITH, and no keyword that writes, attaches or changes
 * settings outside string literals, quoted identifiers and comments.
 */
import { SqlRejectedError } from "../spec/errors.js";

/** Keywords that never belong in a read-only query. */
const FORBIDDEN = [
  "INSERT",
  "UPDATE",
  "DELETE",
  "DROP",
  "ALTER",
  "CREATE",
  "REPLACE",
  "ATTACH",
  "DETACH",
  "PRAGMA",
  "VACUUM",
  "REINDEX",
  "LOAD_EXTENSION",
] as const;

const FORBIDDEN_RE = new RegExp(`\\b(${FORBIDDEN.join("|")})\\b`, "gi");

/** What the scan sees: literals, quoted identifiers and comments blanked out, same length as the input. */
export function sqlSkeleton(sql: string): string {
  let out = "";
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i] as string;
    const next = sql[i + 1];
    if (ch === "-" && next === "-") {
      const end = sql.indexOf("\n", i);
      const stop = end === -1 ? sql.length : end;
      out += " ".repeat(stop - i);
      i = stop;
    } else if (ch === "/" && next === "*") {
      const end = sql.indexOf("*/", i + 2);
      const stop = end === -1 ? sql.length : end + 2;
      out += " ".repeat(stop - i);
      i = stop;
    } else if (ch === "'" || ch === '"' || ch === "`" || ch === "[") {
      const close = ch === "[" ? "]" : ch;
      let j = i + 1;
      for (;;) {
        if (j >= sql.length) {
          throw rejected(`unterminated ${ch === "'" ? "string literal" : "quoted identifier"} starting at ${i}`, sql, {
            reason: "unterminated",
          });
        }
        if (sql[j] === close) {
          // A doubled quote is an escaped quote inside the literal (not for `[...]`).
          if (close !== "]" && sql[j + 1] === close) {
            j += 2;
            continue;
          }
          break;
        }
        j++;
      }
      out += ch + " ".repeat(j - i - 1) + close;
      i = j + 1;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}

function rejected(message: string, sql: string, context: Record<string, unknown>): SqlRejectedError {
  return new SqlRejectedError(`${message}. Only one read-only SELECT (or WITH ... SELECT) statement is allowed.`, {
    sql,
    ...context,
  });
}

/**
 * Throws SqlRejectedError unless `sql` is one read-only SELECT or WITH statement. Returns the statement
 * trimmed, without a trailing semicolon. The function `replace(...)` is allowed; the statement REPLACE is not.
 */
export function guardSql(sql: string): string {
  const skeleton = sqlSkeleton(sql);
  const body = skeleton.trimEnd();
  const withoutFinal = body.endsWith(";") ? body.slice(0, -1) : body;
  const semicolon = withoutFinal.indexOf(";");
  if (semicolon !== -1) {
    throw rejected("more than one statement: run one query at a time, without ';' between statements", sql, {
      reason: "multiple_statements",
    });
  }
  const first = /^\s*([A-Za-z_]+)/.exec(withoutFinal)?.[1]?.toUpperCase();
  if (first === undefined) throw rejected("the query is empty", sql, { reason: "empty" });
  if (first !== "SELECT" && first !== "WITH") {
    throw rejected(`a query must start with SELECT or WITH, not ${first}`, sql, { reason: "not_select" });
  }
  for (const match of withoutFinal.matchAll(FORBIDDEN_RE)) {
    const keyword = (match[1] as string).toUpperCase();
    const after = withoutFinal.slice((match.index ?? 0) + keyword.length);
    if (keyword === "REPLACE" && /^\s*\(/.test(after)) continue;
    throw rejected(`${keyword} is not allowed: queries may only read`, sql, { reason: "forbidden_keyword", keyword });
  }
  return sql.slice(0, withoutFinal.length).trim();
}
