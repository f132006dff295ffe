import { describe, expect, it } from "vitest";
import type { Citation, EvidenceItem } from "../spec/answer.js";
import type { DocumentHeader } from "../spec/document.js";
import { addCitationLocators, locatorOf, pageOf } from "./citation-locator.js";

describe("pageOf", () => {
  const starts = [0, 120, 300, 301];
  it("finds the page whose start is the last at or before the offset", () => {
    expect(pageOf(starts, 0)).toBe(1);
    expect(pageOf(starts, 119)).toBe(1);
    expect(pageOf(starts, 120)).toBe(2);
    expect(pageOf(starts, 250)).toBe(2);
    expect(pageOf(starts, 300)).toBe(3);
    expect(pageOf(starts, 5000)).toBe(4);
  });
  it("gives nothing without a usable page list", () => {
    expect(pageOf(undefined, 3)).toBeUndefined();
    expect(pageOf([], 3)).toBeUndefined();
    expect(pageOf([0, "x"], 3)).toBeUndefined();
  });
});

describe("locatorOf", () => {
  it("names the page of a PDF passage and prefers a loader's own locator", () => {
    expect(locatorOf({ pageStarts: [0, 40, 90] }, 41)).toBe("page 2");
    expect(locatorOf({ locator: "slide 4", pageStarts: [0, 40] }, 41)).toBe("slide 4");
    expect(locatorOf({ pageStarts: [0, 40] }, undefined)).toBeUndefined();
    expect(locatorOf({}, 10)).toBeUndefined();
  });
});

describe("addCitationLocators", () => {
  const doc = (id: string, metadata: Record<string, unknown>): DocumentHeader => ({
    id,
    source: "s",
    tenant: "t",
    title: id,
    acl: [],
    contentHash: "h",
    metadata,
  });
  const item = (docId: string, text: string, start: number): EvidenceItem => ({
    id: `${docId}::0`,
    docId,
    source: "s",
    text,
    score: 1,
    start,
    end: start + text.length,
    step: 1,
    callId: "c",
  });
  const cite = (n: number, docId: string, quote: string): Citation => ({
    n,
    passageId: `${docId}::0`,
    docId,
    source: "s",
    quote,
  });

  it("reads each cited document's header (not its text) once and locates the quote's page inside the passage", async () => {
    const reads: string[] = [];
    const docs: Record<string, DocumentHeader> = {
      "manual.pdf": doc("manual.pdf", { pageStarts: [0, 100, 200] }),
      "deck.pptx#slide-2": doc("deck.pptx#slide-2", { locator: "slide 2" }),
    };
    const store = {
      getDocumentHeader: async (id: string) => {
        reads.push(id);
        return docs[id];
      },
    };
    // The passage starts on page 1 (offset 90); the second quote sits at offset 90 + 15 = 105, on page 2.
    const evidence = [
      item("manual.pdf", "first bit here. the crimson valve opens", 90),
      item("deck.pptx#slide-2", "quarterly kiwi totals", 0),
      item("https://example.test/a", "web words", 0),
    ];
    const out = await addCitationLocators({
      citations: [
        cite(1, "manual.pdf", "first bit"),
        cite(1, "manual.pdf", "the crimson valve opens"),
        cite(2, "deck.pptx#slide-2", "kiwi"),
        cite(3, "https://example.test/a", "web"),
      ],
      evidence,
      store,
      principal: { tenant: "t", user: "u", roles: ["*"] },
    });
    expect(out.map((c) => c.locator)).toEqual(["page 1", "page 2", "slide 2", undefined]);
    expect(reads.sort()).toEqual(["deck.pptx#slide-2", "manual.pdf"]);
  });

  it("keeps citations as they were when a read fails", async () => {
    const store = {
      getDocumentHeader: async () => {
        throw new Error("gone");
      },
    };
    const citations = [cite(1, "a.pdf", "x")];
    const out = await addCitationLocators({
      citations,
      evidence: [item("a.pdf", "x", 0)],
      store,
      principal: { tenant: "t", user: "u", roles: ["*"] },
    });
    expect(out).toEqual(citations);
  });
});
