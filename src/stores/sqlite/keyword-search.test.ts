import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DocumentWrite } from "../../spec/document.js";
import { allows, type Principal } from "../../spec/principal.js";
import type { KeywordQuery } from "../../spec/store.js";
import { searchText } from "../../text/tokenize.js";
import { StoreContext } from "./context.js";
import { chunkFilter } from "./filters.js";
import { createSqliteStore } from "./index.js";
import { BM25_WEIGHTS, keywordSearch, keywordSearchJoined, matchExpression } from "./keyword-search.js";

const dir = mkdtempSync(join(tmpdir(), "ferret-kw-"));
const path = join(dir, "kw.db");
let db: Database.Database;
let ctx: StoreContext;

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"];
const next = random(7);
/** Skewed word choice, so some terms match most chunks and some only a few. */
const word = () => WORDS[Math.floor(next() ** 2.5 * WORDS.length)]!;
const sentence = (n: number) => Array.from({ length: n }, word).join(" ");

const ACLS: string[][] = [[], [], ["staff"], ["hr"], ["hr", "finance"]];
const SOURCES = ["handbook", "payroll", "wiki"];
const DATES = ["2023-01-01", "2024-06-01", "2025-03-01"];

function corpus(tenant: string, count: number): DocumentWrite[] {
  return Array.from({ length: count }, (_, i) => {
    const id = `${tenant}-doc-${i}`;
    const source = SOURCES[i % SOURCES.length]!;
    const bodies = Array.from({ length: 1 + (i % 4) }, () => sentence(3 + Math.floor(next() * 12)));
    return {
      doc: {
        id,
        source,
        tenant,
        title: i % 7 === 0 ? sentence(2) : `Document ${i}`,
        acl: ACLS[i % ACLS.length]!,
        contentHash: id,
        text: bodies.join("\n\n"),
        metadata: {},
        updatedAt: DATES[i % DATES.length]!,
      },
      chunks: bodies.map((text, ordinal) => ({
        id: `${id}::${ordinal}`,
        docId: id,
        ordinal,
        text,
        section: ordinal % 2 === 0 ? [] : [sentence(1)],
        start: 0,
        end: text.length,
        tokens: text.split(" ").length,
        searchText: searchText(text),
      })),
    };
  });
}

/** The naive reference: score every match from FTS alone, filter in JS, sort by score then rowid. */
function reference(query: Omit<KeywordQuery, "k">): string[] {
  const match = matchExpression(query.terms);
  if (match === undefined) return [];
  const { title, section, body } = BM25_WEIGHTS;
  const rows = db
    .prepare(
      `SELECT f.rowid AS rowid, -bm25(chunks_fts, ${title}, ${section}, ${body}) AS raw
       FROM chunks_fts AS f WHERE chunks_fts MATCH ?`,
    )
    .all(match) as { rowid: number; raw: number }[];
  const chunk = db.prepare("SELECT id, tenant, doc_id, source, acl, updated_at FROM chunks WHERE rowid = ?");
  const sourceAcl = db.prepare("SELECT acl FROM sources WHERE tenant = ? AND name = ?");
  const { principal } = query;
  const kept = rows.filter(({ rowid }) => {
    const c = chunk.get(rowid) as {
      id: string;
      tenant: string;
      doc_id: string;
      source: string;
      acl: string;
      updated_at: string;
    };
    if (c.tenant !== principal.tenant || !allows(principal, JSON.parse(c.acl))) return false;
    const src = sourceAcl.get(c.tenant, c.source) as { acl: string } | undefined;
    if (src && !allows(principal, JSON.parse(src.acl))) return false;
    if (query.sources?.length && !query.sources.includes(c.source)) return false;
    if (query.docId !== undefined && c.doc_id !== query.docId) return false;
    if (query.docIds !== undefined && !query.docIds.includes(c.doc_id)) return false;
    if (query.since !== undefined && c.updated_at < query.since) return false;
    return true;
  });
  kept.sort((a, b) => b.raw - a.raw || a.rowid - b.rowid);
  return kept.map(({ rowid }) => (chunk.get(rowid) as { id: string }).id);
}

