import { describe, expect, it } from "vitest";
import type { EvidenceItem } from "../../spec/answer.js";
import type { CallRecord } from "../../spec/engine.js";
import { passageKey } from "../../spec/passage.js";
import { evidence, makeState } from "../__fixtures__/state.js";
import { decompose } from "./analyze.js";
import { answerFromEvidence } from "./answer.js";
import { answerKindOf } from "./answer-kind.js";
import { anchorNeeded, bridgedPair, chainPool } from "./bridge-answer.js";
import type { Candidate } from "./candidates.js";
import { composePart } from "./compose.js";
import { OFFLINE_PRESETS } from "./settings.js";

/** One unit of a hand-made passage, scored as given. */
function unit(n: number, title: string, quote: string, score = 1): Candidate {
  const item = { id: `p${n}`, docId: `d${n}`, source: "wiki", title, text: quote, score: 1 } as EvidenceItem;
  return {
    n,
    step: 1,
    quote,
    title,
    score,
    context: `${title} ${quote}`,
    passageText: `${title}\n${quote}`,
    start: 0,
    asked: 1,
    item,
  };
}

const question = "When did the state containing Varnholt join the Union?";
const part = decompose(question)[0]!;

describe("anchorNeeded", () => {
  const anchor = unit(1, "Varnholt", "Varnholt is a village in the north of Eldoria.");

  it("needs the anchor when the answer's passage does not name what the anchor names", () => {
    const answer = unit(2, "Eldoria", "Eldoria joined the Union on 4 May 1958.");
    expect(anchorNeeded(part, { anchor, answer })).toBe(true);
  });

  it("drops the anchor when the answer's own passage names the question's name too", () => {
    const answer = {
      ...unit(2, "Eldoria", "Eldoria joined the Union on 4 May 1958."),
      passageText: "Eldoria\nEldoria joined the Union on 4 May 1958. Its towns include Varnholt.",
    };
    expect(anchorNeeded(part, { anchor, answer })).toBe(false);
  });
});

describe("bridgedPair", () => {
  const anchor = unit(1, "Varnholt", "Varnholt is a village in the north of Eldoria.");
  const answer = unit(2, "Eldoria", "Eldoria joined the Union on 4 May 1958.", 0.4);
  const decoy = unit(3, "Union history", "The Union was founded in 1921 by six countries.", 0.9);

  it("answers with the bridge's own sentence of the asked kind, and keeps the sentence that named the bridge", () => {
    const pair = bridgedPair(part, [decoy, anchor, answer], question, "date");
    expect(pair?.bridge).toBe("Eldoria");
    expect(pair?.answer.n).toBe(2);
    expect(pair?.anchor.n).toBe(1);
  });

  it("finds no pair when no sentence names what the question names, or the bridge's evidence lacks the kind asked", () => {
    expect(bridgedPair(part, [decoy, answer], question, "date")).toBeUndefined();
    const undated = unit(2, "Eldoria", "Eldoria joined the Union after a vote.");
    expect(bridgedPair(part, [decoy, anchor, undated], question, "date")).toBeUndefined();
  });

  it("prefers a passage titled after the bridge over one that only mentions it", () => {
    const mentions = unit(4, "Treaties", "A treaty with Eldoria joined two ports to the Union in 1960.", 1);
    const pair = bridgedPair(part, [anchor, mentions, answer], question, "date");
    expect(pair?.answer.n).toBe(2);
  });
});

describe("answerFromEvidence with a bridged part", () => {
  const q = "When did the state containing Varnholt join the Customs Union?";
  const items: EvidenceItem[] = [
    { ...evidence(1, "Every country joined the Customs Union after 1921."), title: "Customs Union", step: 1 },
    { ...evidence(2, "Varnholt is a village in the north of Eldoria."), title: "Varnholt", step: 1 },
    { ...evidence(3, "Eldoria joined the Customs Union on 4 May 1958."), title: "Eldoria", step: 2 },
  ];
  const record = (step: number, query: string, keys: EvidenceItem[]): CallRecord => ({
    call: { callId: `c${step}`, tool: "search", args: { corpus: "handbook", query }, subQuestion: 0 },
    step,
    status: "ok",
    passageKeys: keys.map(passageKey),
  });
  const state = makeState({
    question: q,
    standaloneQuestion: q,
    step: 2,
    evidence: items,
    calls: [record(1, q, [items[0]!, items[1]!]), record(2, "Eldoria join customs union", [items[2]!])],
  });
  const parts = decompose(q);

  it("answers with the bridge's value first and still cites the sentence naming the bridge", () => {
    const draft = answerFromEvidence(state, parts, OFFLINE_PRESETS.balanced);
    expect(draft.status).not.toBe("refused");
    expect(draft.claims[0]?.text).toContain("4 May 1958");
    expect(draft.claims.flatMap((c) => c.citations.map((x) => x.n))).toContain(2);
  });

  it("with bridgedAnswer off, the answer does not lead with the bridge's sentence", () => {
    const off = { ...OFFLINE_PRESETS.balanced, hop: { ...OFFLINE_PRESETS.balanced.hop, bridgedAnswer: false } };
    const draft = answerFromEvidence(state, parts, off);
    expect(draft.claims[0]?.citations[0]?.n).not.toBe(3);
  });
});

