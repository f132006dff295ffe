/**
 * Postings of the chunks' terms, so a keyword search of one-word terms reads index entries, not chunk rows.
 *
 * `chunk_terms` holds one row per (chunk, lexeme): the lexeme's weighted frequency in the chunk (its `tf` entry),
 * the chunk's token count, its tenant and, from schema 7, its ACL group (`term_groups`: the chunk's source and
 * acl, which with the tenant are what the chunks' policy reads; up to 6 the two columns themselves). Its index
 * is keyed by (tenant, lexeme, rowid) and carries the rest, so a term's postings are one index range. Its policy
 * reads the group's, so the postings a principal may read are exactly those of the chunks it may read.
 * `term_stats` counts each term's postings per group (n(q) of bm25, with bounds of its weight).
 *
 * Statement triggers on chunks keep it: an insert adds the new rows' postings, a delete removes the old rows'
 * (found by their `tf` keys in the index), an update does both. Each posting belongs to one chunk row, so
 * concurrent writers touch no common row.
 */

import { createHash } from "node:crypto";
import type pg from "pg";
import { BM25_B, BM25_K1, type RankTerm, type TermLexemes } from "./bm25.js";
import { Params } from "./db.js";
import { readableRows } from "./policies.js";

/** Schema step 4 -> 5. */
export const POSTINGS_MIGRATION = `
CREATE TABLE ferret.chunk_terms (
  tenant text NOT NULL, lexeme text NOT NULL, rowid bigint NOT NULL,
  f float8 NOT NULL, ntok integer NOT NULL, source text NOT NULL, acl jsonb NOT NULL
);
CREATE INDEX chunk_terms_by_term ON ferret.chunk_terms (tenant, lexeme, rowid) INCLUDE (f, ntok, source, acl);
ALTER TABLE ferret.chunk_terms ENABLE ROW LEVEL SECURITY;
ALTER TABLE ferret.chunk_terms FORCE ROW LEVEL SECURITY;
CREATE POLICY readable_rows ON ferret.chunk_terms USING (${readableRows("chunk_terms")}) WITH CHECK (ferret.tenant_ok(tenant));

CREATE FUNCTION ferret.chunk_terms_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    DELETE FROM ferret.chunk_terms AS ct USING old_rows AS r CROSS JOIN LATERAL jsonb_object_keys(r.tf) AS l (lexeme)
    WHERE ct.tenant = r.tenant AND ct.lexeme = l.lexeme AND ct.rowid = r.rowid;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO ferret.chunk_terms (tenant, lexeme, rowid, f, ntok, source, acl)
    SELECT r.tenant, t.key, r.rowid, t.value::float8, r.ntok, r.source, r.acl
    FROM new_rows AS r CROSS JOIN LATERAL jsonb_each(r.tf) AS t;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER chunk_terms_insert AFTER INSERT ON ferret.chunks REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ferret.chunk_terms_sync();
CREATE TRIGGER chunk_terms_delete AFTER DELETE ON ferret.chunks REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ferret.chunk_terms_sync();
CREATE TRIGGER chunk_terms_update AFTER UPDATE ON ferret.chunks REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ferret.chunk_terms_sync();
INSERT INTO ferret.chunk_terms (tenant, lexeme, rowid, f, ntok, source, acl)
  SELECT c.tenant, t.key, c.rowid, t.value::float8, c.ntok, c.source, c.acl
  FROM ferret.chunks AS c CROSS JOIN LATERAL jsonb_each(c.tf) AS t;
`;

/**
 * Schema step 6 -> 7: postings name their ACL group, and each term's readable postings are counted as written.
 *
 * - `term_groups`: one row per (tenant, source, acl) of the chunks, under the chunks' policy (`readableRows`),
 *   which depends on exactly those columns. A posting carries its group's id in place of source and ACL (a
 *   jsonb per posting made most of the table: 1.1 GB at 100k chunks), and its policy is its tenant and
 *   `grp IN (the groups the transaction may read)`, a sub-select under term_groups' own policy, run once per
 *   query (a hashed SubPlan). The postings a principal may read are still exactly those of its chunks.
 * - `term_stats`: per (tenant, lexeme, group) the postings (n(q)), their largest frequency and smallest token
 *   count, under the postings' policy. A search sums a term's few rows instead of counting its postings (a
 *   frequent word's were read in full, policy checked per row, for every query). As bm25_stats, writers only
 *   append delta rows (the chunks trigger, per statement); the statement that holds the tenant's try-lock
 *   folds its lexemes' rows into one per group, so no writer waits. A removal leaves the largest frequency
 *   and smallest count as they were: they only bound a term's weight from above (MaxScore), which stays true.
 */
