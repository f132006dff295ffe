import { describe, expect, it } from "vitest";
import type { EvidenceItem } from "../../spec/answer.js";
import { makeState, searchRecord } from "../__fixtures__/state.js";
import { decompose } from "./analyze.js";
import { answerFromEvidence } from "./answer.js";
import { codesFor } from "./compare-values.js";
import { OFFLINE_PRESETS } from "./settings.js";

describe("codesFor", () => {
  const directory =
    "| Code | Site | Country |\n|---|---|---|\n| QRV | Quarrow Docks | NL |\n| BLM | Bellmoor Yard | DE |";

  it("reads the key cell of a row that names the thing, and a code in brackets right after its name", () => {
    expect(codesFor("Quarrow", [directory])).toEqual(["QRV"]);
    expect(codesFor("Bellmoor", ["Loading rules at the Bellmoor Yard (BLM) depot."])).toEqual(["BLM"]);
  });

  it("takes no code from rows or brackets about something else", () => {
    expect(codesFor("Tannfield", [directory])).toEqual([]);
    expect(codesFor("Bellmoor", ["Bellmoor trucks go to the port, then by ferry to the (QRV) terminal."])).toEqual([]);
    // A record's field table: the key cell is a label, not a code.
    expect(codesFor("Quarrow", ["| Site | Quarrow Docks |"])).toEqual([]);
  });
});

describe("a comparison over a table keyed by codes", () => {
  const item = (n: number, docId: string, title: string, text: string): EvidenceItem => ({
    id: `${docId}::0`,
    docId,
    source: "handbook",
    title,
    text,
    score: 0.8,
    step: 1,
    callId: `c${n}`,
  });
  const times = item(
    1,
    "ops/departures.md",
    "Departure times",
    "## Truck departures\n\n| Depot | Truck | Barge |\n|---|---|---|\n| QRV | 17:45 | 09:00 |\n| BLM | 16:10 | 11:30 |\n| TNF | 16:10 | – |",
  );
  const sites = item(
    2,
    "ops/sites.md",
    "Site list",
    "| Code | Site | Country |\n|---|---|---|\n| QRV | Quarrow Docks | NL |\n| BLM | Bellmoor Yard | DE |",
  );
  const q = "Which depot has the later truck departure, Quarrow or Bellmoor?";
  const state = makeState({
    question: q,
    standaloneQuestion: q,
    evidence: [times, sites],
    calls: [searchRecord(`${q} Quarrow`, [times, sites]), searchRecord(`${q} Bellmoor`, [times, sites], { part: 1 })],
  });

  it("reads each side from its own row, found by the code the evidence gives for it", () => {
    const draft = answerFromEvidence(state, decompose(q), OFFLINE_PRESETS.balanced);
    const text = draft.claims.map((c) => c.text).join(" ");
    expect(text).toContain("17:45");
    expect(text).toContain("16:10");
    expect(text.indexOf("Quarrow")).toBeLessThan(text.indexOf("Bellmoor"));
  });
});
