import { describe, expect, it } from "vitest";
import type { EvidenceItem } from "../../spec/answer.js";
import { makeState, searchRecord } from "../__fixtures__/state.js";
import { aliasCodes, aliasesOf, aliasNames, holdsCode, mentionsAliased, withAliasNames } from "./aliases.js";
import { decompose } from "./analyze.js";
import { answerFromEvidence } from "./answer.js";
import { gradePart } from "./grade.js";
import { aliasCalls, codeKeyedRow } from "./plan.js";
import { OFFLINE_PRESETS } from "./settings.js";

const directory =
  "| Code | Depot | Country |\n|---|---|---|\n| QRV | Quarrow Docks | NL |\n| BLM | Bellmoor Yard | DE |";
const forwarders =
  "## Who ships what\n\n| Depot | Forwarder |\n|---|---|\n| QRV | Halden Shipping BV |\n| BLM | Ostmark Spedition |";

describe("aliasCodes", () => {
  it("reads the code of a directory row whose cell starts with the name, and a code in brackets after it", () => {
    expect(aliasCodes("Quarrow", [directory])).toEqual(["QRV"]);
    expect(aliasCodes("Bellmoor", ["Trucks for Bellmoor Yard (BLM) leave at noon."])).toEqual(["BLM"]);
  });

  it("takes no code from a row that only mentions the name later in a cell, nor from a far bracket", () => {
    expect(aliasCodes("Quarrow", ["| QRV | in-house | team of Quarrow |"])).toEqual([]);
    expect(aliasCodes("Bellmoor", ["Bellmoor trucks go to the port, then by ferry to the (QRV) terminal."])).toEqual(
      [],
    );
    expect(aliasCodes("Tannfield", [directory])).toEqual([]);
  });

  it("gives nothing for a name that is itself a code or an identifier", () => {
    expect(aliasCodes("QRV", [directory])).toEqual([]);
    expect(aliasCodes("ZQ-4417", ["| QRV | ZQ-4417 shipped |"])).toEqual([]);
  });
});

describe("reading a code as its name", () => {
  const aliases = aliasesOf(["Quarrow"], [directory]);

  it("holds a code only as a word of its own", () => {
    expect(holdsCode("| QRV | Halden |", "QRV")).toBe(true);
    expect(holdsCode("QRVX and AQRV", "QRV")).toBe(false);
  });

  it("mentions the name through its code, and adds the name to a text keyed by the code", () => {
    expect(mentionsAliased("| QRV | Halden Shipping BV |", "Quarrow", aliases)).toBe(true);
    expect(mentionsAliased("| BLM | Ostmark Spedition |", "Quarrow", aliases)).toBe(false);
    expect(withAliasNames("| QRV | Halden Shipping BV |", aliases)).toContain("Quarrow");
    expect(withAliasNames("| BLM | Ostmark Spedition |", aliases)).not.toContain("Quarrow");
  });

  it("takes the question's entities and its capitalised words (German nouns too), not identifiers", () => {
    expect(aliasNames({ text: "welche Klassen nimmt Quarrow an", entities: [] })).toEqual(["Klassen", "Quarrow"]);
    expect(aliasNames({ text: "where did ZQ-4417 go", entities: ["ZQ-4417"] })).toEqual([]);
  });
});

function item(n: number, docId: string, text: string): EvidenceItem {
  return { id: `${docId}::0`, docId, source: "handbook", title: docId, text, score: 0.7, step: 1, callId: `c${n}` };
}

describe("a question naming a depot whose rows give only its code", () => {
  const q = "Which forwarder does Quarrow use?";
  const rows = item(1, "ops/forwarders.md", forwarders);
  const sites = item(2, "ops/depots.md", directory);
  const state = makeState({
    question: q,
    standaloneQuestion: q,
    evidence: [rows, sites],
    // The directory row came up for another part of the run: what the evidence gives, not what the part found.
    calls: [searchRecord(q, [rows]), searchRecord("Quarrow", [sites], { callId: "c-dir", part: 1 })],
  });
  const [part] = decompose(q);

  it("grades the code's row as naming the depot only with code aliases on", () => {
    const on = gradePart(state, part!, 0, 0.5, false, true);
    const off = gradePart(state, part!, 0, 0.5, false, false);
    expect(on.missing).not.toContain("Quarrow");
    expect(off.missing).toContain("Quarrow");
  });

  it("answers with the row keyed by the depot's code, not another depot's", () => {
    const draft = answerFromEvidence(state, decompose(q), OFFLINE_PRESETS.balanced);
    const text = draft.claims.map((c) => c.text).join(" ");
    expect(text).toContain("Halden Shipping");
    expect(text).not.toContain("Ostmark");
    const off = { ...OFFLINE_PRESETS.balanced, aliases: { codes: false, searchCodes: false } };
    const without = answerFromEvidence(state, decompose(q), off);
    expect(without.claims.map((c) => c.text).join(" ")).not.toContain("Halden Shipping");
  });
});

describe("aliasCalls", () => {
  const ctx = { signal: new AbortController().signal, probe: async () => [] };
  const q = "Which forwarder does Quarrow use?";
  const rows = item(1, "ops/forwarders.md", forwarders);

  it("looks the name up alone when the evidence is keyed by codes, then searches for its code", async () => {
    expect(codeKeyedRow(forwarders)).toBe(true);
    expect(codeKeyedRow("| Step | When |\n| Departure | Monday |")).toBe(false);
    const first = makeState({ question: q, standaloneQuestion: q, evidence: [rows], calls: [searchRecord(q, [rows])] });
    const [part] = decompose(q);
    const lookup = await aliasCalls(first, ctx, part!, 0, ["quarrow"], OFFLINE_PRESETS.balanced, new Set());
    expect(lookup.calls.map((c) => c.args.query)).toContain("Quarrow");

    const sites = item(2, "ops/depots.md", directory);
    const second = makeState({
      question: q,
      standaloneQuestion: q,
      evidence: [rows, sites],
      calls: [searchRecord(q, [rows]), searchRecord("Quarrow", [sites], { callId: "c-dir" })],
    });
    const byCode = await aliasCalls(second, ctx, part!, 0, ["forwarder"], OFFLINE_PRESETS.balanced, new Set());
    expect(byCode.calls.map((c) => c.args.query)).toContain("QRV forwarder");
  });

  it("makes no call with the setting off", async () => {
    const state = makeState({ question: q, standaloneQuestion: q, evidence: [rows], calls: [searchRecord(q, [rows])] });
    const off = { ...OFFLINE_PRESETS.balanced, aliases: { codes: true, searchCodes: false } };
    const [part] = decompose(q);
    expect((await aliasCalls(state, ctx, part!, 0, ["quarrow"], off, new Set())).calls).toEqual([]);
  });
});
