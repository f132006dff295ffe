import { describe, expect, it } from "vitest";
import { SqlRejectedError } from "../spec/errors.js";
import { guardSql, sqlSkeleton } from "./sql-guard.js";

function rejection(sql: string): SqlRejectedError {
  try {
    guardSql(sql);
  } catch (error) {
    if (error instanceof SqlRejectedError) return error;
    throw error;
  }
  throw new Error(`accepted: ${sql}`);
}

describe("guardSql", () => {
  it("accepts one SELECT or WITH statement and returns it without the final semicolon", () => {
    expect(guardSql("SELECT count(*) FROM tickets;")).toBe("SELECT count(*) FROM tickets");
    expect(guardSql("  select * from t  ")).toBe("select * from t");
    expect(guardSql("WITH x AS (SELECT 1 AS a) SELECT a FROM x ;  \n")).toBe(
      "WITH x AS (SELECT 1 AS a) SELECT a FROM x",
    );
    expect(guardSql("SELECT 1; -- trailing comment")).toBe("SELECT 1");
  });

  it("accepts forbidden words inside string literals, quoted identifiers and comments", () => {
    const legit = [
      "SELECT * FROM tickets WHERE title = 'DROP TABLE tickets; DELETE everything'",
      "SELECT * FROM t WHERE body LIKE '%update your card%' OR body LIKE '%it''s; insert%'",
      'SELECT "update", [delete] FROM t',
      "SELECT 1 -- we never UPDATE; DROP anything\n FROM t",
      "SELECT 1 /* INSERT; ATTACH */ FROM t",
      "SELECT replace(title, 'a', 'b') FROM t",
      "SELECT updated_at, created_at, deleted_flag FROM t",
    ];
    for (const sql of legit) expect(() => guardSql(sql), sql).not.toThrow();
  });

  it("rejects statements that write, attach or change settings, naming the keyword", () => {
    const cases: [string, string][] = [
      ["DROP TABLE tickets", "DROP"],
      ["UPDATE tickets SET status = 'closed'", "UPDATE"],
      ["ATTACH DATABASE 'x.db' AS x", "ATTACH"],
      ["PRAGMA writable_schema = 1", "PRAGMA"],
      ["VACUUM", "VACUUM"],
      ["insert into t values (1)", "INSERT"],
    ];
    for (const [sql, keyword] of cases) {
      const error = rejection(sql);
      expect(error.message, sql).toContain(keyword);
      expect(error.message).toContain("read-only SELECT");
    }
  });

  it("rejects writes hidden after WITH or inside a SELECT", () => {
    expect(rejection("WITH x AS (SELECT 1) DELETE FROM t").context.keyword).toBe("DELETE");
    expect(rejection("WITH x AS (SELECT 1) REPLACE INTO t SELECT * FROM x").context.keyword).toBe("REPLACE");
    expect(rejection("SELECT load_extension('evil.so')").context.keyword).toBe("LOAD_EXTENSION");
    expect(rejection("SELECT * FROM t WHERE 1 = 1 /* */ DROP").context.keyword).toBe("DROP");
  });

  it("rejects a second statement, however it is hidden", () => {
    const attempts = [
      "SELECT 1; DROP TABLE t",
      "SELECT 1;SELECT 2",
      "SELECT 1; -- comment\n DELETE FROM t",
      "SELECT 1 /* ; */; UPDATE t SET a = 1",
      "SELECT ';' ; DROP TABLE t",
      "SELECT 1; /* only a comment? */ SELECT 2",
    ];
    for (const sql of attempts) expect(rejection(sql).context.reason, sql).toBe("multiple_statements");
  });

  it("rejects empty input, other statement kinds and unterminated literals", () => {
    expect(rejection("").context.reason).toBe("empty");
    expect(rejection("  -- nothing\n ;").context.reason).toBe("empty");
    expect(rejection("EXPLAIN SELECT 1").context.reason).toBe("not_select");
    expect(rejection("SELECT 'open").context.reason).toBe("unterminated");
    expect(rejection('SELECT "open FROM t').context.reason).toBe("unterminated");
  });
});

describe("sqlSkeleton", () => {
  it("blanks literals and comments without changing the length", () => {
    const sql = "SELECT 'a;b' -- x;\n, \"c\" /* y */ FROM t";
    const skeleton = sqlSkeleton(sql);
    expect(skeleton).toHaveLength(sql.length);
    expect(skeleton).not.toContain(";");
    expect(skeleton.startsWith("SELECT '   '")).toBe(true);
    expect(skeleton.endsWith("FROM t")).toBe(true);
  });
});