export const TERM_GROUPS_MIGRATION = `
CREATE TABLE ferret.term_groups (
  id serial PRIMARY KEY, tenant text NOT NULL, source text NOT NULL, acl jsonb NOT NULL,
  UNIQUE (tenant, source, acl)
);
ALTER TABLE ferret.term_groups ENABLE ROW LEVEL SECURITY;
ALTER TABLE ferret.term_groups FORCE ROW LEVEL SECURITY;
CREATE POLICY readable_rows ON ferret.term_groups USING (${readableRows("term_groups")}) WITH CHECK (ferret.tenant_ok(tenant));
INSERT INTO ferret.term_groups (tenant, source, acl) SELECT DISTINCT tenant, source, acl FROM ferret.chunks;

DROP TABLE ferret.chunk_terms;
CREATE TABLE ferret.chunk_terms (
  tenant text NOT NULL, lexeme text NOT NULL, rowid bigint NOT NULL, f float8 NOT NULL, ntok integer NOT NULL,
  grp integer NOT NULL
);
INSERT INTO ferret.chunk_terms (tenant, lexeme, rowid, f, ntok, grp)
  SELECT c.tenant, t.key, c.rowid, t.value::float8, c.ntok, g.id
  FROM ferret.chunks AS c JOIN ferret.term_groups AS g ON g.tenant = c.tenant AND g.source = c.source AND g.acl = c.acl
  CROSS JOIN LATERAL jsonb_each(c.tf) AS t;
CREATE INDEX chunk_terms_by_term ON ferret.chunk_terms (tenant, lexeme, rowid) INCLUDE (f, ntok, grp);
ALTER TABLE ferret.chunk_terms ENABLE ROW LEVEL SECURITY;
ALTER TABLE ferret.chunk_terms FORCE ROW LEVEL SECURITY;
CREATE POLICY readable_rows ON ferret.chunk_terms USING (${groupRows()}) WITH CHECK (ferret.tenant_ok(tenant));

CREATE TABLE ferret.term_stats (
  tenant text NOT NULL, lexeme text NOT NULL, grp integer NOT NULL, n bigint NOT NULL, maxf float8, minntok integer
);
INSERT INTO ferret.term_stats (tenant, lexeme, grp, n, maxf, minntok)
  SELECT tenant, lexeme, grp, count(*), max(f), min(ntok) FROM ferret.chunk_terms GROUP BY tenant, lexeme, grp;
CREATE INDEX term_stats_by_term ON ferret.term_stats (tenant, lexeme) INCLUDE (grp, n, maxf, minntok);
ALTER TABLE ferret.term_stats ENABLE ROW LEVEL SECURITY;
ALTER TABLE ferret.term_stats FORCE ROW LEVEL SECURITY;
CREATE POLICY readable_rows ON ferret.term_stats USING (${groupRows()}) WITH CHECK (ferret.tenant_ok(tenant));
-- The new tables' statistics now, not at autovacuum's next pass: without them the planner took a term's
-- postings for a handful (p50 of a search 283 ms after the upgrade at 100k chunks, 163 ms once analysed).
ANALYZE ferret.term_groups;
ANALYZE ferret.chunk_terms;
ANALYZE ferret.term_stats;

CREATE OR REPLACE FUNCTION ferret.chunk_terms_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  t text;
  tenants text[] := '{}';
  touched text[] := '{}';
  ts text[];
  ls text[];
BEGIN
  IF TG_OP <> 'INSERT' THEN
    WITH gone AS (
      DELETE FROM ferret.chunk_terms AS ct USING old_rows AS r CROSS JOIN LATERAL jsonb_object_keys(r.tf) AS l (lexeme)
      WHERE ct.tenant = r.tenant AND ct.lexeme = l.lexeme AND ct.rowid = r.rowid
      RETURNING ct.tenant, ct.lexeme, ct.grp),
    deltas AS (
      INSERT INTO ferret.term_stats (tenant, lexeme, grp, n)
      SELECT g.tenant, g.lexeme, g.grp, -count(*) FROM gone AS g GROUP BY g.tenant, g.lexeme, g.grp
      RETURNING tenant, lexeme)
    SELECT array_agg(DISTINCT d.tenant), array_agg(DISTINCT d.lexeme) INTO ts, ls FROM deltas AS d;
    tenants := tenants || coalesce(ts, '{}');
    touched := touched || coalesce(ls, '{}');
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO ferret.term_groups (tenant, source, acl) SELECT DISTINCT r.tenant, r.source, r.acl FROM new_rows AS r
      ON CONFLICT DO NOTHING;
    WITH added AS (
      INSERT INTO ferret.chunk_terms (tenant, lexeme, rowid, f, ntok, grp)
      SELECT r.tenant, e.key, r.rowid, e.value::float8, r.ntok, g.id
      FROM new_rows AS r JOIN ferret.term_groups AS g ON g.tenant = r.tenant AND g.source = r.source AND g.acl = r.acl
      CROSS JOIN LATERAL jsonb_each(r.tf) AS e
      RETURNING tenant, lexeme, grp, f, ntok),
    deltas AS (
      INSERT INTO ferret.term_stats (tenant, lexeme, grp, n, maxf, minntok)
      SELECT a.tenant, a.lexeme, a.grp, count(*), max(a.f), min(a.ntok) FROM added AS a GROUP BY a.tenant, a.lexeme, a.grp
      RETURNING tenant, lexeme)
    SELECT array_agg(DISTINCT d.tenant), array_agg(DISTINCT d.lexeme) INTO ts, ls FROM deltas AS d;
    tenants := tenants || coalesce(ts, '{}');
    touched := touched || coalesce(ls, '{}');
  END IF;
  -- Fold the statement's lexemes, per tenant, unless another writer of the tenant is folding (it holds the lock).
  FOR t IN SELECT DISTINCT x FROM unnest(tenants) AS x LOOP
    IF pg_try_advisory_xact_lock(hashtext('ferret.term_stats'), hashtext(t)) THEN
      WITH gone AS (
        DELETE FROM ferret.term_stats AS s WHERE s.tenant = t AND s.lexeme = ANY (touched)
        RETURNING s.lexeme, s.grp, s.n, s.maxf, s.minntok)
      INSERT INTO ferret.term_stats (tenant, lexeme, grp, n, maxf, minntok)
      SELECT t, g.lexeme, g.grp, sum(g.n), max(g.maxf), min(g.minntok) FROM gone AS g
      GROUP BY g.lexeme, g.grp HAVING sum(g.n) <> 0;
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;
`;

