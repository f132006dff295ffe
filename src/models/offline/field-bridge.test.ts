import { describe, expect, it } from "vitest";
import { fieldBridge, unitBridges } from "./field-bridge.js";

const question = "Who runs the depot where order ZQ-417 was packed?";
const terms = ["run", "depot", "order", "pack"];

describe("fieldBridge", () => {
  it("takes a record field's code as a bridge although it does not look like a name", () => {
    const bridge = fieldBridge("storage_depot: VXQ", question, terms, 0.3);
    expect(bridge?.value).toBe("VXQ");
    // The field's name shares "depot" (one of its two words) with the question.
    expect(bridge?.fit).toBeCloseTo(0.5);
  });

  it("penalises a lower-case value of a field the question does not ask about", () => {
    const bridge = fieldBridge("severity: moderate", question, terms, 0.3);
    expect(bridge?.fit).toBeCloseTo(-0.3);
  });

  it("does not take figures, dates, long values or names the question gives", () => {
    expect(fieldBridge("packed_on: 2031-02-03", question, terms, 0.3)).toBeUndefined();
    expect(fieldBridge("weight: 12 kg", question, terms, 0.3)).toBeUndefined();
    expect(fieldBridge("order: ZQ-417", question, terms, 0.3)).toBeUndefined();
    expect(
      fieldBridge("note: the crate was resealed twice before it left the hall", question, terms, 0.3),
    ).toBeUndefined();
    expect(fieldBridge("A plain sentence about VXQ.", question, terms, 0.3)).toBeUndefined();
  });
});

describe("unitBridges", () => {
  it("adds the field value to the extracted names only when field bridges are on", () => {
    const on = unitBridges("packing_depot: VXQ", question, terms, { fields: true, genericPenalty: 0.3 });
    const off = unitBridges("packing_depot: VXQ", question, terms, { fields: false, genericPenalty: 0.3 });
    expect(on.map((b) => b.value)).toContain("VXQ");
    expect(off.map((b) => b.value)).not.toContain("VXQ");
  });
});
