import { describe, expect, it } from "vitest";
import type { EvidenceItem } from "../../spec/answer.js";
import { evidence, makeState, searchRecord } from "../__fixtures__/state.js";
import { decompose } from "./analyze.js";
import { answerFromEvidence } from "./answer.js";
import { readable } from "./compose.js";
import { selfLabelled, unitsOf } from "./evidence-view.js";
import { OFFLINE_PRESETS } from "./settings.js";

/** A statement page as the PDF loader writes a filing's table: each row its label, then `header: value` cells. */
const PAGE = [
  "# Statement of income",
  "",
  "Ferry tolls | Year ended March 31, 2025: $1,840 | 2024: $1,615",
  "Harbour fees | Year ended March 31, 2025: 422 | 2024: 398",
  "Operating profit | Year ended March 31, 2025: 301 | 2024: 276",
].join("\n");

describe("selfLabelled", () => {
  it("holds for a row whose cells after the label are each header: value", () => {
    expect(selfLabelled("Ferry tolls | Year ended March 31, 2025: $1,840 | 2024: $1,615")).toBe(true);
  });

  it("does not hold for a header row, a row of times or a row with a link", () => {
    expect(selfLabelled("Route | Tolls | Fees")).toBe(false);
    expect(selfLabelled("North pier | 06:30 | 21:45")).toBe(false);
    expect(selfLabelled("Timetable | https://ferries.example/t | note: daily")).toBe(false);
  });
});

describe("rows that carry their own headers", () => {
  it("are each a unit, the table's first row too", () => {
    const units = unitsOf(PAGE, { labelledRows: true }).filter((u) => u.text.includes("|"));
    expect(units.map((u) => u.text.split(" | ")[0])).toEqual(["Ferry tolls", "Harbour fees", "Operating profit"]);
    expect(units.every((u) => u.header === undefined)).toBe(true);
  });

  it("lose the first row as a header when read as a plain table", () => {
    const units = unitsOf(PAGE, { labelledRows: false }).filter((u) => u.text.includes("|"));
    expect(units.map((u) => u.text.split(" | ")[0])).toEqual(["Harbour fees", "Operating profit"]);
  });

  it("read as their label, then their cells", () => {
    expect(readable("Harbour fees | Year ended March 31, 2025: 422 | 2024: 398")).toBe(
      "Harbour fees: Year ended March 31, 2025: 422; 2024: 398",
    );
  });

  const page: EvidenceItem = {
    ...evidence(1, PAGE),
    docId: "filings/skerry-line-2025.pdf",
    title: "Skerry Line annual report",
  };
  const ask = (labelledRows: boolean) => {
    const q = "What were the ferry tolls of Skerry Line in 2024?";
    const state = makeState({ question: q, standaloneQuestion: q, evidence: [page], calls: [searchRecord(q, [page])] });
    const settings = OFFLINE_PRESETS.balanced;
    return answerFromEvidence(state, decompose(q), { ...settings, answer: { ...settings.answer, labelledRows } });
  };

  it("answer for the table's first row", () => {
    const draft = ask(true);
    expect(draft.status).toBe("answered");
    expect(draft.claims.map((c) => c.text).join(" ")).toContain("2024: $1,615");
  });

  it("without the setting, the first row's value is not what answers", () => {
    const draft = ask(false);
    expect(draft.claims.map((c) => c.text).join(" ")).not.toContain("$1,615");
  });
});