/**
 * The policy of the postings and their counts: the transaction's tenant (as `readableRows`, the settings read
 * once per query) and a group the transaction may read.
 */
export function groupRows(): string {
  return `(tenant = (SELECT current_setting('ferret.tenant', true))
    OR (SELECT current_setting('ferret.all_tenants', true) = 'on'))
  AND grp IN (SELECT g.id FROM ferret.term_groups AS g)`;
}

/** What a ranking query reads the chunks through: the principal's tenant and ACL filter, and the query's narrowing. */
export type RankFilters = (p: Params) => {
  /** Over a table with tenant, source and acl columns (bm25_stats). */
  readable: (alias: string) => string;
  /** Over a table with tenant and grp columns (chunk_terms, term_stats). */
  postings: (alias: string) => string;
  narrow: () => string;
};

/** A query for the driver: its text and parameters. */
export interface RankQuery {
  text: string;
  values: unknown[];
}

/** FTS5's bm25 terms of the ranking: each term's bound on what it adds to a score is (k1 + 1) * idf. */
const BOUND_SLACK = 1 + 1e-9;
/**
 * What an index probe for one (chunk, term) costs against reading one posting in a range scan: a descent of
 * the btree against a step along its leaf. Probes are chosen when the candidates times the other terms, at
 * this cost, are at most those terms' postings.
 */
const PROBE_COST = 4;
/** Pruning is tried when the postings of the terms that must be read in full are at most this share of all. */
const ESSENTIAL_SHARE = 0.5;

