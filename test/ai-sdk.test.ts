/** ferret from the AI SDK's side: model objects in, ferret as a tool inside another agent's generateText. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LanguageModelV3GenerateResult } from "@ai-sdk/provider";
import { generateText, stepCountIs } from "ai";
import { MockEmbeddingModelV3, MockLanguageModelV3 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFerret, type Ferret, type Principal } from "../src/index.js";
import type { AskToolOutput, SearchToolOutput } from "../src/library/as-tool.js";

const owner: Principal = { tenant: "default", user: "root", roles: ["*"] };
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
const callTool = (toolName: string, input: unknown): LanguageModelV3GenerateResult => ({
  content: [{ type: "tool-call", toolCallId: `call-${toolName}`, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: "tool-calls", raw: undefined },
  usage,
  warnings: [],
});
const say = (text: string): LanguageModelV3GenerateResult => ({
  content: [{ type: "text", text }],
  finishReason: { unified: "stop", raw: undefined },
  usage,
  warnings: [],
});
/** The text of the tool results the calling model was shown in its last call. */
const toolResultsSeen = (model: MockLanguageModelV3) =>
  JSON.stringify(model.doGenerateCalls.at(-1)?.prompt.filter((m) => m.role === "tool"));

let dir: string;
let ferret: Ferret;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ferret-ai-sdk-"));
  const docs = join(dir, "docs");
  mkdirSync(docs);
  writeFileSync(join(docs, "refunds.md"), "# Refunds\n\nRefund requests time out after 30 seconds at the gateway.\n");
  writeFileSync(join(docs, "urlaub.md"), "# Urlaub\n\nJede Mitarbeiterin hat 30 Tage Urlaub im Jahr.\n");
  ferret = await createFerret({ db: join(dir, "ferret.db"), principal: owner });
  await ferret.ingest(docs, { source: "docs", description: "Gateway and HR notes" });
});
afterAll(async () => {
  await ferret.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("ferret.asTool() inside an AI SDK generateText loop", () => {
  it("search: the calling model searches, reads the passage, and answers from it", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [callTool("ferret", { query: "refund timeout gateway" }), say("Refunds time out after 30 s.")],
    });
    const result = await generateText({
      model,
      tools: { ferret: ferret.asTool() },
      stopWhen: stepCountIs(3),
      prompt: "How long until a refund request times out?",
    });
    expect(result.text).toBe("Refunds time out after 30 s.");
    expect(result.steps).toHaveLength(2);
    const output = result.steps[0]?.toolResults[0]?.output as SearchToolOutput;
    expect(output.passages[0]).toMatchObject({ source: "docs", docId: "refunds.md" });
    expect(output.passages[0]?.text).toContain("time out after 30 seconds");
    // The second call of the calling model carried ferret's passage.
    expect(toolResultsSeen(model)).toContain("time out after 30 seconds");
  });

  it("ask: ferret runs its own agent and hands back a cited answer (German question)", async () => {
    const model = new MockLanguageModelV3({
      doGenerate: [callTool("kb", { question: "Wie viele Tage Urlaub gibt es im Jahr?" }), say("30 Tage.")],
    });
    const result = await generateText({
      model,
      tools: { kb: ferret.asTool({ kind: "ask" }) },
      stopWhen: stepCountIs(3),
      prompt: "Urlaub?",
    });
    const output = result.steps[0]?.toolResults[0]?.output as AskToolOutput;
    expect(output.status).toBe("answered");
    expect(output.text).toContain("30 Tage");
    expect(output.citations[0]?.quote).toBeTruthy();
    expect(output.citations[0]?.docId).toBe("urlaub.md");
    expect(await ferret.trace(output.runId)).toBeDefined();
    expect(toolResultsSeen(model)).toContain("30 Tage");
  });

  it("tools(): ferret's own tools by name, each callable by the calling model", async () => {
    const tools = await ferret.tools();
    expect(Object.keys(tools)).toEqual(expect.arrayContaining(["search", "list_sources"]));
    const model = new MockLanguageModelV3({
      doGenerate: [callTool("search", { corpus: "docs", query: "Urlaub Tage" }), say("done")],
    });
    const result = await generateText({ model, tools, stopWhen: stepCountIs(3), prompt: "Urlaub?" });
    const output = result.steps[0]?.toolResults[0]?.output as { status: string; passages: { docId: string }[] };
    expect(output.status).toBe("ok");
    expect(output.passages[0]?.docId).toBe("urlaub.md");
  });

  it("a bad tool argument is the calling model's error to read, not a crash of the loop", async () => {
    const model = new MockLanguageModelV3({ doGenerate: [callTool("ferret", { query: "" }), say("sorry")] });
    const result = await generateText({
      model,
      tools: { ferret: ferret.asTool() },
      stopWhen: stepCountIs(3),
      prompt: "?",
    });
    expect(result.steps[0]?.content.some((p) => p.type === "tool-error")).toBe(true);
    expect(result.text).toBe("sorry");
  });
});

