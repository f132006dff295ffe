import { describe, expect, it } from "vitest";
import { fixture } from "../../../test/fixtures/ingest/fixtures.js";
import { InvalidInputError } from "../../spec/errors.js";
import { loadJsonl } from "./jsonl.js";

describe("loadJsonl", () => {
  it("reads one document a line, other fields as metadata and as lines of its text", async () => {
    const { docs } = await loadJsonl({ bytes: fixture("passages.jsonl"), relPath: "passages.jsonl" });
    expect(docs).toEqual([
      {
        id: "passages.jsonl#1",
        title: "Goddard",
        text: "Robert Goddard launched the first liquid-fueled rocket in 1926.\n\nyear: 1926",
        updatedAt: "2025-12-01",
        acl: [],
        metadata: { year: 1926 },
      },
      {
        id: "passages.jsonl#2",
        title: "2",
        text: "The V-2 was the first long-range guided ballistic missile.\n\ncountry: Germany",
        updatedAt: undefined,
        acl: [],
        metadata: { country: "Germany" },
      },
    ]);
  });

  it("leads the title with a key that names something, not with a running number", async () => {
    const lines =
      '{"id":"NM-22","title":"Forklift hit a rack","text":"x","site":"KIX","extra":{"a":1}}\n{"id":7,"title":"T","text":"y"}\n';
    const { docs } = await loadJsonl({ bytes: new TextEncoder().encode(lines), relPath: "r.jsonl" });
    expect(docs.map((d) => d.title)).toEqual(["NM-22: Forklift hit a rack", "T"]);
    expect(docs[0]?.text).toBe("x\n\nsite: KIX");
  });

  it("names file and line of invalid JSON", async () => {
    const error = await loadJsonl({ bytes: fixture("malformed.jsonl"), relPath: "malformed.jsonl" }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).context).toMatchObject({ file: "malformed.jsonl", line: 2 });
    expect((error as Error).message).toMatch(/^malformed\.jsonl, line 2: invalid JSON/);
  });

  it("names the missing field", async () => {
    const error = await loadJsonl({ bytes: fixture("missing-text.jsonl"), relPath: "m.jsonl" }).catch(
      (e: unknown) => e,
    );
    expect((error as InvalidInputError).context).toMatchObject({ file: "m.jsonl", line: 2, field: "text" });
  });

  it("rejects a duplicate id", async () => {
    const lines = '{"id":"a","text":"x"}\n{"id":"a","text":"y"}\n';
    const error = await loadJsonl({ bytes: new TextEncoder().encode(lines), relPath: "d.jsonl" }).catch(
      (e: unknown) => e,
    );
    expect((error as InvalidInputError).context).toMatchObject({ line: 2, field: "id" });
  });
});
