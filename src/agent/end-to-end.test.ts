import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestPath } from "../ingest/index.js";
import { createOfflineEngine } from "../models/offline/index.js";
import { createRetriever } from "../retrieval/index.js";
import { LOCAL_OWNER, type Principal } from "../spec/principal.js";
import { createSqliteStore, type SqliteStore } from "../stores/sqlite/index.js";
import { formatTrace } from "../trace/format.js";
import { askAgent } from "./run-agent.js";

// A real run: markdown files ingested into a SQLite file, keyword retrieval, the offline engine, the loop.
let dir: string;
let store: SqliteStore;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ferret-agent-"));
  const docs = join(dir, "docs");
  const { mkdir } = await import("node:fs/promises");
  await mkdir(docs);
  await writeFile(
    join(docs, "refunds.md"),
    "# Refunds\n\nA refund request times out after 30 seconds when the payment gateway does not answer.\n",
  );
  await writeFile(
    join(docs, "limits.md"),
    "# Rate limits\n\nThe public API allows 100 requests per minute for each API key.\n",
  );
  const secret = join(dir, "secret");
  await mkdir(secret);
  await writeFile(
    join(secret, "salaries.md"),
    "# Salaries\n\nThe refund team lead earns a confidential salary of 90000.\n",
  );
  store = await createSqliteStore({ path: join(dir, "ferret.db") });
  await ingestPath({ store, path: docs, source: "api_docs", description: "API reference: refunds, limits" });
  await ingestPath({ store, path: secret, source: "finance", description: "Salaries", acl: ["finance"] });
});

afterAll(async () => {
  await store?.close();
  await rm(dir, { recursive: true, force: true });
});

async function ask(question: string, principal: Principal = LOCAL_OWNER) {
  const sources = await store.listSources(principal);
  return askAgent({
    question,
    principal,
    engine: createOfflineEngine(),
    retriever: createRetriever({ store }),
    store,
    sources,
  });
}

describe("runAgent end to end (SQLite, keyword retrieval, offline engine)", () => {
  it("answers with a verified citation and saves a readable trace", async () => {
    const answer = await ask("How long until a refund request times out?");
    expect(answer.status).not.toBe("refused");
    expect(answer.model).toBe("offline");
    expect(answer.citations.length).toBeGreaterThan(0);
    for (const c of answer.citations) {
      const item = answer.evidence[c.n - 1];
      expect(item?.id).toBe(c.passageId);
      expect(item?.text.toLowerCase().replace(/\s+/g, " ")).toContain(c.quote.toLowerCase().replace(/\s+/g, " "));
    }
    const saved = await store.getRun(answer.runId, LOCAL_OWNER);
    expect(saved).toBeDefined();
    expect(formatTrace(saved!)).toContain(`stop reason: ${answer.stopReason}`);
  });

  it("never shows a principal what it may not read", async () => {
    const staff: Principal = { tenant: "default", user: "bob", roles: ["staff"] };
    const answer = await ask("What salary does the refund team lead earn?", staff);
    expect(answer.evidence.map((e) => e.source)).not.toContain("finance");
    expect(answer.text).not.toContain("90000");
  });
});
