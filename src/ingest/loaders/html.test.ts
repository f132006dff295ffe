import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { ARTICLE, BOILERPLATE_WORDS, boilerplatePage } from "../../../test/fixtures/hostile/html-pages.js";
import { fixture } from "../../../test/fixtures/ingest/fixtures.js";
import { LimitExceededError } from "../../spec/errors.js";
import { chunkText } from "../chunker.js";
import { DEFAULT_INGEST_LIMITS } from "../limits.js";
import { loadHtml } from "./html.js";

describe("loadHtml", () => {
  it("takes the <title>, drops scripts, styles and navigation, keeps headings as # lines", async () => {
    const { docs } = await loadHtml({ bytes: fixture("page.html"), relPath: "site/page.html" });
    const doc = docs[0];
    expect(doc?.title).toBe("Ground Station Manual");
    expect(doc?.updatedAt).toBe("2026-02-20");
    expect(doc?.text).toContain("# Ground Station");
    expect(doc?.text).toContain("## Antennas");
    expect(doc?.text).toContain("- Dish A: 3.7 m");
    expect(doc?.text).toContain("Station lead | Priya Nair");
    expect(doc?.text).toContain("tracks rockets on S-band at 2.2 GHz.");
    expect(doc?.text).not.toMatch(/Home & more|do-not-index|also dropped|color: red|Ground Station Manual/);
  });

  it("gives the chunker sections to follow", async () => {
    const { docs } = await loadHtml({ bytes: fixture("page.html"), relPath: "page.html" });
    const spans = chunkText({ text: docs[0]?.text ?? "", targetTokens: 5, maxTokens: 30 });
    expect(spans.map((s) => s.section)).toContainEqual(["Ground Station", "Antennas"]);
  });

  it("falls back to the first <h1> when there is no <title>", async () => {
    const html = "<body><h1>Fin  Design</h1><p>Four fins.</p></body>";
    const { docs } = await loadHtml({ bytes: new TextEncoder().encode(html), relPath: "fins.html" });
    expect(docs[0]?.title).toBe("Fin Design");
    expect(docs[0]?.text).toBe("# Fin Design\n\nFour fins.");
  });

  it("keeps the article of a page and none of its boilerplate", async () => {
    const { docs } = await loadHtml({ bytes: new TextEncoder().encode(boilerplatePage()), relPath: "p.html" });
    expect(docs[0]?.title).toBe("Pallet surcharges | Kestrel Freight");
    for (const phrase of ARTICLE.phrases) expect(docs[0]?.text).toContain(phrase);
    for (const word of BOILERPLATE_WORDS) expect(docs[0]?.text).not.toContain(word);
  });

  it("decodes by the charset the page declares", async () => {
    const html =
      '<html><head><meta charset="shift_jis"><title>入荷</title></head><body><p>危険物は C 棟に保管します。</p></body></html>';
    const { docs, warnings } = await loadHtml({ bytes: iconv.encode(html, "shift_jis"), relPath: "j.html" });
    expect(docs[0]?.title).toBe("入荷");
    expect(docs[0]?.text).toBe("危険物は C 棟に保管します。");
    expect(warnings).toEqual([]);
  });

  it("refuses to build a DOM for more elements than the cap, naming it", async () => {
    const html = `<body>${"<i>x</i>".repeat(101)}</body>`;
    const limits = { ...DEFAULT_INGEST_LIMITS, maxHtmlElements: 100 };
    const error = await loadHtml({ bytes: new TextEncoder().encode(html), relPath: "dense.html", limits }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LimitExceededError);
    expect((error as Error).message).toBe(
      "dense.html: HTML has about 102 elements, over the cap of 100 (maxHtmlElements)",
    );
  });
});
