import { describe, expect, it } from "vitest";
import { extractEntities, mentions, spellsAcronym } from "./entities.js";

const texts = (t: string) => extractEntities(t).map((e) => e.text);

describe("extractEntities", () => {
  it("finds identifiers, paths, IPs, emails and code names", () => {
    const found = texts("INC-2026-014 hit POST /v2/refunds from 10.0.0.5; mail ops@acme.io about refund-orchestrator.");
    expect(found).toEqual(
      expect.arrayContaining(["INC-2026-014", "/v2/refunds", "10.0.0.5", "ops@acme.io", "refund-orchestrator"]),
    );
  });

  it("finds capitalised names but not sentence-initial question words", () => {
    const found = texts("Who leads the team? The team lead is Hannah Cho, of Refunds & Disputes.");
    expect(found).toContain("Hannah Cho");
    expect(found).toContain("Refunds & Disputes");
    expect(found).not.toContain("Who");
    expect(found).not.toContain("The");
  });

  it("finds both people in a comparison question", () => {
    expect(texts("Are Marisol Quintero and Devraj Ohlsson both opera directors?")).toEqual([
      "Marisol Quintero",
      "Devraj Ohlsson",
    ]);
  });

  it("matches a Latin name written without its accents, but keeps the marks of kana", () => {
    expect(mentions("The ferry leaves Malmö at dawn.", "Malmo")).toBe(true);
    expect(mentions("The ferry leaves Malmo at dawn.", "Malmö")).toBe(true);
    expect(mentions("The ferry leaves Malmi at dawn.", "Malmo")).toBe(false);
    expect(mentions("ガラス", "カラス")).toBe(false);
  });

  it("matches mentions case-insensitively", () => {
    expect(mentions("Served by Refund-Orchestrator", "refund-orchestrator")).toBe(true);
  });
});

describe("extractEntities on hostile text", () => {
  const MB = 1_000_000;

  it("reads long runs that never match once, not once per start", () => {
    expect(extractEntities("a".repeat(MB))).toEqual([]);
    expect(extractEntities("a.b+c.d".repeat(MB / 7))).toEqual([]);
    expect(extractEntities(`${"ab.".repeat(MB / 3)}@`)).toEqual([]);
    expect(extractEntities(`x@${"b".repeat(MB)}`)).toEqual([]);
    expect(extractEntities(`/${"a".repeat(MB)}`)).toEqual([]);
    expect(extractEntities(`A-1${"-".repeat(MB)}`).map((e) => e.text)).toEqual(["A-1"]);
  });

  it("trims a run of dots after a name in one pass", () => {
    const found = extractEntities(`He met Alpha${".".repeat(MB)}Beta there`);
    expect(found).toHaveLength(1);
    expect(found[0]?.text.length).toBe(MB + 9);
  });

  it("keeps every one of 100,000 distinct entities, and drops names inside identifiers", () => {
    const text = Array.from({ length: 100_000 }, (_, i) => `svc-${i} INC-${i}`).join(" ");
    const found = extractEntities(text);
    expect(found).toHaveLength(200_000);
    expect(found.filter((e) => e.type === "code")).toHaveLength(100_000);
    expect(found.filter((e) => e.type === "identifier")).toHaveLength(100_000);
    expect(found.some((e) => e.text === "INC")).toBe(false);
  });

  it("still finds an e-mail address after other text, and one per address", () => {
    expect(texts("write to ops@acme.io or to billing+eu@acme.co.uk today")).toEqual([
      "ops@acme.io",
      "billing+eu@acme.co.uk",
    ]);
  });
});

describe("contractions", () => {
  it("does not take a contracted question word for part of a name", () => {
    const names = extractEntities("What's Pavo Quill's badge number? Who's Lina Marsh?").map((e) => e.text);
    expect(names).toContain("Pavo Quill");
    expect(names).toContain("Lina Marsh");
    expect(names.some((n) => /What|Who/.test(n))).toBe(false);
  });
});

describe("possessives and spelled-out names", () => {
  it("ends a name at a possessive: the owner and the owned thing are two names", () => {
    const found = texts("Which queue handles Quillmark's Ledger Service outages?");
    expect(found).toContain("Quillmark");
    expect(found).toContain("Ledger Service");
    expect(found).not.toContain("Quillmark's Ledger Service");
  });

  it("reads a hyphen between letters as a space, and a colon like a semicolon", () => {
    expect(mentions("Parcels for the same evening run leave at noon.", "same-evening")).toBe(true);
    expect(mentions("Storm Harbor: Second Tide is a board game.", "Storm Harbor; Second Tide")).toBe(true);
    // An identifier keeps its hyphen between a letter and a digit.
    expect(mentions("ticket ZX 4410 was closed", "ZX-4410")).toBe(false);
    expect(mentions("the evening run", "same-evening")).toBe(false);
  });

  it("finds an acronym spelled out by consecutive words, connecting words skipped", () => {
    expect(mentions("She was the chief operating officer of Velbrook.", "COO")).toBe(true);
    expect(mentions("the Office of Tidal Records keeps them", "OTR")).toBe(true);
    expect(mentions("the chief officer left early", "COO")).toBe(false);
    expect(spellsAcronym("a web service", "AWS")).toBe(false);
    expect(spellsAcronym("chief operating officer", "Coo")).toBe(false);
  });

  it("spells acronyms in one pass over a long text", () => {
    const text = `${"cat ".repeat(200_000)}chief operating officer`;
    expect(spellsAcronym(text, "COO")).toBe(true);
    expect(spellsAcronym("c ".repeat(500_000), "COO")).toBe(false);
  });

  it("where every noun is capitalised, keeps two-word and marked names and drops single nouns", () => {
    const text =
      "Ein Kurier von Falkenried Express stolperte an der Schranke bei Halle 3. Die Schranke meldete SensoLink und die DGX sofort.";
    const german = extractEntities(text, { nounCapitals: true }).map((e) => e.text);
    expect(german).toContain("Falkenried Express");
    expect(german).toContain("SensoLink");
    expect(german).toContain("DGX");
    for (const noun of ["Kurier", "Schranke", "Die Schranke", "Halle 3", "Ein Kurier von Falkenried Express"]) {
      expect(german, noun).not.toContain(noun);
    }
    // Read as English, the same capitalised nouns are names.
    const plain = extractEntities(text).map((e) => e.text);
    expect(plain).toContain("Schranke");
  });
});
