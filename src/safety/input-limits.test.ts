import { describe, expect, it } from "vitest";
import { InvalidInputError } from "../spec/errors.js";
import {
  checkHistory,
  checkQuery,
  checkQuestion,
  DEFAULT_INPUT_LIMITS,
  fitSession,
  resolveInputLimits,
} from "./input-limits.js";

const limits = resolveInputLimits();

function errorOf(fn: () => unknown): InvalidInputError {
  try {
    fn();
  } catch (error) {
    if (error instanceof InvalidInputError) return error;
    throw error;
  }
  throw new Error("expected an InvalidInputError");
}

describe("input limits", () => {
  it("has the documented defaults", () => {
    expect(DEFAULT_INPUT_LIMITS).toEqual({
      maxQuestionChars: 4000,
      maxHistoryTurns: 50,
      maxHistoryChars: 32000,
      maxQueryChars: 1000,
    });
  });

  it("accepts a question at the cap and refuses one past it, naming the field and the cap", () => {
    expect(checkQuestion("q".repeat(4000), limits)).toHaveLength(4000);
    const error = errorOf(() => checkQuestion("q".repeat(1_000_000), limits));
    expect(error.context).toMatchObject({ field: "question", length: 1_000_000, limit: 4000 });
    expect(error.message).toBe(
      "the question is 1,000,000 characters long; the limit is 4,000 (set inputLimits.maxQuestionChars to change it)",
    );
    expect(error.category).toBe("user");
  });

  it("refuses empty and non-string questions and queries", () => {
    expect(errorOf(() => checkQuestion("  \n", limits)).message).toBe("the question is empty");
    expect(errorOf(() => checkQuestion(42, limits)).message).toBe("the question must be a string, not number");
    expect(errorOf(() => checkQuery("", limits)).context.field).toBe("query");
    expect(errorOf(() => checkQuery("x".repeat(1001), limits)).context).toMatchObject({ field: "query", limit: 1000 });
    expect(checkQuery("x".repeat(1000), limits)).toHaveLength(1000);
  });

  it("caps history by turns and by characters, and checks each turn's shape", () => {
    const turn = (content: string) => ({ role: "user" as const, content });
    expect(checkHistory(undefined, limits)).toEqual([]);
    expect(
      checkHistory(
        Array.from({ length: 50 }, () => turn("hi")),
        limits,
      ),
    ).toHaveLength(50);
    expect(
      errorOf(() =>
        checkHistory(
          Array.from({ length: 51 }, () => turn("hi")),
          limits,
        ),
      ).context,
    ).toMatchObject({
      field: "history",
      turns: 51,
      limit: 50,
    });
    expect(errorOf(() => checkHistory([turn("x".repeat(20_000)), turn("x".repeat(12_001))], limits)).message).toBe(
      "history holds more than 32,000 characters (set inputLimits.maxHistoryChars to change it)",
    );
    expect(errorOf(() => checkHistory([{ role: "system", content: "x" }], limits)).context.field).toBe(
      "history[0].role",
    );
    expect(errorOf(() => checkHistory("nope", limits)).context.field).toBe("history");
  });

  it("keeps the latest stored session turns that fit", () => {
    const small = resolveInputLimits({ maxHistoryTurns: 3, maxHistoryChars: 10 });
    const stored = ["aaaa", "bbbb", "cccc", "dddd"].map((content) => ({ role: "user" as const, content, at: "t" }));
    expect(fitSession(stored, [], small).map((t) => t.content)).toEqual(["cccc", "dddd"]);
    expect(fitSession(stored, [{ role: "user", content: "12345678" }], small).map((t) => t.content)).toEqual(["dd"]);
    const long = [{ role: "assistant" as const, content: "0123456789ABCDEF", at: "t" }];
    expect(fitSession(long, [], small).map((t) => t.content)).toEqual(["6789ABCDEF"]);
  });

  it("takes the caller's caps and refuses nonsense", () => {
    expect(resolveInputLimits({ maxQuestionChars: 10 }).maxQuestionChars).toBe(10);
    expect(errorOf(() => resolveInputLimits({ maxQueryChars: 0 })).context.field).toBe("inputLimits.maxQueryChars");
    expect(errorOf(() => resolveInputLimits({ maxHistoryTurns: 1.5 })).context.field).toBe(
      "inputLimits.maxHistoryTurns",
    );
  });
});
