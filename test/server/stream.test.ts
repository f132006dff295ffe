import { DefaultChatTransport, readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScriptedEngine } from "../../src/agent/testing/scripted-engine.js";
import type { RunRecord, TraceEvent } from "../../src/index.js";
import { auth, postJson, startTestServer, type TestServer } from "./harness.js";

const normalise = (text: string) => text.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();

interface CitationData {
  n: number;
  passageId: string;
  docId: string;
  source: string;
  quote: string;
  passageText: string;
  passage: { start: number; end: number } | null;
  document: { start: number; end: number } | null;
}

function transportFor(t: TestServer, key: string) {
  return new DefaultChatTransport<UIMessage>({
    api: `${t.url}/v1/ask/stream`,
    headers: { authorization: `Bearer ${key}` },
  });
}

const userMessage = (id: string, text: string): UIMessage => ({ id, role: "user", parts: [{ type: "text", text }] });

/** Polls a run until its record ends with run-end (it is saved when the run finishes). */
async function finishedRun(t: TestServer, key: string, runId: string): Promise<RunRecord> {
  for (let i = 0; i < 200; i++) {
    const res = await fetch(`${t.url}/v1/runs/${runId}`, { headers: auth(key) });
    if (res.status === 200) {
      const record = (await res.json()) as RunRecord;
      if ((record.events.at(-1) as TraceEvent | undefined)?.type === "run-end") return record;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`run ${runId} never finished`);
}

describe("streaming in the AI SDK UI message stream protocol", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it("the AI SDK's own reader consumes a full run: steps, tool parts, text, cited sources with offsets, finish", async () => {
    const key = t.keys["acme-eng"]!;
    const stream = await transportFor(t, key).sendMessages({
      chatId: "chat-1",
      messageId: undefined,
      trigger: "submit-message",
      abortSignal: undefined,
      messages: [userMessage("m1", "What is the launch checklist code word?")],
    });
    let message: UIMessage | undefined;
    for await (const m of readUIMessageStream<UIMessage>({ stream, terminateOnError: true })) message = m;
    expect(message).toBeDefined();
    const parts = message!.parts;
    const text = parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
    expect(text).toContain("quasarpine");
    const tools = parts.filter((p) => p.type === "dynamic-tool");
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.every((p) => p.type === "dynamic-tool" && p.state === "output-available")).toBe(true);
    expect(parts.some((p) => p.type === "data-step")).toBe(true);
    const metadata = message!.metadata as { runId: string; stopReason: string };
    expect(metadata.stopReason).toMatch(/answered|evidence_sufficient/);
    expect(message!.id).toBe(metadata.runId);
    const sources = parts.filter((p) => p.type === "source-document");
    const citations = parts.flatMap((p) => (p.type === "data-citation" ? [p.data as CitationData] : []));
    expect(citations.length).toBeGreaterThan(0);
    expect(sources).toHaveLength(citations.length);
    for (const c of citations) {
      // The offsets point at the quote: in the passage, and in the document as the API serves it.
      expect(c.passage).not.toBeNull();
      const quoted = c.passageText.slice(c.passage!.start, c.passage!.end);
      expect(normalise(quoted)).toContain(normalise(c.quote).replace(/^["'“”]+|["'“”]+$/g, ""));
      const doc = (await (
        await fetch(`${t.url}/v1/sources/${c.source}/documents/${encodeURIComponent(c.docId)}`, { headers: auth(key) })
      ).json()) as { text: string };
      expect(doc.text.slice(c.document!.start, c.document!.end)).toBe(quoted);
    }
    const answer = parts.find((p) => p.type === "data-answer");
    expect(answer).toMatchObject({ data: { stopReason: metadata.stopReason, runId: metadata.runId } });
  });

  it("takes useChat's history: the last user message is the question", async () => {
    const stream = await transportFor(t, t.keys["acme-eng"]!).sendMessages({
      chatId: "chat-2",
      messageId: undefined,
      trigger: "submit-message",
      abortSignal: undefined,
      messages: [
        userMessage("m1", "Tell me about the pressure test."),
        { id: "m2", role: "assistant", parts: [{ type: "text", text: "It is a tank test." }] },
        userMessage("m3", "Wie lange dauert die Druckprüfung des Tanks?"),
      ],
    });
    let message: UIMessage | undefined;
    for await (const m of readUIMessageStream<UIMessage>({ stream })) message = m;
    const run = message!.parts.find((p) => p.type === "data-run") as { data: { runId: string } };
    const record = await finishedRun(t, t.keys["acme-eng"]!, run.data.runId);
    expect(record.question).toBe("Wie lange dauert die Druckprüfung des Tanks?");
    const text = message!.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join("");
    expect(text).toContain("45 Minuten");
  });

  it("a checkpoint pauses the run until its owner decides (another principal cannot)", async () => {
    const key = t.keys["acme-eng"]!;
    const res = await postJson(`${t.url}/v1/ask/stream`, key, {
      question: "What is the launch checklist code word?",
      mode: "agentic",
      checkpoints: { afterSearches: 1 },
    });
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    const chunks: UIMessageChunk[] = [];
    let decided = false;
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const line = buffer.slice(0, end).trim();
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf("\n\n");
        if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
        const chunk = JSON.parse(line.slice(6)) as UIMessageChunk;
        chunks.push(chunk);
        if (chunk.type === "data-checkpoint" && (chunk.data as { state: string }).state === "waiting" && !decided) {
          const runId = (chunk.data as { runId: string }).runId;
          const stranger = await postJson(`${t.url}/v1/runs/${runId}/decision`, t.keys["acme-hr"]!, { action: "stop" });
          expect(stranger.status).toBe(404);
          const owner = await postJson(`${t.url}/v1/runs/${runId}/decision`, key, { action: "answer_now" });
          expect(owner.status).toBe(202);
          decided = true;
        }
      }
    }
    expect(decided).toBe(true);
    const settled = chunks
      .filter((c) => c.type === "data-checkpoint")
      .map((c) => c.type === "data-checkpoint" && c.data);
    expect(settled).toEqual([
      expect.objectContaining({ state: "waiting", checkpoint: "after_searches" }),
      expect.objectContaining({ state: "decided", decision: "answer_now" }),
    ]);
    expect(chunks.at(-1)).toMatchObject({ type: "finish" });
  });
});

