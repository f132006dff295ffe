import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forbiddenFor, PERSONAS, type Persona, SOURCES } from "../fixtures/server/two-tenants.js";
import { auth, postJson, startTestServer, type TestServer } from "./harness.js";
import { httpMcpClient } from "./mcp-client.js";

const QUESTIONS = [
  "What is the launch checklist code word?",
  "Wie lange dauert die Druckprüfung des Tanks?",
  "What is the HR code word?",
  "人事暗号是什么？",
  "What is the Globex code word?",
  "What is the finance code word?",
  "How high does the staff engineer salary band go?",
];
const QUERIES = ["code word", "暗号", "finance reserve", "salary band", "Kennwort Prüfung", "gateway ticket"];

/** The code words (never allowed) and source names (allowed only where the request named them) a persona must not see. */
function forbidden(persona: Persona) {
  const all = forbiddenFor(persona);
  const names = new Set(SOURCES.map((s) => s.name).concat("tickets"));
  return { words: all.filter((w) => !names.has(w)), names: all.filter((w) => names.has(w)) };
}

function expectNoLeak(persona: Persona, what: string, body: unknown, named: string[] = []): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const { words, names } = forbidden(persona);
  for (const word of [...words, ...names.filter((n) => !named.includes(n))]) {
    expect(text.includes(word), `${persona.name}: ${what} shows "${word}"`).toBe(false);
  }
}

