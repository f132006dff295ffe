import { describe, expect, it } from "vitest";
import type { EvidenceItem } from "../../spec/answer.js";
import { evidence, makeState, searchRecord } from "../__fixtures__/state.js";
import { decompose } from "./analyze.js";
import { answerFromEvidence } from "./answer.js";
import { isContentsPassage } from "./answer-units.js";
import { gradePart } from "./grade.js";
import { askedLineItem, lineItemsIn, rowFit, searchNameFor, statedLineItems, statesLineItem } from "./line-items.js";
import { OFFLINE_PRESETS } from "./settings.js";

/** A made-up ferry operator's statement page, its rows as the PDF loader writes them. */
const PAGE = [
  "# Statement of income",
  "",
  "Net sales | Year ended March 31, 2025: $1,840 | 2024: $1,615",
  "Cost of sales | Year ended March 31, 2025: 1,120 | 2024: 990",
  "Research and development | Year ended March 31, 2025: 96 | 2024: 88",
  "Income before income taxes | Year ended March 31, 2025: 301 | 2024: 276",
  "Provision for income taxes | Year ended March 31, 2025: 66 | 2024: 60",
  "Profit for the year | Year ended March 31, 2025: 235 | 2024: 216",
].join("\n");

const itemOf = (text: string) => askedLineItem(text)?.item;

describe("line items", () => {
  it("a question names one item under any of its names", () => {
    expect(itemOf("How much revenue did Skerry Line book in 2024?")).toBe(itemOf("What were Skerry Line's net sales?"));
    expect(itemOf("What was the R&D spend?")).toBe(itemOf("research and development costs"));
    expect(itemOf("What was the net profit?")).toBe(itemOf("Profit for the year"));
    expect(itemOf("Who founded Skerry Line?")).toBeUndefined();
    expect(askedLineItem("What was the R&D spend?")?.names).toEqual(["r&d"]);
    // A metric named after an item is not that item.
    expect(itemOf("What was the net revenue retention rate?")).not.toBe(itemOf("net revenue"));
  });

  it("a longer name wins over a shorter one inside it", () => {
    expect([...lineItemsIn("Income before income taxes").keys()]).toEqual([itemOf("pretax income")]);
    expect(lineItemsIn("Cost of sales").has(itemOf("net sales") ?? -1)).toBe(false);
  });

  it("a caption without a figure states no item", () => {
    expect(statesLineItem({ text: "Net sales:", start: 0, end: 10 }, itemOf("revenue") ?? -1)).toBe(false);
    expect(statesLineItem({ text: "#### Revenue 2025 Revenue 2024", start: 0, end: 30 }, itemOf("revenue") ?? -1)).toBe(
      false,
    );
  });

  it("a row states the item its label names, not a neighbour's", () => {
    const tax = itemOf("How much income tax was recorded?") ?? -1;
    const row = (text: string) => ({ text, start: 0, end: text.length });
    expect(statesLineItem(row("Provision for income taxes | 2025: 66 | 2024: 60"), tax)).toBe(true);
    expect(statesLineItem(row("Income before income taxes | 2025: 301 | 2024: 276"), tax)).toBe(false);
    // A segment row is labelled by its segment; its headers name the item.
    const revenue = itemOf("revenue") ?? -1;
    expect(
      statesLineItem(
        { ...row("| Ferries | 1,105 | 171 |"), header: ["Segment", "Revenue", "Operating profit"] },
        revenue,
      ),
    ).toBe(true);
  });
});

describe("rowFit", () => {
  const row = (text: string) => ({ text, start: 0, end: text.length });
  it("fits a total or the bare item wholly, a part of it less", () => {
    const revenue = itemOf("revenue") ?? -1;
    const asked = new Set(["skerry", "line", "revenue", "2024"]);
    expect(rowFit(row("Total net sales | 2025: 1,840 | 2024: 1,615"), revenue, asked)).toBe(1);
    expect(rowFit(row("Net sales: Tickets | 2025: 1,412 | 2024: 1,268"), revenue, asked)).toBeLessThan(0.5);
    expect(rowFit(row("Net sales: Tickets | 2025: 1,412 | 2024: 1,268"), revenue, new Set(["tickets"]))).toBe(0.5);
    expect(rowFit(row("Cost of sales | 2025: 1,120 | 2024: 990"), revenue, asked)).toBe(0);
  });
});

describe("a statement page of small figures", () => {
  it("is not a table of contents when its rows carry their own headers", () => {
    expect(isContentsPassage({ text: PAGE }, { labelledRows: true })).toBe(false);
    expect(isContentsPassage({ text: PAGE }, { labelledRows: false })).toBe(true);
  });

  it("is not a table of contents when its rows hold two figures or more", () => {
    const segments = [
      "Ferries | 1,520 | 1,402 | 228 | 190",
      "Freight | 1,105 | 1,018 | 171 | 139",
      "Charters | 650 | 590 | 82 | 67",
      "Total | 3,275 | 3,010 | 481 | 396",
    ].join("\n");
    expect(isContentsPassage({ text: segments }, { labelledRows: true })).toBe(false);
    expect(isContentsPassage({ text: segments }, { labelledRows: false })).toBe(true);
    const contents = ["Overview | 3", "Results of operations | 7", "Liquidity | 12", "Risk factors | 15"].join("\n");
    expect(isContentsPassage({ text: contents }, { labelledRows: true })).toBe(true);
  });
});

