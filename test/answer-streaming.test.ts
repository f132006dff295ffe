/** LLM answers streamed token by token: draft deltas arrive as the model writes, the checked answer follows. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFerret, type Principal, type TraceEvent } from "../src/index.js";

const owner: Principal = { tenant: "default", user: "root", roles: ["*"] };
const usage = {
  inputTokens: { total: 40, noCache: 40, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 30, text: 30, reasoning: undefined },
};

/** The answerer's JSON reply, cut into pieces of `size` characters as a streaming model would send it. */
function replyParts(reply: object, size: number): LanguageModelV3StreamPart[] {
  const text = JSON.stringify(reply);
  const parts: LanguageModelV3StreamPart[] = [
    { type: "stream-start", warnings: [] },
    { type: "text-start", id: "t" },
  ];
  for (let i = 0; i < text.length; i += size)
    parts.push({ type: "text-delta", id: "t", delta: text.slice(i, i + size) });
  parts.push(
    { type: "text-end", id: "t" },
    { type: "finish", finishReason: { unified: "stop", raw: undefined }, usage },
  );
  return parts;
}

/**
 * A stream that sends its first `held` parts, then waits for `release` before the rest: a run that shows a
 * delta before `release` is called proves the deltas are passed on while the model is still writing.
 */
function gatedStream(parts: LanguageModelV3StreamPart[], held: number, release: Promise<void>) {
  let i = 0;
  return new ReadableStream<LanguageModelV3StreamPart>({
    async pull(controller) {
      if (i === held) await release;
      const part = parts[i++];
      if (part) controller.enqueue(part);
      else controller.close();
    },
  });
}

let dir: string;
let docs: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "ferret-answer-stream-"));
  docs = join(dir, "docs");
  mkdirSync(docs);
  writeFileSync(
    join(docs, "kiln.md"),
    "# Kiln schedule\n\nThe glaze kiln at Pelham Works fires every Thursday at dawn.\n\nFiring lasts eleven hours.\n",
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("streamed LLM answers", () => {
  it("emits answer-draft-delta events while the model writes, then the checked, cited answer", async () => {
    const reply = {
      status: "answered",
      claims: [
        {
          text: "The glaze kiln fires every Thursday at dawn.",
          citations: [{ n: 1, quote: "fires every Thursday at dawn" }],
        },
        { text: "A firing lasts eleven hours.", citations: [{ n: 1, quote: "Firing lasts eleven hours" }] },
      ],
      reason: null,
    };
    const parts = replyParts(reply, 9);
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const model = new MockLanguageModelV3({
      provider: "acme-llm.chat",
      modelId: "streamer-1",
      doStream: async () => ({ stream: gatedStream(parts, parts.length - 6, released) }),
    });
    const ferret = await createFerret({ db: ":memory:", principal: owner, model });
    try {
      await ferret.ingest(docs, { source: "studio", description: "Pottery studio notes" });
      const events: TraceEvent[] = [];
      let draftBeforeRelease = "";
      for await (const event of ferret.stream("When does the glaze kiln fire, and for how long?", { mode: "rag" })) {
        events.push(event);
        if (event.type === "answer-draft-delta") {
          draftBeforeRelease += event.text;
          release();
        }
      }
      const types = events.map((e) => e.type);
      const drafts = events.filter((e) => e.type === "answer-draft-delta");
      expect(drafts.length).toBeGreaterThan(2);
      expect(draftBeforeRelease.length).toBeGreaterThan(0);
      expect(drafts.map((e) => (e.type === "answer-draft-delta" ? e.text : "")).join("")).toBe(
        "The glaze kiln fires every Thursday at dawn. A firing lasts eleven hours.",
      );
      const lastDraft = types.lastIndexOf("answer-draft-delta");
      expect(types.indexOf("answer-delta")).toBeGreaterThan(lastDraft);
      expect(types.indexOf("answer-end")).toBeGreaterThan(lastDraft);
      const end = events.find((e) => e.type === "answer-end");
      const answer = end?.type === "answer-end" ? end.answer : undefined;
      expect(answer).toMatchObject({ status: "answered", model: "acme-llm:streamer-1" });
      expect(answer?.citations.map((c) => c.quote)).toEqual([
        "fires every Thursday at dawn",
        "Firing lasts eleven hours",
      ]);
      expect(model.doStreamCalls).toHaveLength(1);
      // The stored trace keeps the checked answer, not the draft's deltas.
      const trace = await ferret.trace(answer?.runId ?? "");
      expect(trace?.events.some((e) => (e as TraceEvent).type === "answer-draft-delta")).toBe(false);
      expect(trace?.events.some((e) => (e as TraceEvent).type === "answer-delta")).toBe(true);
    } finally {
      await ferret.close();
    }
  });

  it("a draft whose citations fail the check is refused, though its deltas were shown", async () => {
    const reply = {
      status: "answered",
      claims: [{ text: "The kiln fires on Mondays.", citations: [{ n: 1, quote: "fires on Mondays" }] }],
      reason: null,
    };
    const model = new MockLanguageModelV3({
      doStream: async () => ({ stream: gatedStream(replyParts(reply, 5), 0, Promise.resolve()) }),
    });
    const ferret = await createFerret({ db: ":memory:", principal: owner, model });
    try {
      await ferret.ingest(docs, { source: "studio", description: "Pottery studio notes" });
      const events: TraceEvent[] = [];
      for await (const event of ferret.stream("Which day does the kiln fire?", { mode: "rag" })) events.push(event);
      expect(events.filter((e) => e.type === "answer-draft-delta").length).toBeGreaterThan(1);
      expect(events.some((e) => e.type === "answer-delta")).toBe(false);
      const end = events.find((e) => e.type === "answer-end");
      expect(end?.type === "answer-end" && end.answer.status).toBe("refused");
    } finally {
      await ferret.close();
    }
  });
});
