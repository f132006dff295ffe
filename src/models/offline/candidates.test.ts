import { describe, expect, it } from "vitest";
import type { EvidenceItem } from "../../spec/answer.js";
import { makeState, searchRecord } from "../__fixtures__/state.js";
import { decompose } from "./analyze.js";
import { candidates, cjkNamesHeld, evidenceForPart, fieldNameTerms, wordTerms } from "./candidates.js";

describe("wordTerms", () => {
  it("drops CJK pairs that straddle two words but keeps the words", () => {
    const part = decompose("地面站主天线的直径是多少？")[0]!;
    const terms = wordTerms(part);
    expect(terms).toContain("直径");
    expect(terms).not.toContain("径是");
  });
});

describe("cjkNamesHeld", () => {
  it("needs every long CJK word of the question in the answer's sentences", () => {
    const part = decompose("名古屋倉庫の入荷受付時間は何時から何時までですか？")[0]!;
    expect(cjkNamesHeld(part, "大阪南港倉庫: 入荷受付は 8:00〜17:00 です。", 3)).toBe(false);
    expect(cjkNamesHeld(part, "名古屋倉庫: 入荷受付は 8:00〜17:00 です。", 3)).toBe(true);
  });
});

describe("evidenceForPart", () => {
  const item = (docId: string, text: string): EvidenceItem => ({
    id: `${docId}::0`,
    docId,
    source: "reports",
    text,
    score: 0.7,
    step: 1,
    callId: docId,
  });
  const call = (part: number, query: string, items: EvidenceItem[]) =>
    searchRecord(query, items, { part, corpus: "reports" });
  const named = item("reports.jsonl#QX-41", "The dock door jammed. Follow-up: hinges replaced, crew briefed.");
  const sibling = item("reports.jsonl#RB-17", "Follow-up: lighting added at the ramp.");
  const state = makeState({
    standaloneQuestion: "What happened in QX-41, and what follow-up was done?",
    evidence: [named, sibling],
    calls: [call(0, "What happened in QX-41", [named]), call(1, "what follow-up was done", [sibling])],
  });

  it("gives a later clause the record the question names by id, found by another clause", () => {
    const docs = evidenceForPart(state, 1, ["QX-41"]).flatMap((e) => e.passages.map((p) => p.passage.docId));
    expect(docs).toContain("reports.jsonl#QX-41");
  });

  it("adds nothing when the question names no id", () => {
    const docs = evidenceForPart(state, 1, []).flatMap((e) => e.passages.map((p) => p.passage.docId));
    expect(docs).toEqual(["reports.jsonl#RB-17"]);
  });

  it("keeps a sibling record of the named one out of the candidates", () => {
    const parts = decompose(state.standaloneQuestion);
    const docs = candidates(state, parts[1]!, 1, "fact").map((c) => c.item.docId);
    expect(docs).not.toContain("reports.jsonl#RB-17");
    expect(docs).toContain("reports.jsonl#QX-41");
  });
});

describe("candidates under a heading", () => {
  const page: EvidenceItem = {
    id: "guide/relay.md::0",
    docId: "guide/relay.md",
    source: "guide",
    title: "Relay",
    text: [
      "# Relay",
      "",
      "The relay forwards parcels to depots that the depot owner registers.",
      "",
      "## Seals",
      "",
      "Each crate carries a wax stamp with the depot crest.",
    ].join("\n"),
    score: 0.6,
    step: 1,
    callId: "c1",
  };
  const question = "How are relay crates sealed?";
  const state = makeState({
    standaloneQuestion: question,
    evidence: [page],
    calls: [searchRecord(question, [page], { part: 0, corpus: "guide" })],
  });

  it("counts the heading a sentence sits under as what the sentence is about", () => {
    const part = decompose(question)[0]!;
    const ranked = candidates(state, part, 0, "fact");
    expect(ranked[0]?.quote).toBe("Each crate carries a wax stamp with the depot crest.");
    expect(ranked[0]?.context).toContain("Seals");
  });
});

describe("what a unit says of what is asked", () => {
  const row: EvidenceItem = {
    id: "depots.md::0",
    docId: "depots.md",
    source: "handbook",
    text: "| MXP | Milan Malpensa | IT | 14 dock doors |",
    score: 0.7,
    step: 2,
    callId: "by-name",
  };

  it("is not lifted by a search for the question's name alone", () => {
    const q = "What is the tugger speed limit at the Milan depot?";
    const state = makeState({
      question: q,
      standaloneQuestion: q,
      evidence: [row],
      calls: [searchRecord("Milan", [row])],
    });
    const part = decompose(q)[0]!;
    const [best] = candidates(state, part, 0, "number");
    expect(best?.quote).toContain("Milan Malpensa");
    expect(best!.asked).toBeLessThan(0.5);
  });

  it("counts the words a hop searched for beyond the question's names", () => {
    const q = "What is the tugger speed limit at the Milan depot?";
    const state = makeState({
      question: q,
      standaloneQuestion: q,
      evidence: [row],
      calls: [searchRecord("Malpensa dock doors", [row])],
    });
    const [best] = candidates(state, decompose(q)[0]!, 0, "number");
    expect(best!.asked).toBe(1);
  });
});

describe("candidates with other word forms", () => {
  const page: EvidenceItem = {
    id: "guide/kennel.md::0",
    docId: "guide/kennel.md",
    source: "guide",
    title: "Kennel rules",
    text: [
      "# Kennel rules",
      "",
      "Ferrets travel in padded kennels on the lower deck.",
      "If a ferret sneezes for longer than 2 days, it is isolated in the side room.",
    ].join("\n"),
    score: 0.6,
    step: 1,
    callId: "c1",
  };
  const record: EvidenceItem = {
    id: "log.csv#P-7::0",
    docId: "log.csv#P-7",
    source: "log",
    text: "parcel_id: P-7\nweighed_on: 2025-11-02\nshipped_on: 2025-11-04",
    score: 0.6,
    step: 1,
    callId: "c2",
  };
  const stateOf = (question: string, item: EvidenceItem) =>
    makeState({
      standaloneQuestion: question,
      evidence: [item],
      calls: [searchRecord(question, [item], { part: 0, corpus: item.source })],
    });

  it("counts a word in another form as the word asked", () => {
    const question = "When does a ferret isolate in the kennels?";
    const part = decompose(question)[0]!;
    const on = candidates(stateOf(question, page), part, 0, "fact");
    const off = candidates(stateOf(question, page), part, 0, "fact", {
      skipBoilerplate: true,
      anchorIdentifiers: true,
      fieldLabelWeight: 0.3,
      wordForms: false,
    });
    const sneeze = (list: typeof on) => list.find((c) => c.quote.includes("sneezes"))!;
    expect(sneeze(on).asked).toBeGreaterThan(sneeze(off).asked);
  });

  it("reads a snake_case field name as its words", () => {
    const question = "When was P-7 shipped?";
    const part = decompose(question)[0]!;
    const ranked = candidates(stateOf(question, record), part, 0, "date");
    expect(ranked[0]?.quote).toBe("shipped_on: 2025-11-04");
  });
});

describe("fieldNameTerms", () => {
  it("gives the words of a snake_case field name", () => {
    expect(fieldNameTerms({ text: "weighed_on: 2025-11-02" })).toContain("weigh");
  });

  it("gives nothing for a field that holds another record's code", () => {
    expect(fieldNameTerms({ text: "courier_id: c_4411" })).toEqual([]);
    expect(fieldNameTerms({ text: "courier_id: QX-41" })).toEqual([]);
  });
});
