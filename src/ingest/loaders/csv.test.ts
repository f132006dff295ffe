import { describe, expect, it } from "vitest";
import { fixture } from "../../../test/fixtures/ingest/fixtures.js";
import { InvalidInputError } from "../../spec/errors.js";
import { inferType, loadCsv } from "./csv.js";

describe("loadCsv", () => {
  it("turns each row into a document keyed by the first column", async () => {
    const { docs, table } = await loadCsv({
      bytes: fixture("parts.csv"),
      relPath: "data/parts.csv",
      tableName: "parts",
    });
    expect(docs.map((d) => d.id)).toEqual([
      "data/parts.csv#P-100",
      "data/parts.csv#P-200",
      "data/parts.csv#P-300",
      "data/parts.csv#007",
    ]);
    expect(docs[0]).toMatchObject({
      title: "Nose cone",
      updatedAt: "2026-01-10",
      text: "part_id: P-100\ntitle: Nose cone\nmass_kg: 1.25\ncount: 4\nsupplier: Orbital Plastics\nupdated_at: 2026-01-10",
    });
    expect(docs[2]?.text).not.toContain("supplier:");
    expect(docs[3]?.updatedAt).toBeUndefined();
    expect(table?.schema).toEqual({
      name: "parts",
      primaryKey: "part_id",
      columns: [
        { name: "part_id", type: "TEXT" },
        { name: "title", type: "TEXT" },
        { name: "mass_kg", type: "REAL" },
        { name: "count", type: "INTEGER" },
        { name: "supplier", type: "TEXT" },
        { name: "updated_at", type: "TEXT" },
      ],
    });
    expect(table?.rows[2]).toEqual({
      part_id: "P-300",
      title: "Igniter",
      mass_kg: 0.05,
      count: 50,
      supplier: null,
      updated_at: "2026-02-15",
    });
  });

  it("uses the key as the title without a title column", async () => {
    const { docs } = await loadCsv({ bytes: new TextEncoder().encode("code,name\nA1,Alpha\n"), relPath: "c.csv" });
    expect(docs[0]).toMatchObject({ id: "c.csv#A1", title: "A1" });
  });

  it("infers INTEGER, REAL and TEXT, keeping leading zeros as text", () => {
    expect(inferType(["1", "-2", ""])).toBe("INTEGER");
    expect(inferType(["1.5", "2"])).toBe("REAL");
    expect(inferType(["007", "8"])).toBe("TEXT");
    expect(inferType(["", ""])).toBe("TEXT");
  });

  it("names file and line of a row with too many fields", async () => {
    const error = await loadCsv({ bytes: fixture("malformed.csv"), relPath: "malformed.csv" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).context).toMatchObject({ file: "malformed.csv", line: 3 });
    expect((error as Error).message).toMatch(/^malformed\.csv, line 3/);
  });

  it("names the key field of a duplicate primary key", async () => {
    const error = await loadCsv({ bytes: fixture("duplicate-key.csv"), relPath: "dup.csv" }).catch((e: unknown) => e);
    expect((error as InvalidInputError).context).toMatchObject({ file: "dup.csv", line: 3, field: "part_id" });
  });

  it("names the field of an unclosed quote", async () => {
    const bad = new TextEncoder().encode('id,title,body\n1,ok,"unclosed\n2,x,y\n');
    const error = await loadCsv({ bytes: bad, relPath: "q.csv" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).context.file).toBe("q.csv");
    expect((error as Error).message).toContain("Quote Not Closed");
  });
});
