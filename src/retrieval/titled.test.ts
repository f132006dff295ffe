import { describe, expect, it } from "vitest";
import type { Passage } from "../spec/passage.js";
import type { ScoredChunk, StoreV1 } from "../spec/store.js";
import { createRetriever } from "./search.js";
import { titledByQuery, titledFirst, titleName } from "./titled.js";

const page = (docId: string, title: string, score: number, text = title): Passage => ({
  id: `${docId}::0`,
  docId,
  source: "wiki",
  title,
  text,
  score,
});

const titles = (ps: readonly Passage[]) => ps.map((p) => p.title);

describe("titleName", () => {
  it("drops a trailing qualifier in parentheses, and keeps a title without one", () => {
    expect(titleName("Pellow (orchard)")).toBe("Pellow");
    expect(titleName("Vandermeer Estate")).toBe("Vandermeer Estate");
    expect(titleName("(untitled)")).toBe("(untitled)");
  });
});

describe("titledByQuery", () => {
  const passages = [
    page("a", "Vandermeer", 0.4),
    page("b", "Vandermeer Estate", 0.6),
    page("c", "Pellow (orchard)", 0.3),
    page("d", "Orchard", 0.5),
  ];

  it("finds the titles a query spells out as names, with or without their qualifier", () => {
    expect(titledByQuery(passages, "Which orchard is older, the Vandermeer or the Pellow?")).toEqual([
      true,
      false,
      true,
      // "orchard" is in the query, but written as a plain word, not a name.
      false,
    ]);
  });

  it("does not take a title that is only part of a longer name the query gives", () => {
    const ps = [page("h", "Halvard", 0.5), page("b", "Halvard Bridge", 0.4)];
    expect(titledByQuery(ps, "When did the Halvard Bridge open?")).toEqual([false, true]);
    expect(titledByQuery(ps, "When did Lord Halvard open it?")).toEqual([false, false]);
  });

  it("takes a name starting the query, as a hop's search for a bridge begins with it", () => {
    expect(titledByQuery([page("q", "Quillon", 0.2)], "Quillon founding year")).toEqual([true]);
  });

  it("needs the name written as one: a query in lower case names no page", () => {
    expect(titledByQuery([page("b", "Halvard Bridge", 0.4)], "when did the halvard bridge open")).toEqual([false]);
  });

  it("skips a title longer than a name", () => {
    const long = "The Long Account of the Voyage of the Ship Marigold to the Southern Isles";
    expect(titledByQuery([page("l", long, 0.4)], `Who wrote ${long}?`)).toEqual([false]);
  });
});

describe("titledFirst", () => {
  const query = "Which orchard is older, the Vandermeer or the Pellow?";
  const passages = [
    page("list", "List of orchards of the valley", 0.9, "The Vandermeer and the Pellow orchards ..."),
    page("estate", "Vandermeer Estate", 0.7),
    page("pellow", "Pellow (orchard)", 0.5),
    page("vdm", "Vandermeer", 0.4),
  ];

  it("puts the pages the query names first, with the best score, above pages that mention them", () => {
    const out = titledFirst(passages, query);
    expect(titles(out)).toEqual([
      "Pellow (orchard)",
      "Vandermeer",
      "List of orchards of the valley",
      "Vandermeer Estate",
    ]);
    expect(out.slice(0, 2).map((p) => p.score)).toEqual([0.9, 0.9]);
    expect(out[3]?.score).toBe(0.7);
  });

  it("keeps scores when told not to rescore, and leaves a query naming no title as it was", () => {
    expect(titledFirst(passages, query, false).map((p) => p.score)).toEqual([0.5, 0.4, 0.9, 0.7]);
    expect(titledFirst(passages, "how old are the orchards")).toEqual(passages);
  });

  it("moves one passage per title: a page stored as two documents of one title moves once", () => {
    const split = [page("x", "Other", 0.8), page("p1", "Pellow", 0.6), page("p2", "Pellow", 0.5)];
    expect(titledFirst(split, "Where is the Pellow?").map((p) => p.docId)).toEqual(["p1", "x", "p2"]);
  });
});

describe("createRetriever with titled pages", () => {
  // A store whose keyword search ranks a page mentioning the name above the name's own page, past k.
  const hits: ScoredChunk[] = [
    { ...page("list", "List of orchards", 0, "The Pellow orchard and the Vandermeer orchard are the oldest."), raw: 9 },
    { ...page("estate", "Vandermeer Estate", 0, "The Vandermeer Estate sells orchard land."), raw: 7 },
    { ...page("pellow", "Pellow", 0, "Pellow is an orchard planted in 1820."), raw: 5 },
  ];
  const store = {
    async keywordSearch() {
      return hits;
    },
  } as unknown as StoreV1;
  const principal = { tenant: "t", user: "u", roles: [] };

  it("brings the page the query names into the k it returns, first and with the best score", async () => {
    const found = await createRetriever({ store }).search("Pellow orchard age", { principal, k: 2 });
    expect(found.map((p) => p.docId)).toEqual(["pellow", "list"]);
    expect(found[0]?.score).toBe(Math.max(...found.map((p) => p.score)));
  });

  it("keeps the keyword order with titledFirst off", async () => {
    const found = await createRetriever({ store, titledFirst: false }).search("Pellow orchard age", {
      principal,
      k: 2,
    });
    expect(found.map((p) => p.docId)).toEqual(["list", "estate"]);
  });
});