const owner: Principal = { tenant: "acme", user: "o", roles: ["*"] };
const staff: Principal = { tenant: "acme", user: "s", roles: ["staff"] };
const hr: Principal = { tenant: "acme", user: "h", roles: ["hr"] };
const nobody: Principal = { tenant: "acme", user: "n", roles: [] };
const globex: Principal = { tenant: "globex", user: "g", roles: [] };

const QUERIES = [
  ["alpha"],
  ["alpha", "bravo"],
  ["juliet"],
  ["india", "juliet", "hotel"],
  ["delta", "alpha", "echo"],
  // A rare term with frequent ones: chunks with only the frequent ones are pruned by their score bound.
  ["alpha", "juliet"],
  ["bravo", "india", "alpha"],
  ["alpha", "nowhere", "hotel"],
];

beforeAll(async () => {
  const store = await createSqliteStore({ path });
  await store.putSource({ name: "payroll", tenant: "acme", kind: "documents", description: "p", acl: ["finance"] });
  await store.putSource({ name: "handbook", tenant: "acme", kind: "documents", description: "h", acl: [] });
  // A large tenant and a small one, so the small one's filter rejects most of the top candidates.
  await store.writeDocuments(corpus("acme", 700));
  await store.writeDocuments(corpus("globex", 40));
  await store.close();
  db = new Database(path, { readonly: true });
  ctx = new StoreContext({ db, path, readonly: true });
});

afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("keywordSearch", () => {
  it("returns exactly the naive reference's top k for every principal, filter and k", () => {
    const filters: Partial<KeywordQuery>[] = [
      {},
      { sources: ["wiki"] },
      { sources: ["payroll", "wiki"] },
      { since: "2024-06-01" },
      { docId: "acme-doc-14" },
      { docIds: ["acme-doc-3", "acme-doc-4", "acme-doc-21", "globex-doc-5"] },
    ];
    let compared = 0;
    for (const principal of [owner, staff, hr, nobody, globex]) {
      for (const terms of QUERIES) {
        for (const extra of filters) {
          const ranked = reference({ principal, terms, ...extra });
          for (const k of [1, 10, 30, 200]) {
            const expected = ranked.slice(0, k);
            expect(keywordSearch(ctx, { principal, terms, k, ...extra }).map((hit) => hit.id)).toEqual(expected);
            compared += expected.length;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(10_000);
    // Thousands of reference rankings: well inside a minute alone, but not on a machine shared with other work.
  }, 300_000);

  it("returns what the single joined query returns, scores equal up to rounding", () => {
    for (const principal of [owner, hr, globex]) {
      for (const terms of QUERIES) {
        const query: KeywordQuery = { principal, terms, k: 25 };
        const joined = keywordSearchJoined(ctx, matchExpression(terms)!, chunkFilter(query), 25);
        const hits = keywordSearch(ctx, query);
        expect(hits.map((hit) => hit.id)).toEqual(joined.map((hit) => hit.id));
        hits.forEach((hit, i) => {
          expect(hit.raw).toBeCloseTo(joined[i]!.raw, 9);
          expect({ ...hit, raw: 0, score: 0 }).toEqual({ ...joined[i], raw: 0, score: 0 });
        });
        expect(joined.length).toBeGreaterThan(0);
      }
    }
  });

  it("returns scores in descending order with passage fields", () => {
    const hits = keywordSearch(ctx, { principal: staff, terms: ["bravo", "golf"], k: 40 });
    expect(hits).toHaveLength(40);
    const scores = hits.map((hit) => hit.raw);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(hits[0]).toMatchObject({ score: hits[0]!.raw, source: expect.any(String), title: expect.any(String) });
    for (const hit of hits) expect(hit.docId.startsWith("acme-")).toBe(true);
  });
});
