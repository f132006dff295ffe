import { describe, expect, it } from "vitest";
import { item } from "../../../../test/fixtures/pdf/items.js";
import { pageLines, toItems } from "./lines.js";
import { renderPage } from "./render.js";

const lines = (raw: Parameters<typeof toItems>[0]) => pageLines(toItems(raw).upright);

describe("renderPage", () => {
  it("joins the lines of a paragraph that reach the margin, keeps short lines, and parts paragraphs at gaps", () => {
    const page = lines([
      item("The pad crew arms the igniter ninety seconds before the", 72, 720),
      item("launch and leaves the pad.", 72, 708),
      item("Telemetry", 72, 696),
      item("Forward-looking statements are subject to risks and uncer-", 72, 670),
      item("tainties. 打ち上げの日は", 72, 658),
    ]);
    expect(renderPage({ lines: page, tables: [], headings: [] })).toBe(
      "The pad crew arms the igniter ninety seconds before the launch and leaves the pad.\nTelemetry\n\n" +
        "Forward-looking statements are subject to risks and uncer-tainties. 打ち上げの日は",
    );
  });

  it("writes headings as # lines, inserted or in place of their lines, and tables as their rows", () => {
    const page = lines([item("Revenue", 72, 720), item("Body.", 72, 700), item("Cash | 5", 72, 680)]);
    const text = renderPage({
      lines: page,
      tables: [{ start: 2, end: 3, rows: ["Cash | July 1, 2023: 5"] }],
      headings: [
        { start: 0, end: 0, text: "Results", level: 1 },
        { start: 0, end: 1, text: "Revenue", level: 2 },
      ],
    });
    expect(text).toBe("# Results\n\n## Revenue\n\nBody.\n\nCash | July 1, 2023: 5");
  });

  it("escapes a text line that Markdown would read as a heading or a fence", () => {
    const page = lines([item("# of shares outstanding", 72, 720), item("```js", 72, 690)]);
    expect(renderPage({ lines: page, tables: [], headings: [] })).toBe("\\# of shares outstanding\n\n\\```js");
  });
});
