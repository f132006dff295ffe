import pg from "pg";
import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../../spec/errors.js";
import { PgDb, quoteLiteral, scopeStatement, sqlLiteral } from "./db.js";

describe("quoteLiteral", () => {
  it("writes what the driver's escapeLiteral writes: quotes doubled, E'' with doubled backslashes", () => {
    expect(quoteLiteral("plain")).toBe("'plain'");
    expect(quoteLiteral("o'brien")).toBe("'o''brien'");
    expect(quoteLiteral("a\\b'c")).toBe(" E'a\\\\b''c'");
    expect(quoteLiteral("")).toBe("''");
    for (const value of ["", "x", "''", "\\", "\\'", '{a,"b"}', "日本語", "tab\there", "line\nbreak"])
      expect(quoteLiteral(value)).toBe(pg.escapeLiteral(value));
  });

  it("refuses a NUL character with an InvalidInputError (PostgreSQL text cannot hold it)", () => {
    expect(() => quoteLiteral("acme\0' OR true")).toThrow(InvalidInputError);
    expect(() => sqlLiteral(["ok", "bad\0"])).toThrow(InvalidInputError);
  });
});

describe("scopeStatement", () => {
  it("needs no connection and quotes every value", () => {
    const sql = scopeStatement({ tenant: "o'brien\\x", roles: ["a'b", "c"] });
    expect(sql).toContain("set_config('ferret.tenant',  E'o''brien\\\\x', true)");
    expect(sql).toContain("ARRAY['a''b', 'c']::text[]::text");
    expect(sql).toContain("set_config('ferret.all_tenants', 'off', true)");
  });

  it("refuses a tenant or role with NUL before a connection is taken", async () => {
    expect(() => scopeStatement({ tenant: "acme\0" })).toThrow(InvalidInputError);
    expect(() => scopeStatement({ tenant: "acme", roles: ["\0"] })).toThrow(InvalidInputError);
    // Nothing listens on port 1: a statement that reached for a connection would fail with a StoreError.
    const db = new PgDb({ url: "postgres://nobody@127.0.0.1:1/none", max: 1 });
    try {
      await expect(db.once("search", { tenant: "acme\0" }, "SELECT 1")).rejects.toBeInstanceOf(InvalidInputError);
      await expect(db.tx("search", { tenant: "acme\0" }, async () => 1)).rejects.toBeInstanceOf(InvalidInputError);
    } finally {
      await db.close();
    }
  });
});
