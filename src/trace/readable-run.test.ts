import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFerret, type Ferret } from "../ferret.js";
import type { Principal } from "../spec/principal.js";
import type { RunRecord } from "../spec/store.js";
import type { TraceEvent } from "../spec/trace.js";
import { formatTrace } from "./format.js";
import { REDACTED, REDACTED_ANSWER, readableRun, upgradeEvents } from "./readable-run.js";

const SALARY = "Dana Smith earns 91000 euros per year.";
const LEAVE = "Parental leave lasts 20 weeks at full pay.";
const harriet: Principal = { tenant: "default", user: "harriet", roles: ["staff", "hr"] };
/** Harriet after the hr role was taken from her. */
const harrietLater: Principal = { ...harriet, roles: ["staff"] };
const owner: Principal = { tenant: "default", user: "root", roles: ["*"] };

let dir: string;
let ferret: Ferret;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ferret-readable-run-"));
  for (const [folder, file, text] of [
    ["hr", "salaries.md", `# Salaries\n\n${SALARY}\n`],
    ["handbook", "leave.md", `# Parental leave\n\n${LEAVE}\n`],
  ] as const) {
    await mkdir(join(dir, folder));
    await writeFile(join(dir, folder, file), text);
  }
  await writeFile(
    join(dir, "tickets.csv"),
    "ticket_id,status,title\nT-1,open,Gateway timeout\nT-2,open,Refund stuck\nT-3,closed,Login\n",
  );
  ferret = await createFerret({ db: join(dir, "ferret.db"), principal: owner });
  await ferret.ingest(join(dir, "hr"), { source: "hr", acl: ["hr"] });
  await ferret.ingest(join(dir, "handbook"), { source: "handbook" });
  await ferret.ingest(join(dir, "tickets.csv"), { source: "tickets", acl: ["support"] });
});

afterEach(async () => {
  await ferret.close();
  await rm(dir, { recursive: true, force: true });
});

const passagesOf = (record: RunRecord) =>
  (record.events as TraceEvent[]).flatMap((e) => (e.type === "tool-call-end" ? e.passages : []));

