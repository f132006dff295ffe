import { describe, expect, it } from "vitest";
import type { EvidenceItem } from "../../spec/answer.js";
import { evidence, makeState, searchRecord } from "../__fixtures__/state.js";
import { decompose, entitiesOf, nameAsWritten, seamNames } from "./analyze.js";
import { answerFromEvidence } from "./answer.js";
import { type NameSettings, OFFLINE_PRESETS } from "./settings.js";

const ON: NameSettings = { possessive: true, periods: true, seams: true };
const OFF: NameSettings = { possessive: false, periods: false, seams: false };

describe("nameAsWritten", () => {
  it("drops the apostrophe of a plural possessive, not a name's own letters", () => {
    expect(nameAsWritten("Harlow Brothers'", ON)).toEqual(["Harlow Brothers"]);
    expect(nameAsWritten("Harlow Brothers’", ON)).toEqual(["Harlow Brothers"]);
    expect(nameAsWritten("Harlow Brothers'", OFF)).toEqual(["Harlow Brothers'"]);
    expect(nameAsWritten("O'Brian", ON)).toEqual(["O'Brian"]);
  });

  it("drops a name made only of reporting-period codes, keeps names that merely hold one", () => {
    for (const period of ["FY2023", "FY23", "FY'23", "Q3 FY23", "H1", "CY2022"]) {
      expect(nameAsWritten(period, ON)).toEqual([]);
      expect(nameAsWritten(period, OFF)).toEqual([period]);
    }
    expect(nameAsWritten("Fyfield Mills", ON)).toEqual(["Fyfield Mills"]);
    expect(nameAsWritten("Q7 Labs", ON)).toEqual(["Q7 Labs"]);
  });

  it("reads the names of a question through the settings", () => {
    const q = "What were Tamsin Partners' capital expenditures in FY2024";
    expect(entitiesOf(q, "en", ON)).toEqual(["Tamsin Partners"]);
    expect(entitiesOf(q, "en", OFF)).toEqual(["Tamsin Partners'", "FY2024"]);
    expect(decompose(`${q}?`, { names: ON })[0]!.entities).toEqual(["Tamsin Partners"]);
  });
});

describe("a filing's line answers a question naming a company in the possessive and a fiscal year", () => {
  const page: EvidenceItem = {
    ...evidence(
      1,
      "TAMSIN PARTNERS, INC.\nCash flow statement (in millions)\nYear ended June 30, 2024: capital expenditures were 212, against 187 a year earlier.",
    ),
    docId: "filings/tamsin-2024-annual.txt",
    title: "Tamsin Partners annual report 2024",
  };
  const ask = (names: NameSettings) => {
    const q = "What were Tamsin Partners' capital expenditures in FY2024?";
    const state = makeState({ question: q, standaloneQuestion: q, evidence: [page], calls: [searchRecord(q, [page])] });
    return answerFromEvidence(state, decompose(q, { names }), { ...OFFLINE_PRESETS.balanced, names });
  };

  it("answers with the names as the sources write them", () => {
    const draft = ask(ON);
    expect(draft.status).toBe("answered");
    expect(draft.claims.map((c) => c.text).join(" ")).toContain("212");
  });

  it("refuses when the names must be found as the question spells them", () => {
    expect(ask(OFF).status).toBe("refused");
  });
});

describe("the sides of a comparison", () => {
  const question = "Which singer is Danish, Ole Brandt or Kai Moe?";

  it("keep their own names apart from the attribute's last capitalised word", () => {
    const parts = decompose(question, { names: ON });
    expect(parts.map((p) => p.entities)).toEqual([
      ["Danish", "Ole Brandt"],
      ["Danish", "Kai Moe"],
    ]);
  });

  it("read whole, glue the attribute to each name", () => {
    const parts = decompose(question, { names: { ...ON, seams: false } });
    expect(parts.map((p) => p.entities)).toEqual([["Danish Ole Brandt"], ["Danish Kai Moe"]]);
  });
});

describe("seamNames", () => {
  it("splits only a name that runs across the seam", () => {
    expect(seamNames("Which singer is Danish", "Ole Brandt", ["Danish Ole Brandt"], "en", ON)).toEqual([
      "Danish",
      "Ole Brandt",
    ]);
    // Nothing crosses: the side keeps the names the whole text gives it, its leading word too.
    expect(seamNames("Which has the longer timeout", "PUT /v3/orders", ["PUT", "/v3/orders"], "en", ON)).toEqual([
      "PUT",
      "/v3/orders",
    ]);
  });
});
