import { describe, expect, it } from "vitest";
import { AWKWARD_COLUMNS_CSV, bigCellCsv, wideCsv } from "../../../test/fixtures/hostile/csv-tables.js";
import { fixture } from "../../../test/fixtures/ingest/fixtures.js";
import { InvalidInputError, LimitExceededError } from "../../spec/errors.js";
import { DEFAULT_INGEST_LIMITS } from "../limits.js";
import { inferType, loadCsv } from "./csv.js";
import { columnNames } from "./csv-columns.js";

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

describe("loadCsv caps and column names", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);

  it("skips a 10,000-column file at its header, naming the cap", async () => {
    const error = await loadCsv({ bytes: bytes(wideCsv(10_000)), relPath: "wide.csv" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LimitExceededError);
    expect((error as LimitExceededError).context).toMatchObject({
      file: "wide.csv",
      limit: "maxCsvColumns",
      cap: DEFAULT_INGEST_LIMITS.maxCsvColumns,
      value: 10_000,
    });
    expect((error as Error).message).toBe("wide.csv: 10000 columns, over the maxCsvColumns cap of 1000");
    const fine = await loadCsv({ bytes: bytes(wideCsv(1_000, 2)), relPath: "ok.csv" });
    expect(fine.table?.schema.columns).toHaveLength(1_000);
  });

  it("reads a header longer than the first slice it looks at", async () => {
    const names = Array.from(
      { length: 900 },
      (_, i) => `column_with_a_rather_long_and_very_descriptive_name_that_goes_on_number_${i}`,
    );
    const text = `${names.join(",")}\n${names.map((_, i) => i).join(",")}\n`;
    expect(text.length).toBeGreaterThan(64 * 1024);
    const { table } = await loadCsv({ bytes: bytes(text), relPath: "long.csv" });
    expect(table?.schema.columns.map((c) => c.name)).toEqual(names);
    const tooMany = await loadCsv({
      bytes: bytes(text),
      relPath: "long.csv",
      limits: { ...DEFAULT_INGEST_LIMITS, maxCsvColumns: 899 },
    }).catch((e: unknown) => e);
    expect((tooMany as LimitExceededError).context).toMatchObject({ limit: "maxCsvColumns", value: 900 });
  });

  it("skips a file with a cell over the byte cap, counting bytes, not characters", async () => {
    const error = await loadCsv({ bytes: bytes(bigCellCsv(2 * 1024 * 1024)), relPath: "big.csv" }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LimitExceededError);
    expect((error as LimitExceededError).context).toMatchObject({ file: "big.csv", limit: "maxCsvCellBytes", line: 3 });
    expect((error as Error).message).toMatch(
      /^big\.csv, line 3, column 2: a cell of 2097152 bytes is over the maxCsvCellBytes cap of 1048576$/,
    );
    // 400,000 CJK characters are 1.2 MB of UTF-8.
    const cjk = `id,note\n1,${"数".repeat(400_000)}\n`;
    const wide = await loadCsv({ bytes: bytes(cjk), relPath: "cjk.csv" }).catch((e: unknown) => e);
    expect((wide as LimitExceededError).context).toMatchObject({ limit: "maxCsvCellBytes", value: 1_200_000 });
    const under = await loadCsv({ bytes: bytes(`id,note\n1,${"数".repeat(300_000)}\n`), relPath: "cjk.csv" });
    expect(under.docs).toHaveLength(1);
  });

  it("renames reserved, repeated and empty column names, with a warning for each", async () => {
    const { table, docs, warnings } = await loadCsv({ bytes: bytes(AWKWARD_COLUMNS_CSV), relPath: "people.csv" });
    expect(table?.schema.columns.map((c) => c.name)).toEqual([
      "id",
      "_id_2",
      "rowid_2",
      "Name",
      "name_2",
      "column_6",
      "column_6_2",
      "OID_2",
    ]);
    expect(warnings).toEqual([
      'line 1, column 2: "_id" is reserved for the row id; renamed "_id_2"',
      'line 1, column 3: "rowid" is reserved for the row id; renamed "rowid_2"',
      'line 1, column 5: "name" repeats column 4; renamed "name_2"',
      'line 1, column 6: has no name; renamed "column_6"',
      'line 1, column 7: "column_6" repeats column 6; renamed "column_6_2"',
      'line 1, column 8: "OID" is reserved for the row id; renamed "OID_2"',
    ]);
    expect(table?.rows[0]).toMatchObject({ _id_2: "x1", name_2: "ada", column_6: "e1", OID_2: "o1" });
    expect(docs[0]?.text).toContain("_id_2: x1\nrowid_2: r1\nName: Ada\nname_2: ada");
  });

  it("renames a header that repeats one name many times in linear steps", () => {
    const { names } = columnNames(Array(1_000).fill("a"));
    expect(new Set(names).size).toBe(1_000);
    expect(names.slice(0, 3)).toEqual(["a", "a_2", "a_3"]);
    expect(names.at(-1)).toBe("a_1000");
  });
});
