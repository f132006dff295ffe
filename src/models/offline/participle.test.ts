import { describe, expect, it } from "vitest";
import { decompose } from "./analyze.js";
import { participleClause } from "./participle.js";

describe("participleClause", () => {
  it("finds a thing described by a participle and its preposition (English)", () => {
    const text = "Orla Venn hosts a quiz show aired by which channel";
    const clause = participleClause(text, "en");
    expect(clause).toBeDefined();
    expect(text.slice(clause!.start, clause!.at)).toBe("a quiz show ");
    expect(text.slice(clause!.at)).toMatch(/^aired by/);
    expect(participleClause("Which mill was built by the brewer born in Harlow Vale", "en")).toBeDefined();
  });

  it("does not read a main-clause passive or a bare participle as a described thing", () => {
    expect(participleClause("Who built the mill in Harlow Vale", "en")).toBeUndefined();
    expect(participleClause("When was the Harlow Vale mill founded", "en")).toBeUndefined();
    expect(participleClause("Which award was given to Orla Venn", "en")).toBeUndefined();
  });

  it("reads German participles after and before the noun", () => {
    expect(participleClause("Wer leitet den von Jonas Brandt gegründeten Verlag", "de")).toBeDefined();
    expect(participleClause("Wo liegt ein Dorf, gegründet von Mönchen", "de")).toBeDefined();
    expect(participleClause("Wann wurde der Verlag gegründet", "de")).toBeUndefined();
    expect(participleClause("Wie groß ist der gesamten Verlag", "de")).toBeUndefined();
  });
});

describe("decompose with participle chains", () => {
  it("marks a described thing as a chain and asks what follows the clause when the question word ends it", () => {
    const [part] = decompose("Orla Venn hosts a quiz show aired by which channel?");
    expect(part!.chain).toBe(true);
    expect(part!.head).toContain("channel");
    expect(part!.head.some((t) => t.startsWith("orla"))).toBe(false);
  });

  it("asks what comes before the clause when the question word leads", () => {
    const [part] = decompose("Which mill was built by the brewer born in Harlow Vale?");
    expect(part!.chain).toBe(true);
    expect(part!.head).toContain("mill");
    expect(part!.head.some((t) => t.startsWith("brewer"))).toBe(false);
  });

  it("keeps counts and the settings' switch", () => {
    expect(decompose("Of the orders placed in May, how many shipped late?").every((p) => !p.chain)).toBe(true);
    const off = decompose("Orla Venn hosts a quiz show aired by which channel?", { participleChains: false });
    expect(off[0]!.chain).toBe(false);
  });
});
