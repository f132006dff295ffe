import { describe, expect, it } from "vitest";
import type { EvidenceItem } from "../../spec/answer.js";
import { makeState, searchRecord } from "../__fixtures__/state.js";
import { decompose } from "./analyze.js";
import { answerKindOf } from "./answer-kind.js";
import { hasAnswerType, placeLabel } from "./answer-types.js";
import { candidates } from "./candidates.js";

describe("the place kind", () => {
  it("is asked by a question led by where (not a relative clause), in English, German, Chinese and Japanese", () => {
    expect(answerKindOf({ text: "where did the crates end up", answerType: "fact" })).toBe("place");
    expect(answerKindOf({ text: "Wohin ging die Lieferung", answerType: "fact" })).toBe("place");
    expect(answerKindOf({ text: "这批货运到哪里了", answerType: "fact" })).toBe("place");
    expect(answerKindOf({ text: "荷物はどこに届きましたか", answerType: "fact" })).toBe("place");
    expect(answerKindOf({ text: "what is the depot where crates wait", answerType: "fact" })).toBe("fact");
  });

  it("is held by a field labelled as a place, not by an identifier field; prose always may say it", () => {
    expect(placeLabel("destination_country")).toBe(true);
    expect(placeLabel("Zielland")).toBe(true);
    expect(placeLabel("parcel_id")).toBe(false);
    expect(hasAnswerType("destination_city: Tannfield", "place")).toBe(true);
    expect(hasAnswerType("parcel_id: ZQ-4417", "place")).toBe(false);
    expect(hasAnswerType("The crates were unloaded in Tannfield.", "place")).toBe(true);
  });

  it("takes a field of where something came from only when the question asks where from", () => {
    expect(hasAnswerType("origin_depot: QRV", "place", "where did the crates go")).toBe(false);
    expect(hasAnswerType("origin_depot: QRV", "place", "where did the crates come from")).toBe(true);
    expect(hasAnswerType("destination_city: Tannfield", "place", "where did the crates go")).toBe(true);
  });

  it("ranks a record's place field above its id field for a where-question", () => {
    const record: EvidenceItem = {
      id: "parcels.csv#ZQ-4417::0",
      docId: "parcels.csv#ZQ-4417",
      source: "parcels",
      title: "ZQ-4417",
      text: "parcel_id: ZQ-4417\nweight_kg: 12\ndestination_city: Tannfield",
      score: 0.8,
      step: 1,
      callId: "c1",
    };
    const q = "where did ZQ-4417 end up";
    const state = makeState({
      question: q,
      standaloneQuestion: q,
      evidence: [record],
      calls: [searchRecord(q, [record])],
    });
    const [part] = decompose(q);
    const best = candidates(state, part!, 0, answerKindOf(part!))[0];
    expect(best?.quote).toBe("destination_city: Tannfield");
    const asFact = candidates(state, part!, 0, "fact")[0];
    expect(asFact?.quote).not.toBe("destination_city: Tannfield");
  });
});