/**
 * The chunks' bm25 ranking (see bm25.ts) from their postings, for terms of one lexeme each (`lexemes`, in query
 * order, duplicates kept as FTS5 scores each phrase): a query returning the rowid and score (`raw`) of the top
 * k, best first, ties broken by rowid. Exact top-k pruning (MaxScore), as the SQLite store prunes:
 *
 * 1. One pass counts each term's postings the principal may read (its n(q)), with N and avgdl (bm25_stats).
 * 2. A term adds less than (k1 + 1) * idf to any score. The chunks holding the rarest term are scored in full;
 *    their k-th score is a floor θ of the final k-th. The most frequent terms whose bounds sum below θ are
 *    "rest": a chunk holding only rest terms scores below θ and cannot enter the top k.
 * 3. The chunks holding any other ("essential") term are scored in full; their top k is the answer. Their
 *    frequencies of every term are read by index probes, so a frequent term's postings are counted, never
 *    gathered.
 *
 * When the essential terms hold most postings anyway, every posting is scored in one pass instead.
 */
export async function postingsRanking<R extends RankedRow>(
  client: pg.ClientBase,
  options: {
    lexemes: string[];
    /** The terms' counts, N and avgdl (`rankingInputs`). */
    stats: TermStats;
    filters: RankFilters;
    k: number;
    /**
     * The SQL of the rows returned around a ranking's (`ranked`, its rowid and raw, best first), so the top k
     * come back with their columns in the ranking's round trip.
     */
    rows: (ranked: string) => string;
    /** Named prepared statements (see `prepared`). */
    prepare: boolean;
  },
): Promise<R[]> {
  const { lexemes, k, stats } = options;
  const distinct = [...new Set(lexemes)];
  const hits = lexemes.map((l) => stats.terms.get(l)?.n ?? 0);
  const all = hits.reduce((a, b) => a + b, 0);
  const ranked = { lexemes, hits, stats, k, filters: options.filters };
  const run = async (essential: string[] | undefined) => {
    const q = scoreQuery({ ...ranked, essential });
    return (await client.query<R>(prepared(options.rows(q.text), q.values, options.prepare))).rows;
  };
  // Terms by bound, the rarest last; a lexeme repeated in the query adds its bound once per repeat.
  const order = distinct
    .map((l) => ({
      l,
      bound: lexemes.filter((x) => x === l).length * termBound(stats, l),
      n: stats.terms.get(l)?.n ?? 0,
    }))
    .filter((t) => t.n > 0)
    .sort((a, b) => a.bound - b.bound);
  if (order.length < 2) return run(undefined);
  // The seed: the rarest terms, until their chunks could fill the top k.
  let seedTerms = 0;
  for (let held = 0; seedTerms < order.length - 1 && held < k; seedTerms++)
    held += order[order.length - 1 - seedTerms]?.n ?? 0;
  const seedSet = order.slice(order.length - seedTerms);
  if (seedSet.reduce((a, t) => a + t.n, 0) > ESSENTIAL_SHARE * all) return run(undefined);
  const top = await run(seedSet.map((t) => t.l));
  const theta = top.length === k ? (top[k - 1]?.raw ?? 0) : 0;
  let restBound = 0;
  let rest = 0;
  for (const t of order) {
    if ((restBound + t.bound) * BOUND_SLACK >= theta) break;
    restBound += t.bound;
    rest++;
  }
  const essential = order.slice(rest);
  if (essential.length <= seedSet.length) return top;
  const few = essential.reduce((a, t) => a + t.n, 0);
  return run(few > ESSENTIAL_SHARE * all ? undefined : essential.map((t) => t.l));
}

/**
 * A keyword search's statement as a named prepared statement of the connection (named by its text, which
 * varies only with the query's shape: its number of terms, which terms are essential, its filters; the terms
 * and counts are parameters), so it is parsed, rewritten under row-level security and planned once per
 * connection instead of per search. Planning took most of a ranking statement's server time at 100k chunks
 * (4 ms of CPU against 0.7 ms executing). `rankingInputs` sets plan_cache_mode to force_generic_plan for the
 * rest of the transaction, so the plan is reused rather than made again for each set of values. Not where
 * connections share one session (PGlite: a second connection's statement of the same name fails as existing).
 */
function prepared(text: string, values: unknown[], prepare: boolean): pg.QueryConfig {
  if (!prepare) return { text, values };
  return { name: `ferret_kw_${createHash("sha1").update(text).digest("hex").slice(0, 24)}`, text, values };
}

