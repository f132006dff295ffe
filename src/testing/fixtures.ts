/**
 * Fixtures the store conformance suites use: tenants, principals, a document builder (one chunk per paragraph)
 * and a small corpus with table sources. Relies on nothing but the spec and the shared tokenizer (no vitest, so
 * a store's own tests may build documents with it).
 */
import { createHash } from "node:crypto";
import type { ChunkRecord, DocumentWrite } from "../spec/document.js";
import type { Principal } from "../spec/principal.js";
import type { SourceRecord } from "../spec/source.js";
import type { StoreCapability, StoreV1, TableWrite } from "../spec/store.js";
import { countTokens, searchText } from "../text/tokenize.js";

export const ACME = "acme";
export const GLOBEX = "globex";
/** Staff of acme, without the `hr` role. */
export const alice: Principal = { tenant: ACME, user: "alice", roles: ["staff"] };
/** Staff of acme with the `hr` role. */
export const harriet: Principal = { tenant: ACME, user: "harriet", roles: ["staff", "hr"] };
export const acmeOwner: Principal = { tenant: ACME, user: "local", roles: ["*"] };
/** Owner of another tenant: holds every role, but only there. */
export const olga: Principal = { tenant: GLOBEX, user: "olga", roles: ["*"] };

export interface FixtureDoc {
  id: string;
  source: string;
  title: string;
  /** Paragraphs, one chunk each. */
  paragraphs: string[];
  tenant?: string;
  acl?: string[];
  updatedAt?: string;
  section?: string[];
  /** One vector per paragraph. */
  vectors?: number[][];
}

/** A document write with one chunk per paragraph, offsets into the joined text, and index words. */
export function fixtureWrite(fixture: FixtureDoc): DocumentWrite {
  const text = fixture.paragraphs.join("\n\n");
  const tenant = fixture.tenant ?? ACME;
  const acl = fixture.acl ?? [];
  const chunks: ChunkRecord[] = [];
  let start = 0;
  fixture.paragraphs.forEach((paragraph, ordinal) => {
    const vector = fixture.vectors?.[ordinal];
    chunks.push({
      id: `${fixture.id}::${ordinal}`,
      docId: fixture.id,
      ordinal,
      text: paragraph,
      section: fixture.section ?? [],
      start,
      end: start + paragraph.length,
      tokens: countTokens(paragraph),
      searchText: searchText(paragraph),
      ...(vector ? { embedding: Float32Array.from(vector) } : {}),
    });
    start += paragraph.length + 2;
  });
  const contentHash = createHash("sha256")
    .update(JSON.stringify([text, fixture.title, fixture.updatedAt, acl]))
    .digest("hex");
  return {
    doc: {
      id: fixture.id,
      source: fixture.source,
      tenant,
      title: fixture.title,
      acl,
      contentHash,
      text,
      metadata: { fixture: true },
      ...(fixture.updatedAt ? { updatedAt: fixture.updatedAt } : {}),
    },
    chunks,
  };
}

/** Opens a fresh, empty store for one test; `cleanup` removes what it left (files, schemas). */
export type OpenStore = () => Promise<{ store: StoreV1; cleanup: () => Promise<void> }>;

/** Does the store declare the capability (a suite's cross-checks into other capabilities ask first)? */
export function has(store: StoreV1, capability: StoreCapability): boolean {
  return store.capabilities.has(capability);
}

export const ids = (hits: { id: string }[]) => hits.map((hit) => hit.id);
export const docIds = (hits: { docId: string }[]) => [...new Set(hits.map((hit) => hit.docId))].sort();

export const SOURCES: SourceRecord[] = [
  {
    name: "handbook",
    tenant: ACME,
    kind: "documents",
    description: "Employee handbook",
    acl: [],
    path: "docs/handbook",
  },
  { name: "salaries", tenant: ACME, kind: "documents", description: "Salary bands", acl: ["hr"] },
  { name: "handbook", tenant: GLOBEX, kind: "documents", description: "Globex handbook", acl: [] },
];

export const DOCS: FixtureDoc[] = [
  {
    id: "handbook/vacation.md",
    source: "handbook",
    title: "Vacation policy",
    section: ["Leave", "Vacation"],
    updatedAt: "2024-03-01",
    paragraphs: ["Employees receive 25 vacation days per year.", "Unused vacation days expire at the end of March."],
    vectors: [
      [1, 0, 0, 0],
      [0.9, 0.1, 0, 0],
    ],
  },
  {
    id: "handbook/security.md",
    source: "handbook",
    title: "Security",
    updatedAt: "2023-06-15",
    paragraphs: ["Rotate passwords every 90 days and wear the badge in the datacenter."],
    vectors: [[0, 1, 0, 0]],
  },
  {
    id: "handbook/bonus.md",
    source: "handbook",
    title: "Bonus plan",
    acl: ["hr"],
    updatedAt: "2024-05-01",
    paragraphs: ["The bonus pool is four percent of payroll; vacation payout counts toward it."],
    vectors: [[0, 0, 1, 0]],
  },
  {
    id: "salaries/2024.md",
    source: "salaries",
    title: "Salary bands 2024",
    updatedAt: "2024-01-10",
    paragraphs: ["Engineer salary bands rise three percent; vacation accrual is unchanged."],
    vectors: [[0, 0, 0, 1]],
  },
  {
    id: "handbook/vacation.md",
    source: "handbook",
    tenant: GLOBEX,
    title: "Globex vacation",
    updatedAt: "2024-02-02",
    paragraphs: ["Globex employees receive 10 vacation days."],
    vectors: [[1, 0, 0, 0]],
  },
];

export const TICKETS: TableWrite = {
  tenant: ACME,
  source: "tickets",
  file: "tickets.csv",
  schema: {
    name: "tickets",
    primaryKey: "ticket_id",
    columns: [
      { name: "ticket_id", type: "INTEGER" },
      { name: "title", type: "TEXT" },
      { name: "hours", type: "REAL" },
    ],
  },
  rows: [1, 2, 3, 4, 5].map((n) => ({ ticket_id: n, title: `Ticket ${n}`, hours: n * 1.5 })),
};

export const PAYROLL: TableWrite = {
  tenant: ACME,
  source: "payroll",
  file: "payroll.csv",
  schema: {
    name: "payroll",
    primaryKey: "employee",
    columns: [
      { name: "employee", type: "TEXT" },
      { name: "salary", type: "INTEGER" },
    ],
  },
  rows: [
    { employee: "alice", salary: 100 },
    { employee: "bob", salary: 120 },
  ],
};

/** Registers the sources and documents above, and the tables when the store keeps tables. */
export async function seed(store: StoreV1): Promise<void> {
  for (const source of SOURCES) await store.putSource(source);
  await store.putSource({
    name: "tickets",
    tenant: ACME,
    kind: "table",
    description: "Support tickets",
    acl: [],
    path: "tickets.csv",
  });
  await store.putSource({ name: "payroll", tenant: ACME, kind: "table", description: "Payroll", acl: ["hr"] });
  await store.writeDocuments(DOCS.map(fixtureWrite));
  if (!has(store, "tables")) return;
  await store.writeTable(TICKETS);
  await store.writeTable(PAYROLL);
}