describe("reading a trace re-checks the reader's current rights", () => {
  it("shows the run whole while the reader may read all it read", async () => {
    const answer = await ferret.ask("How much does Dana Smith earn?", { principal: harriet });
    expect(answer.text).toContain("91000");
    const record = await ferret.trace(answer.runId, { principal: harriet });
    expect(record?.redacted).toBeUndefined();
    expect(record).toEqual(await ferret.store.getRun(answer.runId, harriet));
    expect(record?.sources).toEqual(["handbook", "hr"]);
  });

  it("redacts the passages and everything drawn from them once the reader's role is gone", async () => {
    const answer = await ferret.ask("How much does Dana Smith earn?", { principal: harriet });
    expect(passagesOf((await ferret.trace(answer.runId, { principal: harriet }))!).map((p) => p.source)).toContain(
      "hr",
    );

    const record = await ferret.trace(answer.runId, { principal: harrietLater });
    expect(record).toBeDefined();
    expect(JSON.stringify(record)).not.toContain("91000");
    expect(JSON.stringify(record)).not.toContain("salaries.md");
    expect(formatTrace(record!)).not.toContain("91000");
    expect(formatTrace(record!)).toContain("redacted: ");
    expect(record!.redacted?.passages).toBeGreaterThan(0);
    expect(passagesOf(record!).filter((p) => p.source === "hr")).toEqual([]);
    expect(passagesOf(record!).some((p) => p.id === REDACTED)).toBe(true);
    const events = record!.events as TraceEvent[];
    expect(events.some((e) => e.type === "answer-delta")).toBe(false);
    const end = events.find((e) => e.type === "answer-end");
    expect(end?.type === "answer-end" && end.answer.text).toBe(REDACTED_ANSWER);
    // Its shape stays: the question, the steps, the tools and the stop reason.
    expect(record!.question).toBe("How much does Dana Smith earn?");
    expect(events.map((e) => e.type)).toEqual(
      ((await ferret.store.getRun(answer.runId, harriet))!.events as TraceEvent[])
        .map((e) => e.type)
        .filter((k) => k !== "answer-delta"),
    );
    expect(events.at(-1)?.type).toBe("run-end");
  });

  it("leaves a run alone that read nothing the reader lost", async () => {
    const answer = await ferret.ask("How long is parental leave?", { principal: harriet });
    expect(answer.text).toContain("20 weeks");
    const record = await ferret.trace(answer.runId, { principal: harrietLater });
    expect(record?.redacted).toBeUndefined();
    expect(JSON.stringify(record)).toContain("20 weeks");
  });

  it("redacts passages of a document deleted since, even for the owner", async () => {
    const answer = await ferret.ask("How long is parental leave?", { principal: owner });
    await ferret.store.removeDocuments("default", ["leave.md"], { source: "handbook" });
    const record = await ferret.trace(answer.runId, { principal: owner });
    expect(JSON.stringify(record)).not.toContain("20 weeks");
    expect(record?.redacted?.passages).toBeGreaterThan(0);
  });

  it("redacts a run that queried tables once a source it could query is no longer readable", async () => {
    const sam: Principal = { tenant: "default", user: "sam", roles: ["support"] };
    const answer = await ferret.ask("How many tickets are open?", { principal: sam });
    const tools = (await ferret.store.getRun(answer.runId, sam))!.events as TraceEvent[];
    expect(tools.some((e) => e.type === "tool-call-start" && e.call.tool === "run_sql")).toBe(true);
    expect((await ferret.trace(answer.runId, { principal: sam }))?.redacted).toBeUndefined();

    const record = await ferret.trace(answer.runId, { principal: { ...sam, roles: [] } });
    const end = (record!.events as TraceEvent[]).find((e) => e.type === "answer-end");
    expect(end?.type === "answer-end" && end.answer.text).toBe(REDACTED_ANSWER);
    for (const e of record!.events as TraceEvent[]) {
      if (e.type === "tool-call-start") expect(e.call.args).toEqual({});
    }
  });

  it("treats the tables of a run saved without its sources as unknown: only the owner sees it whole", async () => {
    const record: RunRecord = {
      runId: "old",
      tenant: "default",
      user: "sam",
      question: "How many tickets are open?",
      startedAt: "2026-01-01T00:00:00Z",
      events: [
        {
          type: "tool-call-start",
          runId: "old",
          step: 1,
          t: 0,
          call: { callId: "c1", tool: "run_sql", args: { sql: "SELECT 2" } },
        },
        {
          type: "tool-call-end",
          runId: "old",
          step: 1,
          t: 1,
          callId: "c1",
          tool: "run_sql",
          status: "ok",
          passages: [],
          rows: 1,
          ms: 1,
        },
      ],
    };
    const sam: Principal = { tenant: "default", user: "sam", roles: ["support"] };
    const seen = await readableRun({ record, store: ferret.store, principal: sam });
    expect(seen.redacted).toEqual({ passages: 0 });
    expect((seen.events[0] as { call: { args: unknown } }).call.args).toEqual({});
    expect(await readableRun({ record, store: ferret.store, principal: owner })).toBe(record);
  });
});

describe("runs saved before events were tagged by type and steps were listed", () => {
  it("read with `type` in place of the old `kind`, and a redacted legacy run still hides the passage", async () => {
    const answer = await ferret.ask("How much does Dana Smith earn?", { principal: harriet });
    const saved = (await ferret.store.getRun(answer.runId, harriet)) as RunRecord;
    const legacy: RunRecord = {
      ...saved,
      events: (saved.events as TraceEvent[]).map(({ type, ...rest }) => ({ kind: type, ...rest })),
      answer: { ...answer, steps: answer.stepCount, stepCount: undefined },
    };
    await ferret.store.saveRun(legacy);
    const read = await ferret.trace(answer.runId, { principal: harriet });
    expect(read?.events).toEqual(saved.events);
    expect(read?.answer).toMatchObject({ steps: [], stepCount: answer.stepCount });
    const later = await ferret.trace(answer.runId, { principal: harrietLater });
    expect(later?.redacted?.passages).toBeGreaterThan(0);
    expect(JSON.stringify(later?.events)).not.toContain("91000");
    expect(upgradeEvents(saved)).toBe(saved);
  });
});
