import { describe, expect, it } from "vitest";
import { InvalidInputError, LimitExceededError } from "../../spec/errors.js";
import { resolveLimits } from "../limits.js";
import { loadJson } from "./json.js";

const bytes = (value: unknown) =>
  new TextEncoder().encode(typeof value === "string" ? value : JSON.stringify(value, null, 2));

describe("loadJson", () => {
  it("makes an array of flat-ish objects a table with dotted columns and a document per row", async () => {
    const kettles = [
      { id: "KT-1", model: "Brisk", litres: 1.7, owner: { name: "Oda Vellin", floor: 3 }, tags: ["steel", "quiet"] },
      { id: "KT-2", model: "Hearth", litres: 2, owner: { name: "Pim Arrow", floor: 5 }, retired: true },
    ];
    const result = await loadJson({ bytes: bytes(kettles), relPath: "inv/kettles.json", tableName: "kettles" });
    const table = result.table;
    expect(table?.schema.primaryKey).toBe("id");
    expect(table?.schema.columns).toEqual([
      { name: "id", type: "TEXT" },
      { name: "model", type: "TEXT" },
      { name: "litres", type: "REAL" },
      { name: "owner.name", type: "TEXT" },
      { name: "owner.floor", type: "INTEGER" },
      { name: "tags", type: "TEXT" },
      { name: "retired", type: "INTEGER" },
    ]);
    expect(table?.rows[1]).toMatchObject({ id: "KT-2", "owner.name": "Pim Arrow", retired: 1, tags: null });
    expect(result.docs.map((d) => d.id)).toEqual(["inv/kettles.json#KT-1", "inv/kettles.json#KT-2"]);
    expect(result.docs[0]?.text).toContain("owner.name: Oda Vellin\nowner.floor: 3\ntags: steel, quiet");
  });

  it("numbers the rows when no column is a unique key", async () => {
    const result = await loadJson({ bytes: bytes([{ colour: "teal" }, { colour: "teal" }]), relPath: "c.json" });
    expect(result.table?.schema.primaryKey).toBe("row");
    expect(result.docs.map((d) => d.id)).toEqual(["c.json#1", "c.json#2"]);
  });

  it("makes an array of objects with long text documents, like JSON Lines", async () => {
    const long = "The greenhouse vents open at dawn and close when the sensors read below twelve degrees. ".repeat(3);
    const notes = [
      { id: "n1", title: "Vents", text: long, meta: { shelf: "B" } },
      { id: "n2", title: "Misting", text: long.replace("vents", "misters") },
    ];
    const result = await loadJson({ bytes: bytes(notes), relPath: "notes.json" });
    expect(result.table).toBeUndefined();
    expect(result.docs.map((d) => [d.id, d.title])).toEqual([
      ["notes.json#n1", "Vents"],
      ["notes.json#n2", "Misting"],
    ]);
    expect(result.docs[0]?.text).toMatch(/meta\.shelf: B$/);
  });

  it("makes any other JSON one document of dotted key lines", async () => {
    const config = { service: { name: "tallow", ports: [8080, 8443] }, debug: false };
    const result = await loadJson({ bytes: bytes(config), relPath: "cfg/app.json" });
    expect(result.docs).toHaveLength(1);
    expect(result.docs[0]?.text).toBe("service.name: tallow\nservice.ports: 8080, 8443\ndebug: 0");
  });

  it("fails malformed JSON with the file and line, and skips a file with too many fields", async () => {
    const bad = loadJson({ bytes: bytes('[\n  {"a": 1},\n  {"a": }\n]'), relPath: "bad.json" });
    await expect(bad).rejects.toThrow(InvalidInputError);
    await expect(bad).rejects.toThrow(/^bad\.json(, line 3)?: invalid JSON/);
    const wide = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}`, i]));
    const capped = loadJson({
      bytes: bytes([wide]),
      relPath: "wide.json",
      limits: resolveLimits({ maxCsvColumns: 10 }),
    });
    await expect(capped).rejects.toThrow(LimitExceededError);
    await expect(capped).rejects.toThrow(/wide\.json: more than 10 distinct fields/);
  });

  it("keeps values nested past the depth limit as JSON text instead of recursing", async () => {
    let deep: unknown = "bottom";
    for (let i = 0; i < 40; i++) deep = { d: deep };
    const result = await loadJson({ bytes: bytes({ top: deep }), relPath: "deep.json" });
    expect(result.docs[0]?.text).toMatch(/^top(\.d){15}: \{"d":/);
  });
});
