import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UpstreamError } from "../spec/errors.js";
import {
  chatCompletion,
  chatError,
  type ScriptedServer,
  startScriptedServer,
} from "./__fixtures__/scripted-openai-server.js";
import { evidence, makeState } from "./__fixtures__/state.js";
import { partialClaimsText } from "./answer-stream.js";
import { createLlmEngine } from "./llm-engine.js";
import { resolveModel } from "./resolve.js";

let server: ScriptedServer;
const ctx = { signal: new AbortController().signal };

beforeEach(async () => {
  server = await startScriptedServer();
});
afterEach(async () => {
  await server.close();
});

function engine() {
  const answerer = resolveModel({
    spec: "openai-compatible:m",
    baseUrl: `${server.url}/v1`,
    env: {},
    pricing: { input: 1, output: 1 },
  });
  return createLlmEngine({ planner: answerer, maxRetries: 0 });
}

/** Splits `text` into chat.completion.chunk SSE events of `size` characters, then a usage chunk. */
function sseChunks(text: string, size: number): object[] {
  const base = { id: "chatcmpl-s", object: "chat.completion.chunk", created: 1_700_000_000, model: "m" };
  const out: object[] = [
    { ...base, choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] },
  ];
  for (let i = 0; i < text.length; i += size) {
    out.push({ ...base, choices: [{ index: 0, delta: { content: text.slice(i, i + size) }, finish_reason: null }] });
  }
  out.push({ ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] });
  out.push({ ...base, choices: [], usage: { prompt_tokens: 700, completion_tokens: 60, total_tokens: 760 } });
  return out;
}

const reply = {
  status: "answered",
  claims: [
    { text: "Refunds are accepted within 30 days.", citations: [{ n: 1, quote: "within 30 days" }] },
    { text: "Store credit is offered after that.", citations: [{ n: 2, quote: "store credit" }] },
  ],
  reason: null,
};

const state = makeState({
  evidence: [evidence(1, "Refunds are accepted within 30 days."), evidence(2, "After that we offer store credit.")],
});

describe("streamed answers over SSE", () => {
  it("yields claim text as it arrives and resolves the validated answer", async () => {
    server.push({ sse: sseChunks(JSON.stringify(reply), 7) });
    const stream = engine().answerStream(state, ctx);
    const deltas: string[] = [];
    for await (const delta of stream.deltas) deltas.push(delta);
    const answer = await stream.answer;
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.join("")).toBe("Refunds are accepted within 30 days. Store credit is offered after that.");
    expect(answer).toMatchObject({ status: "answered", claims: reply.claims });
    expect(answer.usage?.[0]).toMatchObject({ role: "answerer", inputTokens: 700, outputTokens: 60 });
    expect((server.requests[0]!.body as { stream?: boolean }).stream).toBe(true);
  });

  it("resolves the answer even when nobody reads the deltas", async () => {
    server.push({ sse: sseChunks(JSON.stringify(reply), 50) });
    const answer = await engine().answerStream(state, ctx).answer;
    expect(answer.claims).toHaveLength(2);
  });

  it("falls back to the non-streaming answerer when the streamed reply is unusable", async () => {
    server.push(
      { sse: sseChunks("I cannot produce JSON today.", 8) },
      chatCompletion({ content: JSON.stringify(reply) }),
    );
    const answer = await engine().answerStream(state, ctx).answer;
    expect(answer.status).toBe("answered");
    expect(answer.usage).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
  });

  it("surfaces an HTTP failure as UpstreamError", async () => {
    server.push(chatError(500, "boom"));
    const stream = engine().answerStream(state, ctx);
    for await (const _ of stream.deltas) {
      // drain
    }
    const error = await stream.answer.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ status: 500 });
  });

  it("refuses at once without evidence", async () => {
    const stream = engine().answerStream(makeState(), ctx);
    expect((await stream.answer).status).toBe("refused");
    expect(server.requests).toHaveLength(0);
  });
});

describe("partialClaimsText", () => {
  it("joins the claim texts present so far", () => {
    expect(partialClaimsText({ claims: [{ text: "A." }, { text: "B" }, {}] })).toBe("A. B");
    expect(partialClaimsText({ status: "answered" })).toBe("");
    expect(partialClaimsText(undefined)).toBe("");
  });
});