/** A ranked chunk: its rowid and bm25 score. */
export interface RankedRow {
  rowid: number;
  raw: number;
}

/**
 * The most a term adds to any score the principal may read: bm25's term weight with the term's largest
 * frequency and the shortest chunk holding it, which only raise it.
 */
function termBound(stats: TermStats, lexeme: string): number {
  const t = stats.terms.get(lexeme);
  if (t === undefined || t.n === 0) return 0;
  const idf = Math.max(Math.log((stats.n - t.n + 0.5) / (t.n + 0.5)), 1e-6);
  const norm = 1 - BM25_B + (BM25_B * t.minNtok) / (stats.avgdl || 1);
  return (idf * t.maxF * (BM25_K1 + 1)) / (t.maxF + BM25_K1 * norm);
}

export interface TermStats {
  /** Rows (N) and their mean token count. */
  n: number;
  avgdl: number;
  /** Per lexeme: its readable postings (n(q)), their largest frequency and smallest token count. */
  terms: Map<string, { n: number; maxF: number; minNtok: number }>;
}

/**
 * In one round trip: each term's lexemes as the store's text configuration stems them (`termLexemes`, JIT off
 * for the rest of the transaction as there), and N and avgdl over the chunks the principal may read with each
 * lexeme's readable postings (term_stats), which a ranking from the postings takes.
 */
export async function rankingInputs(
  client: pg.ClientBase,
  terms: RankTerm[],
  config: string,
  filters: RankFilters,
  prepare: boolean,
): Promise<{ lexemes: TermLexemes[]; stats: TermStats }> {
  const p = new Params();
  const { readable, postings } = filters(p);
  const tsq = p.add(terms.map((t) => t.tsquery));
  const words = p.add(terms.map((t) => t.words));
  const st = await client.query<{
    terms: { l: string[]; n: number }[];
    n: number;
    avgdl: number;
    lexeme: string | null;
    hits: number;
    maxf: number;
    minntok: number;
  }>(
    prepared(
      `WITH q AS MATERIALIZED (
       SELECT t.i, ARRAY(SELECT l.lexeme FROM unnest(to_tsvector('${config}', t.words)) AS l) AS lexemes,
         numnode(to_tsquery('${config}', t.tsq)) AS nodes
       FROM unnest(${tsq}::text[], ${words}::text[]) WITH ORDINALITY AS t (tsq, words, i))
     SELECT set_config('jit', 'off', true) AS jit, set_config('plan_cache_mode', 'force_generic_plan', true) AS plans,
       (SELECT json_agg(json_build_object('l', q.lexemes, 'n', q.nodes) ORDER BY q.i) FROM q) AS terms,
       st.n, st.avgdl, h.lexeme, h.hits, h.maxf, h.minntok
     FROM (SELECT coalesce(sum(g.n), 0)::float8 AS n,
             coalesce((sum(g.ntok)::numeric / nullif(sum(g.n), 0))::float8, 1) AS avgdl
           FROM bm25_stats AS g WHERE g.tbl = 'chunks' AND ${readable("g")}) AS st
     LEFT JOIN (SELECT s.lexeme, sum(s.n)::float8 AS hits, max(s.maxf) AS maxf, min(s.minntok)::float8 AS minntok
                FROM term_stats AS s
                WHERE s.lexeme = ANY (ARRAY(SELECT DISTINCT unnest(q.lexemes) FROM q)) AND ${postings("s")}
                GROUP BY s.lexeme HAVING sum(s.n) > 0) AS h ON true`,
      p.values,
      prepare,
    ),
  );
  const first = st.rows[0];
  const lexemes = (first?.terms ?? []).map((t) => ({ lexemes: t.l, single: t.n === 1 && t.l.length === 1 }));
  const counts = new Map<string, { n: number; maxF: number; minNtok: number }>();
  for (const row of st.rows) {
    if (row.lexeme !== null) counts.set(row.lexeme, { n: row.hits, maxF: row.maxf, minNtok: row.minntok });
  }
  return { lexemes, stats: { n: first?.n ?? 0, avgdl: first?.avgdl ?? 1, terms: counts } };
}

