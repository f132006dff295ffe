import { describe, expect, it } from "vitest";
import { ARTICLE, BOILERPLATE_WORDS, boilerplatePage, tablePage } from "../../test/fixtures/hostile/html-pages.js";
import { extractHtmlContent } from "./html-content.js";
import { parseHtmlDocument } from "./html-text.js";

const extract = (html: string, maxScoredElements = 15_000) =>
  extractHtmlContent({ document: parseHtmlDocument(html), maxScoredElements });

describe("extractHtmlContent", () => {
  it("drops navigation, header, footer, sidebar, cookie banner and scripts; keeps the article and its table", () => {
    const { text, extractor } = extract(boilerplatePage());
    expect(extractor).toBe("readability");
    for (const word of BOILERPLATE_WORDS) expect(text).not.toContain(word);
    for (const phrase of ARTICLE.phrases) expect(text).toContain(phrase);
    // The table stays one block: header row directly above its rows.
    expect(text).toContain(
      "Zone | Standard pallet | Oversize pallet\nNorth | 12 EUR | 18 EUR\nSouth | 14 EUR | 21 EUR",
    );
    expect(text.startsWith("# Pallet surcharges\n\n")).toBe(true);
  });

  it("keeps the whole body of a table-only page and of a short page", () => {
    const table = extract(tablePage());
    expect(table.text.split("\n")).toEqual([
      "Hub | Opens",
      ...Array.from({ length: 12 }, (_, i) => `HUB-${i + 1} | ${8 + i}:00`),
    ]);
    const short = extract("<body><nav>Menu</nav><p>Gate 3 is closed today.</p><footer>Legal</footer></body>");
    expect(short.text).toBe("Gate 3 is closed today.");
  });

  it("keeps a page whose only wrapper looks like a banner rather than losing it all", () => {
    const { text } = extract(
      '<body><div class="gdpr-ok"><p>Dock 7 handles reefers.</p><p>Dock 8 handles dry goods.</p></div></body>',
    );
    expect(text).toBe("Dock 7 handles reefers.\n\nDock 8 handles dry goods.");
  });

  it("keeps words like consent inside the article: only banners outside the content go", () => {
    const html =
      '<body><div id="cookie-banner">We use cookies.</div><main><h1>Data policy</h1>' +
      '<section class="consent-rules"><p>Drivers give written consent before dashcam footage is kept.</p></section></main></body>';
    const { text } = extract(html);
    expect(text).not.toContain("We use cookies");
    expect(text).toContain("Drivers give written consent before dashcam footage is kept.");
  });

  it("keeps headers and footers that belong to the article", () => {
    const html =
      "<body><header><nav>Site menu</nav></header><article><header><h1>Dock rules</h1><p>By the hub manager</p></header>" +
      `<p>${"Trucks wait in lane B until called. ".repeat(20)}</p><footer><p>Revised in May 2026.</p></footer></article></body>`;
    const { text } = extract(html);
    expect(text).not.toContain("Site menu");
    expect(text).toContain("# Dock rules");
    expect(text).toContain("Revised in May 2026.");
  });

  it("does not score pages over the element cap: their cleaned body is kept", () => {
    const { text, extractor } = extract(boilerplatePage(), 20);
    expect(extractor).toBe("body");
    for (const phrase of ARTICLE.phrases) expect(text).toContain(phrase);
    expect(text).not.toContain("Accept all cookies");
  });

  it("renders deeply nested markup without exhausting the stack", () => {
    const depth = 20_000;
    const html = `<body>${"<div>".repeat(depth)}deep text${"</div>".repeat(depth)}<p>after</p></body>`;
    const { text } = extract(html);
    expect(text).toContain("deep text");
    expect(text).toContain("after");
  });
});
