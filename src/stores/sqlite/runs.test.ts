import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Principal } from "../../spec/principal.js";
import type { RunRecord } from "../../spec/store.js";
import { createSqliteStore, type SqliteStore } from "./index.js";

const run = (id: string, tenant: string, user: string, at: string, status: string, stopReason: string): RunRecord => ({
  runId: id,
  tenant,
  user,
  question: `question ${id}`,
  startedAt: at,
  events: [],
  answer: { status, stopReason, usage: { costUsd: 0.5 }, latencyMs: 12, text: "secret answer" },
});

const sam: Principal = { tenant: "acme", user: "sam", roles: ["eng"] };
const owner: Principal = { tenant: "acme", user: "root", roles: ["*"] };

describe("sqlite listRuns", () => {
  let store: SqliteStore;
  beforeEach(async () => {
    store = await createSqliteStore({ path: ":memory:" });
    await store.saveRun(run("r1", "acme", "sam", "2026-01-01T00:00:01Z", "answered", "answered"));
    await store.saveRun(run("r2", "acme", "kim", "2026-01-01T00:00:02Z", "refused", "insufficient_evidence"));
    await store.saveRun(run("r3", "acme", "sam", "2026-01-01T00:00:03Z", "refused", "aborted"));
    await store.saveRun(run("r4", "globex", "sam", "2026-01-01T00:00:04Z", "answered", "answered"));
  });
  afterEach(() => store.close());

  it("shows a user only their own runs of their tenant, newest first, without answer text", async () => {
    const runs = await store.listRuns(sam);
    expect(runs.map((r) => r.runId)).toEqual(["r3", "r1"]);
    expect(runs[0]).toEqual({
      runId: "r3",
      tenant: "acme",
      user: "sam",
      question: "question r3",
      startedAt: "2026-01-01T00:00:03Z",
      status: "refused",
      stopReason: "aborted",
      costUsd: 0.5,
      latencyMs: 12,
    });
    // Asking for another user's runs does not widen what a non-owner sees.
    expect((await store.listRuns(sam, { user: "kim" })).map((r) => r.runId)).toEqual(["r3", "r1"]);
  });

  it("shows an owner every user of the tenant, with filters and paging", async () => {
    expect((await store.listRuns(owner)).map((r) => r.runId)).toEqual(["r3", "r2", "r1"]);
    expect((await store.listRuns(owner, { user: "kim" })).map((r) => r.runId)).toEqual(["r2"]);
    expect((await store.listRuns(owner, { status: "refused" })).map((r) => r.runId)).toEqual(["r3", "r2"]);
    expect((await store.listRuns(owner, { stopReason: "aborted" })).map((r) => r.runId)).toEqual(["r3"]);
    const first = await store.listRuns(owner, { limit: 2 });
    expect(first.map((r) => r.runId)).toEqual(["r3", "r2"]);
    const next = await store.listRuns(owner, { limit: 2, before: first.at(-1)?.startedAt });
    expect(next.map((r) => r.runId)).toEqual(["r1"]);
  });
});
