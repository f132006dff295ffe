import { describe, expect, it } from "vitest";
import type { Passage } from "../spec/passage.js";
import { identifiersOf, identityFirst, ownNames } from "./identity.js";

const p = (id: string, docId: string, score: number): Passage => ({
  id,
  docId,
  source: "s",
  text: id,
  score,
  start: 0,
  end: 10,
});

describe("identifiersOf", () => {
  it("keeps joined letter-and-digit tokens whole, and skips plain words and plain numbers", () => {
    expect(identifiersOf("Which depot packed ZQ-417 and crate_88 in 2031-04?")).toEqual(["zq-417", "crate_88"]);
    expect(identifiersOf("how many crates in 2031")).toEqual([]);
  });

  it("ends an identifier where Chinese or Japanese text runs into it without a space", () => {
    expect(identifiersOf("点検記録ZQ-417で見つかった木箱は")).toEqual(["zq-417"]);
    expect(identifiersOf("仓库ZQ-417的箱子")).toEqual(["zq-417"]);
  });
});

describe("ownNames", () => {
  it("names a record by its key and a file by its name with and without extension", () => {
    expect(ownNames("logs/events.jsonl#ZQ-417")).toEqual(["zq-417"]);
    expect(ownNames("notes/run-7.md")).toEqual(["run-7.md", "run-7"]);
  });
});

describe("identityFirst", () => {
  const hits = [p("a", "events.jsonl#ZQ-418", 0.6), p("b", "events.jsonl#ZQ-417", 0.5), p("c", "guide.md", 0.4)];

  it("puts the record the query names by id first, with the list's best score", () => {
    const ranked = identityFirst(hits, "who packed ZQ-417");
    expect(ranked.map((x) => x.id)).toEqual(["b", "a", "c"]);
    expect(ranked[0]?.score).toBe(0.6);
  });

  it("moves only the best passage of a named document", () => {
    const two = [p("a", "guide.md", 0.6), p("b", "ZQ-417.md", 0.5), p("c", "ZQ-417.md", 0.4), p("d", "x.md", 0.3)];
    expect(identityFirst(two, "what happened in ZQ-417").map((x) => x.id)).toEqual(["b", "a", "c", "d"]);
  });

  it("only reorders without rescore, and leaves a query naming no document alone", () => {
    expect(identityFirst(hits, "who packed ZQ-417", false)[0]?.score).toBe(0.5);
    expect(identityFirst(hits, "who packed the crate").map((x) => x.id)).toEqual(["a", "b", "c"]);
  });
});