describe("questions about statement line items", () => {
  const page: EvidenceItem = {
    ...evidence(1, PAGE),
    docId: "filings/skerry-line-2025.pdf",
    title: "Skerry Line annual report",
  };
  const ask = (q: string, lineItems: boolean) => {
    const state = makeState({ question: q, standaloneQuestion: q, evidence: [page], calls: [searchRecord(q, [page])] });
    const settings = OFFLINE_PRESETS.balanced;
    return answerFromEvidence(state, decompose(q), { ...settings, answer: { ...settings.answer, lineItems } });
  };
  const said = (q: string, lineItems: boolean) =>
    ask(q, lineItems)
      .claims.map((c) => c.text)
      .join(" ");

  it("read the row labelled by a synonym of the asked item", () => {
    expect(said("How much did Skerry Line spend on R&D in 2024?", true)).toContain("88");
    expect(said("How much revenue did Skerry Line report in 2024?", true)).toContain("1,615");
  });

  it("a sentence naming the item only as the base of a ratio does not state it", () => {
    const prose: EvidenceItem = {
      ...page,
      text: "Gross margin as a percentage of net sales was 40.0% compared with 39.2% in 2024. Freight volumes rose.",
    };
    const q = "How much revenue did Skerry Line report in 2024?";
    const state = makeState({
      question: q,
      standaloneQuestion: q,
      evidence: [prose],
      calls: [searchRecord(q, [prose])],
    });
    const answer = answerFromEvidence(state, decompose(q), OFFLINE_PRESETS.balanced);
    expect(answer.claims.map((c) => c.text).join(" ")).not.toContain("39.2%");
    expect(statedLineItems("Gross margin as a percentage of net sales was 40.0%")).toEqual(
      new Set([askedLineItem("gross margin?")!.item]),
    );
    // The ratio's own item is stated: "R&D was 12% of revenue" is about R&D.
    expect(statedLineItems("R&D was 12% of total revenue in 2024.")).toEqual(new Set([askedLineItem("R&D?")!.item]));
    expect(statedLineItems("Net sales were $1,615 million, and R&D was 5% of net sales.")).toEqual(
      new Set([askedLineItem("revenue?")!.item, askedLineItem("R&D?")!.item]),
    );
  });

  it("without the setting, the synonym's row is not what answers", () => {
    expect(said("How much did Skerry Line spend on R&D in 2024?", false)).not.toContain("88");
  });

  it("read the total row rather than a part of the item", () => {
    const parts: EvidenceItem = {
      ...page,
      text: [
        "# Statement of income",
        "",
        "Net sales: Tickets | Year ended March 31, 2025: 1,412 | 2024: 1,268",
        "Net sales: Freight | Year ended March 31, 2025: 428 | 2024: 347",
        "Total net sales | Year ended March 31, 2025: 1,840 | 2024: 1,615",
      ].join("\n"),
    };
    const q = "How much revenue did Skerry Line report in 2024?";
    const state = makeState({
      question: q,
      standaloneQuestion: q,
      evidence: [parts],
      calls: [searchRecord(q, [parts])],
    });
    const settings = OFFLINE_PRESETS.balanced;
    const first = (lineItemRowWeight: number) =>
      answerFromEvidence(state, decompose(q), { ...settings, answer: { ...settings.answer, lineItemRowWeight } })
        .claims[0]?.text ?? "";
    expect(first(settings.answer.lineItemRowWeight)).toContain("1,615");
    expect(first(0)).not.toContain("1,615");
  });

  it("refuse an item no row states rather than answer from a neighbour", () => {
    const q = "What was Skerry Line's goodwill in 2024?";
    expect(ask(q, true).claims).toEqual([]);
    expect(ask(q, false).claims.length).toBeGreaterThan(0);
  });
});

describe("a line item asked by a one-word name", () => {
  it("adds the item's full name to the search only where the question gives a one-word name", () => {
    expect(searchNameFor(askedLineItem("What did Skerry spend on R&D?")!)).toBe("research and development");
    expect(searchNameFor(askedLineItem("What was capex in 2024?")!)).toBe("capital expenditures");
    // The full name, or any name of several words, is searched as the question says it.
    expect(searchNameFor(askedLineItem("What was research and development expense?")!)).toBeUndefined();
    expect(searchNameFor(askedLineItem("What were net sales in 2024?")!)).toBeUndefined();
  });

  it("analysis: the part knows the item, its search says the full name, its graded words stay the question's", () => {
    const q = "How much did Skerry Line spend on R&D in 2024?";
    const [plain] = decompose(q);
    const [part] = decompose(q, { lineItems: true });
    expect(plain!.lineItem).toBeUndefined();
    expect(plain!.query).not.toContain("research");
    expect(part!.query).toBe(`${plain!.query} research and development`);
    expect(part!.terms).toEqual(plain!.terms);
    expect(part!.lineItem?.terms).toEqual(["r", "d"]);
  });

  it("grade: a row naming the item under another name covers the question's words for it", () => {
    const q = "How much did Skerry Line spend on R&D in 2024?";
    const [part] = decompose(q, { lineItems: true });
    const [plain] = decompose(q);
    const page = { ...evidence(1, PAGE), title: "Skerry Line annual report" };
    const state = makeState({ question: q, standaloneQuestion: q, evidence: [page], calls: [searchRecord(q, [page])] });
    expect(gradePart(state, plain!, 0, 0.8).missing).toEqual(expect.arrayContaining(["r", "d"]));
    const graded = gradePart(state, part!, 0, 0.8);
    expect(graded.missing).not.toContain("r");
    expect(graded.missing).not.toContain("d");
    expect(graded.coverage).toBeGreaterThan(gradePart(state, plain!, 0, 0.8).coverage);
  });
});