describe("AI SDK model objects in place of provider:model names", () => {
  it("a LanguageModel object answers as the engine's model, named by its provider and id", async () => {
    const model = new MockLanguageModelV3({
      provider: "acme-llm.chat",
      modelId: "tiny-1",
      doGenerate: say(JSON.stringify({ route: "none", reason: "a greeting", reply: "Hello! Ask me about refunds." })),
    });
    const f = await createFerret({ db: join(dir, "ferret.db"), principal: owner, model });
    try {
      const answer = await f.ask("Hello there");
      expect(answer.text).toBe("Hello! Ask me about refunds.");
      expect(answer.model).toBe("acme-llm:tiny-1");
      expect(model.doGenerateCalls.length).toBeGreaterThan(0);
    } finally {
      await f.close();
    }
  });

  it("an EmbeddingModel object embeds at ingest and at search, recorded by its provider and id", async () => {
    const vectorOf = (text: string) => [text.includes("Urlaub") ? 1 : 0, text.includes("Refund") ? 1 : 0, 0.1];
    const embeddingModel = new MockEmbeddingModelV3({
      provider: "acme-embed",
      modelId: "vec-3",
      doEmbed: async ({ values }) => ({ embeddings: values.map(vectorOf), warnings: [] }),
    });
    const f = await createFerret({ db: ":memory:", principal: owner, embedder: embeddingModel });
    try {
      await f.ingest(join(dir, "docs"), { source: "docs" });
      expect(f.embedder?.id).toBe("acme-embed:vec-3");
      const hits = await f.search("Urlaub", { mode: "vector", k: 1 });
      expect(hits[0]?.docId).toBe("urlaub.md");
      expect(embeddingModel.doEmbedCalls.length).toBeGreaterThanOrEqual(2);
    } finally {
      await f.close();
    }
  });
});

describe("ferret.add: in-memory documents", () => {
  it("adds, skips unchanged, replaces changed, and answers from them with citations (Japanese, German)", async () => {
    const f = await createFerret({ db: ":memory:", principal: owner });
    try {
      const docs = [
        { id: "kb-1", title: "休暇", text: "年次休暇は毎年二十日です。", metadata: { lang: "ja" } },
        { id: "kb-2", text: "Die Kantine öffnet um 11:30 Uhr.", source: "kantine" },
      ];
      const first = await f.add(docs, { source: "handbook", description: "HR handbook" });
      expect(first).toMatchObject({ sources: ["handbook", "kantine"], added: 2, unchanged: 0 });
      expect(first.chunks).toBeGreaterThan(0);
      const again = await f.add(docs, { source: "handbook" });
      expect(again).toMatchObject({ added: 0, updated: 0, unchanged: 2 });
      const changed = await f.add([{ id: "kb-2", text: "Die Kantine öffnet um 12:00 Uhr.", source: "kantine" }]);
      expect(changed).toMatchObject({ updated: 1 });
      const sources = await f.sources();
      expect(sources.find((x) => x.name === "handbook")).toMatchObject({ kind: "documents", documents: 1 });
      const answer = await f.ask("Wann öffnet die Kantine?");
      expect(answer.text).toContain("12:00");
      expect(answer.text).not.toContain("11:30");
      expect(answer.citations[0]).toMatchObject({ source: "kantine", docId: "kb-2" });
      const hits = await f.search("年次休暇");
      expect(hits[0]).toMatchObject({ source: "handbook", docId: "kb-1", title: "休暇" });
      const doc = await f.document("kb-1", { source: "handbook" });
      expect(doc?.document.metadata).toMatchObject({ lang: "ja" });
    } finally {
      await f.close();
    }
  });

  it("refuses a document without an id, a bad source name, or a duplicate id, naming the field", async () => {
    const f = await createFerret({ db: ":memory:", principal: owner });
    try {
      await expect(f.add([{ id: "", text: "x" }])).rejects.toMatchObject({
        name: "InvalidInputError",
        context: { field: "documents[0].id" },
      });
      await expect(f.add([{ id: "a", text: "x", source: "Bad Name" }])).rejects.toMatchObject({
        context: { field: "documents[0].source" },
      });
      await expect(
        f.add([
          { id: "a", text: "x" },
          { id: "a", text: "y" },
        ]),
      ).rejects.toMatchObject({ context: { field: "documents[1].id" } });
      expect(await f.sources()).toEqual([]);
    } finally {
      await f.close();
    }
  });
});
