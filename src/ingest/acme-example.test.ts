import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StoreV1 } from "../spec/store.js";
import { createSqliteStore } from "../stores/sqlite/index.js";
import { type IngestSummary, ingestPath } from "./ingest.js";

const ACME = fileURLToPath(new URL("../../examples/acme/", import.meta.url));
const OWNER = { tenant: "acme", user: "owner", roles: ["*"] };
const TYPES = ["single_hop", "multi_source", "multi_hop", "aggregation", "unanswerable", "no_retrieval", "acl"];

interface Question {
  id: string;
  type: string;
  answer_keywords: string[][];
  gold_sources: string[];
  gold_tools: string[];
  expect_refusal: boolean;
  principal?: { tenant: string; user: string; roles: string[] };
  must_not_contain?: string[];
}

let dir: string;
let store: StoreV1;
let summary: IngestSummary;
let questions: Question[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ferret-acme-"));
  store = await createSqliteStore({ path: join(dir, "ferret.db") });
  summary = await ingestPath({ store, path: ACME, tenant: "acme" });
  questions = (await readFile(join(ACME, "questions.jsonl"), "utf8"))
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Question);
});
afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe("examples/acme", () => {
  it("ingests cleanly: three sources, no failures, skips or warnings", () => {
    expect(summary).toMatchObject({
      sources: ["handbook", "hr_policies", "support_tickets"],
      failed: [],
      skipped: [],
      warnings: [],
    });
    expect(summary.added).toBe(9 + 3 + 30);
  });

  it("has questions of every required type, all in one tenant, each gold source ingested", async () => {
    expect(new Set(questions.map((q) => q.type))).toEqual(new Set(TYPES));
    expect(new Set(questions.map((q) => q.id)).size).toBe(questions.length);
    const ids = new Set<string>();
    for (const source of ["handbook", "hr_policies", "support_tickets"]) {
      for (const id of (await store.documentHashes("acme", source)).keys()) ids.add(id);
    }
    for (const q of questions) {
      for (const gold of q.gold_sources) expect(ids.has(gold), `${q.id}: ${gold}`).toBe(true);
      if (q.principal) expect(q.principal.tenant).toBe("acme");
      if (q.expect_refusal) expect(q.answer_keywords).toEqual([]);
    }
  });

  it("keeps hr policies from a reader without the hr role, and the secret is really there", async () => {
    const acl = questions.find((q) => q.type === "acl" && q.expect_refusal) as Question;
    const engineer = acl.principal as Question["principal"] & object;
    const visible = (await store.listSources(engineer)).map((s) => s.name);
    expect(visible).not.toContain("hr_policies");
    const bands = await store.getDocument("hr_policies/salary-bands.md", OWNER);
    expect(acl.must_not_contain?.some((s) => bands?.text.includes(s))).toBe(true);
    expect(await store.getDocument("hr_policies/salary-bands.md", engineer)).toBeUndefined();
  });

  it("answers the aggregation questions' gold from SQL", async () => {
    const urgent = await store.querySql(
      "SELECT ticket_id FROM support_tickets WHERE priority = 'urgent' AND status IN ('open', 'in_progress') ORDER BY ticket_id",
      OWNER,
    );
    const q11 = questions.find((q) => q.id === "acme-11") as Question;
    expect(urgent.rows.map((r) => `support_tickets.csv#${r.ticket_id}`)).toEqual(q11.gold_sources);
    const top = await store.querySql(
      "SELECT product, COUNT(*) AS n FROM support_tickets GROUP BY product ORDER BY n DESC LIMIT 1",
      OWNER,
    );
    expect(top.rows[0]).toEqual({ product: "telemetry_gateway", n: 10 });
  });
});