/**
 * The top k chunks, scored in full, among those holding any `essential` lexeme (undefined: every posting),
 * with N, n(q) and avgdl as counted; the score is bm25.ts's expression, term by term in query order.
 */
function scoreQuery(options: {
  lexemes: string[];
  hits: number[];
  stats: TermStats;
  essential: string[] | undefined;
  filters: RankFilters;
  k: number;
}): RankQuery {
  const { lexemes, stats } = options;
  const p = new Params();
  const filters = options.filters(p);
  const readable = filters.postings;
  const n = `${p.add(stats.n)}::float8`;
  const avgdl = `${p.add(stats.avgdl)}::float8`;
  const score = lexemes
    .map((_, i) => {
      const h = `${p.add(options.hits[i] ?? 0)}::float8`;
      const f = `coalesce(m.f${i}, 0)`;
      return `greatest(ln((${n} - ${h} + 0.5) / (${h} + 0.5)), 1e-6) * ${f} * ${BM25_K1 + 1} / (${f} + ${BM25_K1} * (${1 - BM25_B} + ${BM25_B} * m.ntok / nullif(${avgdl}, 0)))`;
    })
    .join(" + ");
  const freqs = lexemes.map((l, i) => `max(t.f) FILTER (WHERE t.lexeme = ${p.add(l)}::text) AS f${i}`);
  let postings: string;
  if (options.essential === undefined) {
    const all = `${p.add([...new Set(lexemes)])}::text[]`;
    postings = `SELECT ct.lexeme, ct.rowid, ct.f, ct.ntok FROM chunk_terms AS ct WHERE ct.lexeme = ANY (${all}) AND ${readable("ct")}`;
  } else {
    // The essential terms' postings are read in full; the other terms' frequencies in those chunks by index
    // probes, one per chunk (OFFSET 0 keeps the planner from turning them into a scan of every posting of a
    // frequent term, which it chose from a far too high guess of the candidates: 1,393 postings read for 40).
    // When the candidates outnumber the other terms' postings, those are read in one range scan instead.
    const essential = new Set(options.essential);
    const others = [...new Set(lexemes)].filter((l) => !essential.has(l));
    const candidates = options.essential.reduce((a, l) => a + (stats.terms.get(l)?.n ?? 0), 0);
    const otherPostings = others.reduce((a, l) => a + (stats.terms.get(l)?.n ?? 0), 0);
    const ess = `SELECT e.lexeme, e.rowid, e.f, e.ntok FROM chunk_terms AS e
      WHERE e.lexeme = ANY (${p.add(options.essential)}::text[]) AND ${readable("e")}`;
    const rest = `${p.add(others)}::text[]`;
    postings =
      others.length === 0
        ? ess
        : candidates * others.length * PROBE_COST <= otherPostings
          ? `WITH ess AS MATERIALIZED (${ess})
             SELECT * FROM ess
             UNION ALL
             SELECT o.lexeme, o.rowid, o.f, o.ntok FROM (SELECT DISTINCT ess.rowid FROM ess) AS r
             CROSS JOIN LATERAL (SELECT ct.lexeme, ct.rowid, ct.f, ct.ntok FROM chunk_terms AS ct
               WHERE ct.lexeme = ANY (${rest}) AND ct.rowid = r.rowid AND ${readable("ct")} OFFSET 0) AS o`
          : `WITH ess AS MATERIALIZED (${ess})
             SELECT * FROM ess
             UNION ALL
             SELECT ct.lexeme, ct.rowid, ct.f, ct.ntok FROM chunk_terms AS ct
             WHERE ct.lexeme = ANY (${rest}) AND ${readable("ct")} AND ct.rowid IN (SELECT ess.rowid FROM ess)`;
  }
  const narrow = filters.narrow();
  const narrowed = narrow === "true" ? "" : `JOIN chunks AS c ON c.rowid = m.rowid AND ${narrow}`;
  return {
    text: `WITH t AS MATERIALIZED (${postings}),
      m AS (SELECT t.rowid, max(t.ntok) AS ntok, ${freqs.join(", ")} FROM t GROUP BY t.rowid)
      SELECT m.rowid, ${score} AS raw
      FROM m ${narrowed}
      ORDER BY raw DESC, m.rowid
      LIMIT ${p.add(Math.floor(options.k))}`,
    values: p.values,
  };
}