describe("a client that disconnects mid-stream", () => {
  let t: TestServer;
  const blocked = { planned: 0 };
  const engine = createScriptedEngine({
    route: () => ({ route: "agentic", reason: "test" }),
    plan: (state, n) => {
      blocked.planned = n + 1;
      if (n === 0)
        return {
          thought: "search",
          subQuestions: [state.standaloneQuestion],
          calls: [{ tool: "search", args: { query: "code word" } }],
          done: false,
        };
      // The second plan never comes back by itself: only the run's abort ends it.
      return new Promise(() => {});
    },
    grade: (state) => ({
      subQuestions: [
        { index: 0, text: state.standaloneQuestion, coverage: 0, confidence: 0, missing: ["x"], sufficient: false },
      ],
      sufficient: false,
      threshold: 0.9,
    }),
  });
  beforeAll(async () => {
    t = await startTestServer({ model: engine });
  });
  afterAll(() => t.close());

  it("aborts its run: no tool or model call after the disconnect, and the trace ends aborted", async () => {
    const key = t.keys["acme-eng"]!;
    const controller = new AbortController();
    const stream = await transportFor(t, key).sendMessages({
      chatId: "chat-3",
      messageId: undefined,
      trigger: "submit-message",
      abortSignal: controller.signal,
      messages: [userMessage("m1", "What is the code word?")],
    });
    let runId = "";
    try {
      for await (const m of readUIMessageStream<UIMessage>({ stream })) {
        runId = m.id;
        if (m.parts.some((p) => p.type === "dynamic-tool" && p.state === "output-available")) controller.abort();
      }
    } catch {
      // Reading an aborted fetch may end or throw; either way the client is gone.
    }
    expect(controller.signal.aborted).toBe(true);
    expect(runId).not.toBe("");
    const record = await finishedRun(t, key, runId);
    const events = record.events as TraceEvent[];
    expect(events.filter((e) => e.type === "tool-call-start")).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: "run-end", stopReason: "aborted" });
    expect((record.answer as { status: string }).status).toBe("refused");
    // The engine saw the first plan, the grade and the second plan (cut off), and nothing after: no answer call.
    expect(engine.calls.map((c) => c.method)).toEqual(["route", "plan", "grade", "plan"]);
    expect(blocked.planned).toBe(2);
  });
});