describe("bridgedPair through a record", () => {
  const q = "Which inspector covers the depot where parcel QZ-3381 was loaded?";
  const p = decompose(q)[0]!;
  /** A unit of a multi-line passage (a record, a table), with the whole passage as its context text. */
  const line = (n: number, title: string, quote: string, passage: string, score = 1): Candidate => ({
    ...unit(n, title, quote, score),
    passageText: `${title}\n${passage}`,
  });
  const record = "parcel_id: QZ-3381\nloading_depot: VXD\nstatus: delivered";
  const anchor = line(1, "Parcel log", "loading_depot: VXD", record);
  const table = "| Depot | Inspector |\n| TRW | Hedda Morrow, covers the north |\n| VXD | Ilse Varga |";
  const other = line(2, "Depot inspectors", "| TRW | Hedda Morrow, covers the north |", table);
  const own = line(3, "Depot inspectors", "| VXD | Ilse Varga |", table, 0.9);

  it("starts from any line of the record the question names, taking its field value as the bridge", () => {
    const pair = bridgedPair(p, [anchor, other, own], q, "entity", { fieldValues: true, unitOwner: 0.8 });
    expect(pair?.anchor.n).toBe(1);
    expect(pair?.bridge).toBe("VXD");
    expect(bridgedPair(p, [anchor, other, own], q, "entity", { fieldValues: false, unitOwner: 0.8 })).toBeUndefined();
  });

  it("answers with the row naming the bridge, not another row of the same table that shares more words", () => {
    const pair = bridgedPair(p, [anchor, other, own], q, "entity", { fieldValues: true, unitOwner: 0.8 });
    expect(pair?.answer.n).toBe(3);
    const flat = bridgedPair(p, [anchor, other, own], q, "entity", { fieldValues: true, unitOwner: 0.5 });
    expect(flat?.answer.n).toBe(2);
  });
});

describe("chainPool", () => {
  const q = "Who leads the crew that maintains the Ostrel Pump?";
  const p = decompose(q)[0]!;
  const doc = (n: number, title: string, docId: string, quote: string, updatedAt: string): Candidate => {
    const c = unit(n, title, quote);
    return { ...c, item: { ...c.item, docId, source: "docs", updatedAt } };
  };
  const anchor = doc(1, "Ostrel Pump", "pump.md", "The Ostrel Pump is maintained by the Harrow Crew.", "2030-01-01");
  const lead = doc(2, "Harrow Crew", "crew.md", "- Crew lead: Mira Tandem", "2030-01-01");
  // The newer crew page also lists the pump, so it competes as a newer value for the same question.
  const rival = {
    ...doc(3, "Harrow Crew", "crew-2031.md", "- Crew lead: Oskar Vell", "2031-01-01"),
    passageText: "Harrow Crew\n- Crew lead: Oskar Vell\n- Looks after: Ostrel Pump",
  };
  const cited = (all: Candidate[]) =>
    composePart({
      question: q,
      part: p,
      kind: answerKindOf(p),
      chosen: [lead, anchor],
      all,
      settings: OFFLINE_PRESETS.balanced.answer,
    }).flatMap((c) => c.citations.map((x) => x.n));

  it("keeps a bridged answer to its chain: no rival of another document is cited", () => {
    expect(cited(chainPool([lead, anchor], [lead, anchor, rival], true, true))).not.toContain(3);
    expect(cited(chainPool([lead, anchor], [lead, anchor, rival], true, false))).toContain(3);
  });

  it("leaves the pool whole for an answer that is no bridged pair", () => {
    expect(chainPool([lead], [lead, rival], false, true)).toHaveLength(2);
  });
});
