/**
 * The sub-query cache across processes: this process (A) caches results; a real `ferret` CLI process (B) changes
 * the same SQLite file; A's next call must see the change, not the cached result.
 */
import { mkdir, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createFerret, type Ferret } from "../../src/ferret.js";
import { createSubQueryCache } from "../../src/retrieval/cache.js";
import { createRetriever } from "../../src/retrieval/search.js";
import type { Principal } from "../../src/spec/principal.js";
import type { TraceEvent } from "../../src/spec/trace.js";
import { createSqliteStore, type SqliteStore } from "../../src/stores/sqlite/index.js";
import { createCachedExecutor } from "../../src/tools/cached-executor.js";
import type { ToolContext } from "../../src/tools/define-tool.js";
import { createToolset } from "../../src/tools/toolset.js";
import { ferret, tempDir } from "./run-cli.js";

const STAFF: Principal = { tenant: "default", user: "sam", roles: ["staff"] };
const LEAVE = "Parental leave lasts 20 weeks at full pay.";

const open: (SqliteStore | Ferret)[] = [];
afterEach(async () => {
  for (const handle of open.splice(0)) await handle.close();
});

/** A handbook folder and a store file that process B (the CLI) has ingested it into. */
async function ingested(): Promise<{ docs: string; db: string }> {
  const dir = await tempDir("ferret-cache-");
  const docs = join(dir, "handbook");
  await mkdir(docs);
  await writeFile(join(docs, "leave.md"), `# Parental leave\n\n${LEAVE}\n`);
  await writeFile(join(docs, "travel.md"), "# Travel\n\nBook trains two weeks early.\n");
  const db = join(dir, "ferret.db");
  await cli(["ingest", docs, "--db", db, "--source", "handbook"]);
  return { docs, db };
}

async function cli(args: string[]): Promise<void> {
  const run = await ferret(args);
  if (run.code !== 0) throw new Error(`ferret ${args.join(" ")} exited ${run.code}: ${run.stderr}`);
}

describe("sub-query cache shared by two processes", () => {
  it("misses, within a run, once another process has taken the reader's role off the source", async () => {
    const { docs, db } = await ingested();
    const store = await createSqliteStore({ path: db });
    open.push(store);
    // One context, as a run in progress holds it: its readable sources were read before the change.
    const ctx: ToolContext = {
      principal: STAFF,
      store,
      retriever: createRetriever({ store }),
      sources: await store.listSources(STAFF),
      signal: new AbortController().signal,
    };
    const execute = createCachedExecutor({ cache: createSubQueryCache() });
    const toolset = createToolset({ sources: ctx.sources });
    const call = { tool: "search", args: { query: "parental leave weeks" } };
    const before = await execute(toolset, call, ctx);
    expect(before.passages?.some((p) => p.text.includes(LEAVE))).toBe(true);
    expect((await execute(toolset, call, ctx)).cached).toBe(true);

    await cli(["ingest", docs, "--db", db, "--source", "handbook", "--acl", "hr"]);

    const after = await execute(toolset, call, ctx);
    expect(after.cached).toBeUndefined();
    expect(after.passages ?? []).toEqual([]);
  });

  it("no longer answers from a document another process deleted", async () => {
    const { docs, db } = await ingested();
    const a = await createFerret({ db, principal: STAFF });
    open.push(a);
    const ask = async () => {
      const events: TraceEvent[] = [];
      for await (const event of a.stream("How long is parental leave?")) events.push(event);
      const ends = events.filter((e) => e.type === "tool-call-end");
      return {
        cached: ends.map((e) => e.cached === true),
        docs: ends.flatMap((e) => e.passages.map((p) => p.docId)),
      };
    };
    const first = await ask();
    expect(first.docs).toContain("leave.md");
    expect(first.cached).not.toContain(true);
    const second = await ask();
    expect(second.cached[0]).toBe(true);
    expect(second.docs).toContain("leave.md");

    await unlink(join(docs, "leave.md"));
    await cli(["ingest", docs, "--db", db, "--source", "handbook", "--prune"]);

    const third = await ask();
    expect(third.cached[0]).toBe(false);
    expect(third.docs).not.toContain("leave.md");
  });
});
