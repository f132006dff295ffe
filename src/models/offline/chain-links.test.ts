import { describe, expect, it } from "vitest";
import type { CallRecord } from "../../spec/engine.js";
import { commonness, currentLinks, leadsOn, modifierOnly, onChain, siblingRecord, titledAfter } from "./chain-links.js";

const record = (follows?: string): CallRecord => ({
  call: { callId: "c", tool: "search", args: { query: "q" }, ...(follows ? { follows } : {}) },
  step: 2,
  status: "ok",
  passageKeys: [],
});

describe("currentLinks", () => {
  it("is the name the latest hop followed", () => {
    expect(currentLinks({ entities: ["Orlen Creek"] }, [record("Estrovia"), record("Estrovia")])).toEqual(["Estrovia"]);
  });

  it("is the part's names after a first search, which follows nothing", () => {
    expect(currentLinks({ entities: ["Orlen Creek"] }, [record()])).toEqual(["Orlen Creek"]);
  });
});

describe("onChain", () => {
  const river = { text: "The Orlen Creek rises near Tamsby, Estrovia." };
  const rival = { text: "Grey Point lighthouse stands on the coast of Halden." };

  it("keeps the passages naming the current link", () => {
    expect(onChain([rival, river], ["Orlen Creek"])).toEqual({ passages: [river], chained: true });
  });

  it("keeps every passage when none names a link, or there is no link", () => {
    expect(onChain([rival, river], ["Marrow Falls"])).toEqual({ passages: [rival, river], chained: false });
    expect(onChain([rival, river], [])).toEqual({ passages: [rival, river], chained: false });
  });
});

describe("leadsOn", () => {
  const hit = { docId: "d9", title: "Grey Point", text: "Grey Point is the oldest lighthouse of Estrovia." };

  it("is true for a new passage naming the bridge and holding a wanted word", () => {
    expect(leadsOn("Estrovia", ["lighthouse"], [hit], new Set(["d1"]))).toBe(true);
  });

  it("is false for a passage the chain has seen, one without the bridge, or without a wanted word", () => {
    expect(leadsOn("Estrovia", ["lighthouse"], [hit], new Set(["d9"]))).toBe(false);
    expect(leadsOn("Tamsby", ["lighthouse"], [hit], new Set())).toBe(false);
    expect(leadsOn("Estrovia", ["harbour"], [hit], new Set())).toBe(false);
  });
});

describe("siblingRecord", () => {
  it("is another identifier of the shape the question names", () => {
    expect(siblingRecord("T-2207", ["T-2071"])).toBe(true);
  });

  it("is not the named record itself, a name, or an identifier of another kind", () => {
    expect(siblingRecord("T-2071", ["T-2071"])).toBe(false);
    expect(siblingRecord("Estrovia", ["T-2071"])).toBe(false);
    expect(siblingRecord("INV-88", ["T-2071"])).toBe(false);
  });
});

describe("commonness", () => {
  it("grows with the share of documents naming the name, on a log scale", () => {
    expect(commonness(1, 1000)).toBe(0);
    expect(commonness(1000, 1000)).toBe(1);
    const rare = commonness(3, 1000)!;
    const common = commonness(200, 1000)!;
    expect(rare).toBeGreaterThan(0);
    expect(rare).toBeLessThan(0.05);
    expect(common).toBeGreaterThan(rare + 0.5);
  });

  it("is unknown without counts, and never above 1", () => {
    expect(commonness(undefined, 1000)).toBeUndefined();
    expect(commonness(50, 20)).toBe(1);
  });
});

describe("titledAfter", () => {
  it("is true for a title that is the name, with or without a qualifier", () => {
    expect(titledAfter("Orlen Creek", "Orlen Creek")).toBe(true);
    expect(titledAfter("Orlen Creek (Estrovia)", "Orlen Creek")).toBe(true);
    expect(titledAfter("Tamsby, Estrovia", "Tamsby")).toBe(true);
    expect(titledAfter("Ledger Sync Runbook", "Ledger Sync")).toBe(true);
  });

  it("is false for a longer title that only holds the name as one of its words", () => {
    expect(titledAfter("Estrovian Rowing Federation", "Estrovian")).toBe(false);
    expect(titledAfter("Grey Point Lighthouse", "Halden")).toBe(false);
  });
});

describe("modifierOnly", () => {
  it("reads a one-word name after an indefinite article and before a lower-case word as a description", () => {
    expect(modifierOnly("Quill Road is a 1998 Estrovian film directed by Ada Marr.", "Estrovian")).toBe(true);
    expect(modifierOnly("An Estrovian painter, she moved to Tamsby.", "Estrovian")).toBe(true);
  });

  it("keeps a name the unit also uses as a name, or that leads a sentence of its own", () => {
    expect(modifierOnly("An Estrovian painter, she later taught in Estrovian schools.", "Estrovian")).toBe(false);
    expect(modifierOnly("She was born in Tamsby and is an Estrovian citizen.", "Tamsby")).toBe(false);
    expect(modifierOnly("The Estrovian team won.", "Estrovian")).toBe(false);
    expect(modifierOnly("Quill Road is a film.", "Ada Marr")).toBe(false);
  });
});
