import { writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { acmeDb, ferret, tempDir } from "./run-cli.js";

interface Check {
  name: string;
  status: "ok" | "warn" | "fail" | "skip";
  detail: string;
  fix?: string;
}

let db: string;
beforeAll(async () => {
  db = await acmeDb("file");
});

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

/** A real OpenAI-compatible server on loopback (chat completions and embeddings); `hang` never answers. */
async function modelServer(options: { hang?: boolean } = {}): Promise<{ url: string; paths: string[] }> {
  const paths: string[] = [];
  const server = createServer((req, res) => {
    paths.push(req.url ?? "");
    req.resume();
    if (options.hang) return;
    req.on("end", () => {
      res.setHeader("content-type", "application/json");
      if (req.url?.endsWith("/embeddings")) {
        res.end(
          JSON.stringify({
            object: "list",
            model: "emb",
            data: [{ object: "embedding", index: 0, embedding: [0.1, 0.2, 0.3] }],
            usage: { prompt_tokens: 2, total_tokens: 2 },
          }),
        );
        return;
      }
      res.end(
        JSON.stringify({
          id: "c1",
          object: "chat.completion",
          created: 0,
          model: "tiny",
          choices: [{ index: 0, message: { role: "assistant", content: "OK" }, finish_reason: "stop" }],
          usage: { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 },
        }),
      );
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/v1`, paths };
}

async function doctor(args: string[], cwd?: string): Promise<{ code: number | null; ok: boolean; checks: Check[] }> {
  const run = await ferret(["doctor", "--json", ...args], cwd ? { cwd } : {});
  const out = JSON.parse(run.stdout) as { ok: boolean; checks: Check[] };
  return { code: run.code, ...out };
}

const byName = (checks: Check[], name: string) => checks.find((c) => c.name === name);

describe("ferret doctor", () => {
  it("reaches a model and an embedder over HTTP and reads the store's schema version", async () => {
    const server = await modelServer();
    const run = await doctor([
      "--db",
      db,
      "--model",
      "openai-compatible:tiny",
      "--embedder",
      "openai-compatible:emb",
      "--base-url",
      server.url,
    ]);
    expect(run.code).toBe(0);
    expect(run.ok).toBe(true);
    expect(byName(run.checks, "node")?.status).toBe("ok");
    expect(byName(run.checks, "sqlite")?.detail).toContain("FTS5, sqlite-vec");
    expect(byName(run.checks, "store")).toMatchObject({ status: "ok" });
    expect(byName(run.checks, "store")?.detail).toContain("(current), writable");
    expect(byName(run.checks, "model openai-compatible:tiny")).toMatchObject({ status: "ok" });
    expect(byName(run.checks, "embedder")?.detail).toContain("(3 dimensions)");
    expect(server.paths.sort()).toEqual(["/v1/chat/completions", "/v1/embeddings"]);
  });

  it("an unreachable model fails with what to do, exit 1", async () => {
    const server = await modelServer();
    servers[0]!.closeAllConnections();
    await new Promise((resolve) => servers.shift()!.close(resolve));
    const run = await doctor([
      "--db",
      db,
      "--model",
      "ollama:qwen3",
      "--base-url",
      `${server.url.replace("/v1", "")}/api`,
    ]);
    expect(run.code).toBe(1);
    expect(run.ok).toBe(false);
    const model = byName(run.checks, "model ollama:qwen3");
    expect(model?.status).toBe("fail");
    expect(model?.detail).toContain("Cannot connect to API");
    expect(model?.fix).toContain("ollama serve");
  });

  it("a model that never answers fails at the time limit instead of hanging", async () => {
    const server = await modelServer({ hang: true });
    const run = await doctor([
      "--db",
      db,
      "--model",
      "openai-compatible:tiny",
      "--base-url",
      server.url,
      "--timeout-ms",
      "300",
    ]);
    expect(run.code).toBe(1);
    expect(byName(run.checks, "model openai-compatible:tiny")).toMatchObject({
      status: "fail",
      detail: "openai-compatible:tiny did not answer within 300 ms",
    });
  });

  it("a model without its API key fails naming the variable", async () => {
    const run = await doctor(["--db", db, "--model", "openai:gpt-4o-mini"]);
    expect(run.code).toBe(1);
    expect(byName(run.checks, "model openai:gpt-4o-mini")?.detail).toContain("OPENAI_API_KEY");
  });

  it("a missing store is a warning pointing at init; a newer schema or a foreign file fails", async () => {
    const dir = await tempDir();
    const missing = await doctor([], dir);
    expect(missing.code).toBe(0);
    expect(byName(missing.checks, "store")).toMatchObject({
      status: "warn",
      fix: "create it with `ferret init` or `ferret ingest PATH`",
    });

    const newer = join(dir, "newer.db");
    const sqlite = new Database(newer);
    sqlite.exec(
      "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT); INSERT INTO meta VALUES ('schema_version', '99')",
    );
    sqlite.close();
    const tooNew = await doctor(["--db", newer], dir);
    expect(tooNew.code).toBe(1);
    expect(byName(tooNew.checks, "store")).toMatchObject({
      status: "fail",
      fix: "upgrade ferret (npm install ferret@latest)",
    });

    const foreign = join(dir, "foreign.db");
    new Database(foreign).close();
    expect(byName((await doctor(["--db", foreign], dir)).checks, "store")?.detail).toContain("is not a ferret store");
  });

  it("reports an invalid config file as a failed check and still runs the others", async () => {
    const dir = await tempDir();
    await writeFile(join(dir, "ferret.config.json"), JSON.stringify({ retrieval: "deep" }));
    const run = await doctor([], dir);
    expect(run.code).toBe(1);
    expect(byName(run.checks, "config")?.status).toBe("fail");
    expect(byName(run.checks, "config")?.detail).toContain("field retrieval");
    expect(byName(run.checks, "sqlite")?.status).toBe("ok");
  });

  it("prints a readable report with the fix under each failure", async () => {
    const run = await ferret(["doctor", "--db", db, "--model", "openai:gpt-4o-mini"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^FAIL {2}model openai:gpt-4o-mini\s+.*OPENAI_API_KEY/m);
    expect(run.stdout).toMatch(/^\s+→ check the base URL/m);
    expect(run.stdout).toMatch(/check\(s\) failed/);
  });
});
