import { describe, expect, it } from "vitest";
import { answerTypeOf, askedFor, decompose } from "./analyze.js";

describe("decompose", () => {
  it("splits a compound question at clauses that start a new question, resolving pronouns", () => {
    const parts = decompose("What is the refund timeout, who maintains it, and were there complaints last week?");
    expect(parts.map((p) => p.text)).toEqual([
      "What is the refund timeout",
      "who maintains it",
      "were there complaints last week",
    ]);
    expect(parts[1]!.query).toContain("refund timeout");
  });

  it("keeps a single question whole and marks a relative-clause chain", () => {
    const [part, ...rest] = decompose("Who leads the team that owns the service behind the /v2/refunds endpoint?");
    expect(rest).toHaveLength(0);
    expect(part!.chain).toBe(true);
    expect(part!.head).toEqual(["lead", "team"]);
    expect(part!.entities).toContain("/v2/refunds");
    expect(part!.answerType).toBe("person");
  });

  it("splits comparisons into one part per alternative", () => {
    const parts = decompose("Which incident lasted longer, INC-2026-031 or INC-2026-045?");
    expect(parts).toHaveLength(2);
    expect(parts[0]!.entities).toEqual(["INC-2026-031"]);
    expect(parts[1]!.entities).toEqual(["INC-2026-045"]);
    const both = decompose("Are Christopher Nolan and Sathish Kalathil both film directors?");
    expect(both.map((p) => p.entities[0])).toEqual(["Christopher Nolan", "Sathish Kalathil"]);
    expect(both[0]!.terms).toContain("director");
  });

  it("does not split a noun phrase joined by and", () => {
    expect(decompose("What are the parameters and limits of the payouts API?")).toHaveLength(1);
  });

  it("flags aggregation questions", () => {
    expect(decompose("How many sev2 tickets were created in March?")[0]!.aggregation).toBe(true);
  });
});

describe("answerTypeOf", () => {
  it("reads the wanted kind of answer from the question", () => {
    expect(answerTypeOf("Who was the incident commander?")).toBe("person");
    expect(answerTypeOf("When is the weekly handoff?")).toBe("date");
    expect(answerTypeOf("How long did it last?")).toBe("duration");
    expect(answerTypeOf("How many tickets are open?")).toBe("number");
    expect(answerTypeOf("Are both film directors?")).toBe("yesno");
  });
});

describe("askedFor", () => {
  it("names what a wh-question asks for", () => {
    expect(askedFor("What weekly stipend does an engineer on primary on-call receive?")).toEqual(["weekly", "stipend"]);
    expect(askedFor("How many engineers are in the rotation?")).toEqual(["engineers"]);
    expect(askedFor("Who leads the team?")).toEqual([]);
  });
});