describe("two tenants and roles over restricted sources: nothing leaks through any route or MCP", () => {
  let t: TestServer;
  const runIds: Record<string, string[]> = {};
  let hrJob = "";
  beforeAll(async () => {
    t = await startTestServer();
    // Each persona leaves runs and a session behind for the others to probe.
    for (const persona of PERSONAS) {
      const res = await postJson(`${t.url}/v1/ask`, t.keys[persona.name]!, {
        question: "What is the code word?",
        sessionId: "shared-session",
      });
      expect(res.status).toBe(200);
      runIds[persona.name] = [((await res.json()) as { runId: string }).runId];
    }
    const form = new FormData();
    form.append("files", new Blob(["# Note\n\nThe upload code word is heronmoss.\n"]), "note.md");
    const upload = await fetch(`${t.url}/v1/sources/hr_docs/documents`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.keys["acme-hr"]}` },
      body: form,
    });
    expect(upload.status).toBe(202);
    hrJob = ((await upload.json()) as { jobId: string }).jobId;
  });
  afterAll(() => t.close());

  for (const persona of PERSONAS) {
    describe(persona.name, () => {
      const key = () => t.keys[persona.name]!;
      const get = (path: string) => fetch(`${t.url}${path}`, { headers: auth(key()) });

      it("sources, search, ask, stream and chat show only what the persona may read", async () => {
        const sources = await (await get("/v1/sources")).json();
        expect((sources as { sources: { name: string }[] }).sources.map((s) => s.name).sort()).toEqual(
          [...persona.readable].sort(),
        );
        expectNoLeak(persona, "GET /v1/sources", sources);
        let seenOwn = false;
        for (const query of QUERIES) {
          const body = await (await postJson(`${t.url}/v1/search`, key(), { query, k: 20 })).json();
          expectNoLeak(persona, `search "${query}"`, body);
          const passages = (body as { passages: { source: string }[] }).passages;
          expect(passages.every((p) => persona.readable.includes(p.source))).toBe(true);
          if (passages.length > 0) seenOwn = true;
        }
        expect(seenOwn).toBe(true);
        for (const source of SOURCES.filter((s) => !persona.readable.includes(s.name))) {
          const res = await postJson(`${t.url}/v1/search`, key(), { query: "code word", sources: [source.name] });
          const body = await res.json();
          expectNoLeak(persona, `search in ${source.name}`, body, [source.name]);
          if (res.status === 200) expect((body as { passages: unknown[] }).passages).toEqual([]);
        }
        for (const question of QUESTIONS) {
          const answer = await (await postJson(`${t.url}/v1/ask`, key(), { question })).json();
          expectNoLeak(persona, `ask "${question}"`, answer);
          const stream = await (await postJson(`${t.url}/v1/ask/stream`, key(), { question })).text();
          expectNoLeak(persona, `ask/stream "${question}"`, stream);
          const chat = await (
            await postJson(`${t.url}/v1/chat/completions`, key(), {
              model: "ferret",
              messages: [{ role: "user", content: question }],
            })
          ).json();
          expectNoLeak(persona, `chat "${question}"`, chat);
        }
      });

      it("documents of other sources and tenants are not found, listed, deleted or uploaded into", async () => {
        for (const source of SOURCES) {
          const list = await get(`/v1/sources/${source.name}/documents`);
          const readable = persona.readable.includes(source.name);
          expect(list.status, `${source.name} list`).toBe(readable ? 200 : 404);
          expectNoLeak(persona, `list ${source.name}`, await list.text(), [source.name]);
          for (const file of Object.keys(source.files)) {
            const doc = await get(`/v1/sources/${source.name}/documents/${encodeURIComponent(file)}`);
            expect(doc.status, `${source.name}/${file}`).toBe(readable ? 200 : 404);
            expectNoLeak(persona, `GET ${source.name}/${file}`, await doc.text(), [source.name]);
            if (!readable) {
              const del = await fetch(`${t.url}/v1/sources/${source.name}/documents/${encodeURIComponent(file)}`, {
                method: "DELETE",
                headers: auth(key()),
              });
              expect([403, 404], `DELETE ${source.name}/${file}`).toContain(del.status);
            }
          }
        }
        // Nothing was deleted by anyone.
        const hr = await fetch(`${t.url}/v1/sources/hr_docs/documents/salaries.md`, {
          headers: auth(t.keys["acme-hr"]!),
        });
        expect(hr.status).toBe(200);
        if (persona.principal.tenant === "acme" && !persona.readable.includes("hr_docs")) {
          const form = new FormData();
          form.append("files", new Blob(["# x\n\nopen it\n"]), "x.md");
          const upload = await fetch(`${t.url}/v1/sources/hr_docs/documents`, {
            method: "POST",
            headers: { authorization: `Bearer ${key()}` },
            body: form,
          });
          expect(upload.status).toBe(403);
        }
      });

      it("runs, jobs, sessions and decisions of others are not found", async () => {
        const runs = (await (await get("/v1/runs")).json()) as { runs: { runId: string; user: string }[] };
        const mine = runs.runs.map((r) => r.runId);
        expect(mine).toContain(runIds[persona.name]![0]);
        for (const other of PERSONAS.filter((p) => p !== persona)) {
          const theirs = runIds[other.name]![0]!;
          const sameTenantOwner =
            persona.principal.roles.includes("*") && other.principal.tenant === persona.principal.tenant;
          expect(mine.includes(theirs)).toBe(sameTenantOwner);
          const run = await get(`/v1/runs/${theirs}`);
          expect(run.status, `run of ${other.name}`).toBe(sameTenantOwner ? 200 : 404);
          expectNoLeak(persona, `run of ${other.name}`, await run.text());
          const decision = await postJson(`${t.url}/v1/runs/${theirs}/decision`, key(), { action: "stop" });
          expect(decision.status).toBe(404);
        }
        expectNoLeak(persona, "GET /v1/runs", runs);
        const job = await get(`/v1/jobs/${hrJob}`);
        expect(job.status).toBe(persona.name === "acme-hr" ? 200 : 404);
        const session = (await (await get("/v1/sessions/shared-session")).json()) as { turns: { role: string }[] };
        // Only the persona's own two turns (its question and answer), none of the others'.
        expect(session.turns.map((turn) => turn.role)).toEqual(["user", "assistant"]);
        expectNoLeak(persona, "GET /v1/sessions/shared-session", session);
      });

      it("MCP over Streamable HTTP: tools, calls and resources stay within the persona's rights", async () => {
        const client = await httpMcpClient(t.url, key());
        try {
          const tools = await client.listTools();
          expectNoLeak(persona, "tools/list", tools);
          const names = tools.tools.map((tool) => tool.name);
          expect(names).toEqual(expect.arrayContaining(["search", "list_sources", "ask"]));
          expect(names.includes("run_sql")).toBe(persona.readable.includes("tickets"));
          for (const query of QUERIES) {
            expectNoLeak(
              persona,
              `mcp search "${query}"`,
              await client.callTool({ name: "search", arguments: { query } }),
            );
          }
          for (const source of SOURCES.filter((s) => !persona.readable.includes(s.name))) {
            const res = await client.callTool({
              name: "search",
              arguments: { query: "code word", corpus: source.name },
            });
            expect(res.isError).toBe(true);
            expectNoLeak(persona, `mcp search in ${source.name}`, res, [source.name]);
          }
          for (const question of QUESTIONS.slice(2, 6)) {
            expectNoLeak(
              persona,
              `mcp ask "${question}"`,
              await client.callTool({ name: "ask", arguments: { question } }),
            );
          }
          expectNoLeak(persona, "mcp list_sources", await client.callTool({ name: "list_sources", arguments: {} }));
          if (names.includes("run_sql")) {
            const rows = await client.callTool({ name: "run_sql", arguments: { sql: "SELECT title FROM tickets" } });
            expect(JSON.stringify(rows)).toContain("Gateway timeout");
          }
          const resources = await client.listResources();
          expectNoLeak(persona, "resources/list", resources);
          expect(resources.resources.length).toBeGreaterThan(0);
          for (const source of SOURCES) {
            for (const file of Object.keys(source.files)) {
              const uri = `ferret://source/${source.name}/${encodeURIComponent(file)}`;
              const read = client.readResource({ uri });
              if (persona.readable.includes(source.name)) {
                const text = JSON.stringify(await read);
                expect(source.words.some((w) => text.includes(w))).toBe(true);
              } else {
                const outcome = await read.then(
                  (value) => JSON.stringify(value),
                  (error: Error) => error.message,
                );
                expectNoLeak(persona, `resources/read ${uri}`, outcome, [source.name]);
              }
            }
          }
        } finally {
          await client.close();
        }
      });
    });
  }
});
