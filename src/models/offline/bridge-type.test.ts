import { describe, expect, it } from "vitest";
import { decompose } from "./analyze.js";
import { fieldLine, fieldValue, nounCapitalsIn, typeFit, typeWords, unitBridges } from "./bridge-type.js";

const question = "Who is the safety officer at the depot where parcel QZ-3381 was loaded?";
const part = decompose(question)[0]!;
const types = typeWords(part);

describe("typeWords", () => {
  it("keeps the part's words that are not words of a name it gives", () => {
    expect(types.has("depot")).toBe(true);
    const named = typeWords({ terms: ["county", "marrowvale", "border"], entities: ["Marrowvale"] });
    expect([...named].sort()).toEqual(["border", "county"]);
  });
});

describe("typeFit", () => {
  const county = new Set(["county", "border"]);
  it("fits a name that holds a word of the kind asked", () => {
    expect(typeFit("Quillon County", "Marrowvale is a hamlet of Westmarch, in Quillon County.", county)).toBe(1);
    expect(typeFit("Westmarch", "Marrowvale is a hamlet of Westmarch, in Quillon County.", county)).toBe(0);
  });
  it("fits a record's value whose field is named by a word of the kind asked", () => {
    expect(typeFit("VXD", "loading_depot: VXD", types)).toBe(1);
    expect(typeFit("Orrin Haulage", "carrier: Orrin Haulage", types)).toBe(0);
  });
  it("fits nothing when the part has no words besides its names", () => {
    expect(typeFit("Quillon County", "in Quillon County", new Set())).toBe(0);
  });
});

describe("fieldValue", () => {
  it("takes a bare code of a record's field, which the entity extractor does not see alone", () => {
    expect(fieldLine("loading_depot: VXD")).toEqual({ name: ["load", "depot"], value: "VXD" });
    expect(fieldValue("loading_depot: VXD", question, types)).toBe("VXD");
  });
  it("takes a lower-case value only under a field of the kind asked", () => {
    expect(fieldValue("depot: north yard", question, types)).toBe("north yard");
    expect(fieldValue("status: delivered", question, types)).toBeUndefined();
  });
  it("does not take figures, dates, long values, prose or names the question gives", () => {
    expect(fieldValue("loaded_on: 2031-02-03", question, types)).toBeUndefined();
    expect(fieldValue("weight: 12 kg", question, types)).toBeUndefined();
    expect(fieldValue("parcel: QZ-3381", question, types)).toBeUndefined();
    expect(fieldValue("note: the crate was resealed twice before it left", question, types)).toBeUndefined();
    expect(fieldValue("A plain sentence about VXD.", question, types)).toBeUndefined();
  });
});

describe("unitBridges", () => {
  it("adds a record's field value to the extracted names only when field values are on", () => {
    expect(unitBridges("loading_depot: VXD", question, types, true)).toContain("VXD");
    expect(unitBridges("loading_depot: VXD", question, types, false)).not.toContain("VXD");
    // The field's name is no entity.
    expect(unitBridges("loading_depot: VXD", question, types, true)).not.toContain("loading_depot");
  });
});

describe("nounCapitalsIn", () => {
  it("reads a German passage's capitalised nouns as nouns, an English one's as names, and only when on", () => {
    const de = "Der Fahrer wartete an der Schranke, weil die Halle noch nicht frei war und es regnete.";
    const en = "The driver waited at the Barrier because the Hall was not yet free.";
    expect(nounCapitalsIn(de, true)).toBe(true);
    expect(nounCapitalsIn(de, false)).toBe(false);
    expect(nounCapitalsIn(en, true)).toBe(false);
    const question = "Who runs the hall where the driver waited?";
    expect(unitBridges("Der Fahrer wartete an der Schranke.", question, new Set(), false, true)).not.toContain(
      "Schranke",
    );
    expect(unitBridges("Der Fahrer wartete an der Schranke.", question, new Set(), false, false)).toContain("Schranke");
  });
});
