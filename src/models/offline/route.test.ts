import { describe, expect, it } from "vitest";
import type { EngineContext } from "../../spec/engine.js";
import type { Passage } from "../../spec/passage.js";
import { makeState } from "../__fixtures__/state.js";
import { namesTerm, routeQuestion } from "./route.js";

const passage = (text: string): Passage => ({ id: "d::0", docId: "d", source: "wiki", text, score: 0.7 });
const ctxWith = (hits: Passage[] | undefined): EngineContext => ({
  signal: new AbortController().signal,
  probe: async () => hits,
});

describe("namesTerm", () => {
  it("accepts the phrase, or every content word of it anywhere in the passage", () => {
    expect(namesTerm("| PORT-STOP | Port stop at the scan event level |", "a PORT-STOP scan event")).toBe(true);
    expect(namesTerm("The refund window is 30 days.", "refund window")).toBe(true);
    expect(namesTerm("The refund window is 30 days.", "a refund token")).toBe(false);
  });
});

describe("routeQuestion (offline)", () => {
  const ask = (question: string, hits: Passage[] | undefined) =>
    routeQuestion(makeState({ question, standaloneQuestion: question }), ctxWith(hits));

  it("keeps a definition the knowledge base never mentions out of retrieval", async () => {
    const decision = await ask("What does HTTP stand for?", [passage("Refunds time out after 30 seconds.")]);
    expect(decision.route).toBe("none");
  });

  it("searches for a term the knowledge base speaks of, even worded apart", async () => {
    const decision = await ask("What does a PORT-STOP scan event mean?", [
      passage("Scan event codes: PORT-STOP means the parcel is stopped at the port."),
    ]);
    expect(decision.route).toBe("agentic");
  });

  it("reads only a whole-question definition as one: a further clause needs the knowledge base", async () => {
    const decision = await ask("What does HTTP mean, and whom should we call when a stop is not lifted?", []);
    expect(decision.route).toBe("agentic");
  });

  it("reads 'what is a <noun> that <clause>' as a description of something to find, not a term to define", async () => {
    const unrelated = [passage("Refunds time out after 30 seconds.")];
    expect((await ask("What is a mill that ground flour for the Orrin valley?", unrelated)).route).toBe("agentic");
    expect((await ask("What is a gristmill?", unrelated)).route).toBe("none");
  });

  it("does not take a spent probe budget for 'never mentioned'", async () => {
    expect((await ask("What does HTTP stand for?", undefined)).route).toBe("agentic");
  });
});
