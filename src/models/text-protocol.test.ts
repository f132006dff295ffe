import { describe, expect, it } from "vitest";
import { parseTextProtocol, TextProtocolError } from "./text-protocol.js";

describe("parseTextProtocol", () => {
  it("reads a well-formed reply with two calls", () => {
    const reply = parseTextProtocol(
      [
        "THINKING: Need the refund window and the CEO's name.",
        'SUBQUESTIONS: ["What is the return period?", "Who is the CEO?"]',
        "TOOL: search",
        'PARAMS: {"query": "refund window", "corpus": "handbook"}',
        "TOOL: search_entity",
        'PARAMS: {"name": "CEO"}',
      ].join("\n"),
    );
    expect(reply).toEqual({
      thought: "Need the refund window and the CEO's name.",
      subQuestions: ["What is the return period?", "Who is the CEO?"],
      calls: [
        { tool: "search", args: { query: "refund window", corpus: "handbook" } },
        { tool: "search_entity", args: { name: "CEO" } },
      ],
      answer: false,
    });
  });

  it("repairs JSON with single quotes, trailing commas and a missing brace", () => {
    const reply = parseTextProtocol("THINKING: x\nTOOL: search\nPARAMS: {'query': 'refunds', 'k': 5,");
    expect(reply.calls).toEqual([{ tool: "search", args: { query: "refunds", k: 5 } }]);
  });

  it("reads multi-line PARAMS in a code fence and markdown-decorated keywords", () => {
    const reply = parseTextProtocol(
      '**THINKING:** look\n**TOOL:** `search`\n**PARAMS:**\n```json\n{\n  "query": "a"\n}\n```',
    );
    expect(reply.calls).toEqual([{ tool: "search", args: { query: "a" } }]);
  });

  it("accepts a TOOL without PARAMS as a call without arguments", () => {
    expect(parseTextProtocol("TOOL: list_sources").calls).toEqual([{ tool: "list_sources", args: {} }]);
  });

  it("reads ANSWER as done, ignoring <think> blocks", () => {
    const reply = parseTextProtocol("<think>TOOL: search</think>\nTHINKING: enough evidence\nANSWER");
    expect(reply).toEqual({ thought: "enough evidence", subQuestions: [], calls: [], answer: true });
  });

  it.each([
    ["prose without a protocol line", "I think the answer is 42."],
    ["PARAMS before any TOOL", 'PARAMS: {"query": "a"}'],
    ["PARAMS that are not an object", "TOOL: search\nPARAMS: [1, 2]"],
    ["PARAMS that cannot be repaired", "TOOL: search\nPARAMS: }}}{{{"],
  ])("rejects %s with a readable error", (_label, text) => {
    expect(() => parseTextProtocol(text)).toThrow(TextProtocolError);
  });
});
