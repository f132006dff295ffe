import { describe, expect, it } from "vitest";
import { computeAnswer, smallTalkReply } from "./small-talk.js";

const SOURCES = "handbook (Team pages); tickets (Support tickets)";

describe("smallTalkReply", () => {
  it("answers greetings and questions about the assistant in their language", () => {
    expect(smallTalkReply("hiya! what sort of stuff do you cover?", SOURCES)).toMatch(/help/);
    expect(smallTalkReply("Hey! What kinds of questions do you take?", SOURCES)).toMatch(/help/);
    expect(smallTalkReply("Servus! Kannst du mir mal kurz helfen?", SOURCES)).toMatch(/helfe/);
    expect(smallTalkReply("Hallo, kannst du mir bitte helfen?", SOURCES)).toMatch(/helfe/);
    expect(smallTalkReply("你好！你能做什么？", SOURCES)).toMatch(/帮助/);
    expect(smallTalkReply("こんにちは", SOURCES)).toMatch(/お手伝い/);
    expect(smallTalkReply("thanks", SOURCES)).toContain(SOURCES);
  });

  it("leaves a question that only starts with a greeting to the knowledge base", () => {
    expect(smallTalkReply("Hi, who runs the crew that maintains the Star Tracker?", SOURCES)).toBeUndefined();
    expect(smallTalkReply("Hallo, wie lange dauert die Druckprüfung des Tanks?", SOURCES)).toBeUndefined();
    expect(smallTalkReply("What is the refund timeout?", SOURCES)).toBeUndefined();
    expect(smallTalkReply("你好，请问退款超时是多少？", SOURCES)).toBeUndefined();
    expect(smallTalkReply("hello, refund timeout?", SOURCES)).toBeUndefined();
    expect(smallTalkReply("Who owns the morning shift rota?", SOURCES)).toBeUndefined();
  });
});

describe("computeAnswer", () => {
  it("computes a percentage of a number and one arithmetic operation", () => {
    expect(computeAnswer("what is 35% of 400")).toContain("140");
    expect(computeAnswer("Was sind 15 Prozent von 1.200?")).toContain("180");
    expect(computeAnswer("What is 15% of 1.5?")).toContain("0.225");
    expect(computeAnswer("15 % von 80?")).toContain("12");
    expect(computeAnswer("What is 12 * 7?")).toContain("84");
    expect(computeAnswer("what is 10 divided by 4")).toContain("2.5");
    expect(computeAnswer("what is 10 divided by 0")).toBeUndefined();
  });

  it("converts within one dimension and refuses across dimensions or unknown units", () => {
    expect(computeAnswer("How many grams are in a kilogram?")).toContain("1,000");
    expect(computeAnswer("How many dollars is 7,800 cents?")).toContain("78");
    expect(computeAnswer("How many seconds are in an hour?")).toContain("3,600");
    expect(computeAnswer("Wie viele Minuten hat eine Stunde?")).toContain("60");
    expect(computeAnswer("How many grams are in a metre?")).toBeUndefined();
    expect(computeAnswer("How many pallets are in a container?")).toBeUndefined();
  });

  it("is not a computation when the question asks about the knowledge base", () => {
    expect(computeAnswer("How many tickets are open?")).toBeUndefined();
    expect(computeAnswer("What is the 95% latency of the refund API?")).toBeUndefined();
    expect(computeAnswer("How many shipments weigh over 25 tonnes?")).toBeUndefined();
    expect(computeAnswer(`what is ${"1".repeat(5000)} + 1`)).toBeUndefined();
  });
});
