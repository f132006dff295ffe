/** `ferret ask` with an LLM: the answer's draft is printed as it streams in, the checked answer follows. */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ScriptedServer, startScriptedServer } from "../../src/models/__fixtures__/scripted-openai-server.js";
import { ferret, tempDir } from "./run-cli.js";

/** `text` as chat.completion.chunk SSE events of `size` characters, then the finish and usage chunks. */
function sseChunks(text: string, size: number): object[] {
  const base = { id: "chatcmpl-k", object: "chat.completion.chunk", created: 1_700_000_000, model: "m" };
  const out: object[] = [
    { ...base, choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] },
  ];
  for (let i = 0; i < text.length; i += size)
    out.push({ ...base, choices: [{ index: 0, delta: { content: text.slice(i, i + size) }, finish_reason: null }] });
  out.push({ ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] });
  out.push({ ...base, choices: [], usage: { prompt_tokens: 300, completion_tokens: 40, total_tokens: 340 } });
  return out;
}

const REPLY = JSON.stringify({
  status: "answered",
  claims: [
    {
      text: "The glaze kiln fires every Thursday at dawn.",
      citations: [{ n: 1, quote: "fires every Thursday at dawn" }],
    },
  ],
  reason: null,
});
const QUESTION = "When does the glaze kiln fire?";

let server: ScriptedServer;
let db: string;
beforeEach(async () => {
  server = await startScriptedServer();
  const dir = await tempDir();
  const docs = join(dir, "docs");
  await mkdir(docs);
  await writeFile(join(docs, "kiln.md"), "# Kiln\n\nThe glaze kiln at Pelham Works fires every Thursday at dawn.\n");
  db = join(dir, "ferret.db");
  const ingested = await ferret(["ingest", docs, "--db", db, "--source", "studio"]);
  expect(ingested.code).toBe(0);
});
afterEach(async () => {
  await server.close();
});

const ask = (...flags: string[]) =>
  ferret([
    "ask",
    QUESTION,
    "--db",
    db,
    "--mode",
    "rag",
    "--model",
    "openai-compatible:m",
    "--base-url",
    `${server.url}/v1`,
    ...flags,
  ]);

describe("ferret ask with a streaming model", () => {
  it("prints the draft as it streams, then the checked answer with its sources", async () => {
    server.push({ sse: sseChunks(REPLY, 6) });
    const run = await ask();
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(server.requests[0]?.body).toMatchObject({ stream: true });
    // Off a terminal the draft stays above the answer: claim text first, then the answer with [1] and Sources.
    const [draft, ...rest] = run.stdout.split("\n\n");
    expect(draft).toBe("The glaze kiln fires every Thursday at dawn.");
    const checked = rest.join("\n\n");
    expect(checked).toContain("The glaze kiln fires every Thursday at dawn. [1]");
    expect(checked).toMatch(/Sources:\n {2}\[1\] kiln.*fires every Thursday at dawn/);
    expect(checked).toContain("model openai-compatible:m");
  });

  it("--json prints only the answer object, as without streaming", async () => {
    server.push({ sse: sseChunks(REPLY, 6) });
    const run = await ask("--json");
    expect(run.code).toBe(0);
    const answer = JSON.parse(run.stdout) as { status: string; text: string; citations: unknown[] };
    expect(answer).toMatchObject({ status: "answered", text: "The glaze kiln fires every Thursday at dawn. [1]" });
    expect(answer.citations).toHaveLength(1);
  });
});
