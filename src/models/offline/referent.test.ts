import { describe, expect, it } from "vitest";
import type { EngineContext } from "../../spec/engine.js";
import { evidence, makeState, searchRecord } from "../__fixtures__/state.js";
import { aboutThing, decompose } from "./analyze.js";
import { gradeParts } from "./grade.js";
import { planCalls } from "./plan.js";
import { kindValues, referent, referentSearched, referredKind } from "./referent.js";
import { OFFLINE_PRESETS } from "./settings.js";

const ctx: EngineContext = { signal: new AbortController().signal, probe: async () => [] };

describe("referredKind", () => {
  it("is the noun after a demonstrative that points back", () => {
    expect(referredKind("what is that depot's phone number", "en")).toEqual(["depot"]);
    // Folded as the index folds it: the lexicon glosses the German noun.
    expect(referredKind("welche Nummer hat dieses Lager", "de")).toEqual(["warehouse"]);
  });

  it("is empty for a relative clause after a noun, a bare pronoun, or a demonstrative before a stop word", () => {
    expect(referredKind("who runs the depot that ships it", "en")).toEqual([]);
    expect(referredKind("what is its phone number", "en")).toEqual([]);
    expect(referredKind("why is that so", "en")).toEqual([]);
  });
});

describe("kindValues", () => {
  it("reads fields named by the kind, in record lines and two-cell table rows", () => {
    const record = { text: "order_id: ZX-0091\ndepot: Quarrow\nweight_kg: 12.5" };
    const page = { text: "| Field | Value |\n|---|---|\n| Owning depot | Marl Yard |\n| Region | North |" };
    expect(kindValues(["depot"], [record, page])).toEqual(["Quarrow", "Marl Yard"]);
    expect(kindValues(["region"], [record, page])).toEqual(["North"]);
    expect(kindValues(["carrier"], [record, page])).toEqual([]);
  });
});

describe("referent", () => {
  const q = "Which depot shipped order ZX-0091, and what is that depot's phone number?";
  const row = evidence(1, "order_id: ZX-0091\ndepot: Quarrow\nstatus: delivered");
  const rival = evidence(2, "order_id: ZX-0177\ndepot: Marl Yard\nstatus: delivered");

  it("is the one value of the kind in the first part's passages that name its record", () => {
    const state = makeState({
      question: q,
      standaloneQuestion: q,
      evidence: [row, rival],
      calls: [searchRecord("order ZX-0091 depot", [row, rival])],
    });
    const [first] = decompose(q);
    expect(referent(state, ["depot"], first!)).toBe("Quarrow");
  });

  it("is undefined when no passage names the record, or it gives several values", () => {
    const state = makeState({ evidence: [rival], calls: [searchRecord("depot", [rival])] });
    expect(referent(state, ["depot"], { entities: ["ZX-0091"] })).toBeUndefined();
    const both = evidence(3, "order_id: ZX-0091\ndepot: Quarrow\nreturn depot: Marl Yard");
    const two = makeState({ evidence: [both], calls: [searchRecord("depot", [both])] });
    expect(referent(two, ["depot"], { entities: ["ZX-0091"] })).toBeUndefined();
  });
});

describe("a part pointing back to the first part's answer", () => {
  const q = "Which depot shipped order ZX-0091, and what is that depot's phone number?";
  const row = evidence(1, "order_id: ZX-0091\ndepot: Quarrow\nstatus: delivered");
  const phone = evidence(2, "Depot phone numbers: Marl Yard 0400 118 220, and Quarrow shares it.");

  it("is marked by decompose with the kind it names", () => {
    const parts = decompose(q);
    expect(parts[0]!.refersTo).toBeUndefined();
    expect(parts[1]!.refersTo).toEqual(["depot"]);
  });

  it("is searched from the referent first, and is not settled before that search", async () => {
    const state = makeState({
      question: q,
      standaloneQuestion: q,
      step: 2,
      evidence: [row, phone],
      calls: [searchRecord("order ZX-0091 depot", [row]), searchRecord("depot phone number", [phone], { part: 1 })],
    });
    const [first, second] = decompose(q);
    const resolved = aboutThing(second!, "Quarrow");
    expect(resolved.entities).toContain("Quarrow");
    const grade = gradeParts(state, [first!, resolved], OFFLINE_PRESETS.balanced);
    expect(grade.subQuestions[1]!.sufficient).toBe(false);
    expect(grade.subQuestions[1]!.missing[0]).toBe("Quarrow");
    const plan = await planCalls(state, ctx, [first!, resolved], OFFLINE_PRESETS.balanced);
    const query = String(plan.calls[0]?.args.query ?? "");
    expect(referentSearched([query], "Quarrow")).toBe(true);
    expect(plan.calls[0]?.subQuestion).toBe(1);
  });
});
