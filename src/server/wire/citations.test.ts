import { describe, expect, it } from "vitest";
import type { Answer } from "../../index.js";
import { citationSpans } from "./citations.js";

const evidence = [
  { id: "p1", docId: "notes.pdf", source: "docs", text: "Intro. The kiln fires at dawn.", start: 40, score: 1 },
  { id: "p2", docId: "https://example.test/a", source: "web", text: "Boats leave at nine.", start: 0, score: 1 },
] as unknown as Answer["evidence"];

describe("citationSpans", () => {
  it("places the quote in the passage and the document and keeps the locator and url", () => {
    const spans = citationSpans({
      evidence,
      citations: [
        {
          n: 1,
          passageId: "p1",
          docId: "notes.pdf",
          source: "docs",
          quote: "The kiln fires at dawn.",
          locator: "page 2",
        },
        {
          n: 2,
          passageId: "p2",
          docId: "https://example.test/a",
          source: "web",
          quote: "Boats leave at nine.",
          url: "https://example.test/a#:~:text=Boats%20leave%20at%20nine",
        },
      ],
    });
    expect(spans[0]).toMatchObject({
      passage: { start: 7, end: 30 },
      document: { start: 47, end: 70 },
      locator: "page 2",
    });
    expect(spans[0]).not.toHaveProperty("url");
    expect(spans[1]).toMatchObject({ url: "https://example.test/a#:~:text=Boats%20leave%20at%20nine" });
    expect(spans[1]).not.toHaveProperty("locator");
  });
});
