/**
 * A keyword search of one-word terms in one statement: `ferret.keyword_top`, a plpgsql function (SECURITY
 * INVOKER: the caller's row-level security applies) that sets the principal's scope, reads the statistics,
 * runs an exact top-k pruning of the postings (below) and returns the top k chunks with their columns.
 *
 * Why on the server: a search from the client was five round trips (BEGIN and the scope, the statistics, the
 * seed ranking, the essential ranking, COMMIT), each a wake-up of the client and of the server's backend; at
 * 100k chunks on a loaded 2-core machine they took most of a search's time (the statements executed in under
 * a millisecond each). Called outside a transaction block, the call is its own transaction: the scope it sets
 * (set_config, local) ends with it. plpgsql keeps each statement's plan for the session, so a search is not
 * planned again (no named prepared statements: PGlite's connections share one session, and its plans are
 * kept alike).
 *
 * The ranking: bm25 (bm25.ts: FTS5's formula and column weights) from the postings (postings.ts), each term's
 * weight added in query order (a repeated term once per repeat, as FTS5 scores each phrase; the sum is taken in
 * that order, so scores equal those of one expression over the terms to the bit), ties broken by rowid. Exact
 * top-k pruning (MaxScore over parts of terms), as the SQLite store prunes whole terms:
 *
 * 1. The terms' readable postings (n(q), term_stats), N and avgdl (bm25_stats) are summed over the groups the
 *    principal may read.
 * 2. A term's postings are in two parts: its low postings (weighted frequency at most postings.ts's `HIGH_F`:
 *    one occurrence in the body, most of a frequent word's postings) and its high ones, each with a bound of
 *    the weight it adds to any score (with the part's largest frequency and the shortest chunk holding the
 *    term). A partial index holds the high postings, so a part is read alone.
 * 3. The seed: the parts of largest bound (rare terms, high postings), until their chunks could fill the top
 *    k. Every chunk holding a seed posting is scored in full; their k-th score is a floor θ of the final k-th.
 * 4. The rest: among the terms with the most postings, the choice per term (none, its low postings, all its
 *    postings) that leaves the fewest postings to read while the bounds of the rest sum below θ. A chunk
 *    holding only rest postings cannot enter the top k.
 * 5. The essential pass: the chunks holding any other posting that the seed did not score, kept when their
 *    weights from those postings plus the rest's bound reach θ, are scored in full; with the seed's top k,
 *    their top k is the answer. When the seed's parts hold every essential part, the seed's top k is the answer.
 *
 * A candidate's postings of the parts not read are found by an index probe per (chunk, term), or by one range
 * scan of those terms when the probes would cost more, so a frequent term's low postings are counted, never
 * gathered. When the seed holds most postings, every posting is scored in one pass instead. At 100k chunks
 * (one keyword-only store, the stores bench's 110 queries, old and new functions taking turns in one
 * session) the parts, the skip and the floor took a search's server CPU from 14.1 to 11.3 ms on average, its
 * p95 from 38 to 29 ms and its p50 from 11.3 to 10.3 ms. A term that is not one lexeme (a phrase, or a word
 * the configuration drops) makes the function return one row of nulls: the caller ranks such a query by the
 * tsvectors (search.ts).
 */
import type pg from "pg";
import type { KeywordQuery, ScoredChunk } from "../../spec/store.js";
import { type ScoredRow, toScoredChunk } from "../scored-row.js";
import { BM25_B, BM25_K1, rankTerms } from "./bm25.js";
import { HIGH_F } from "./postings.js";

/** bm25's weight of term `q` (hits `h`, weighted frequency `f`) in a chunk of `ntok` tokens, as bm25.ts writes it. */
function termScore(q: { n: string; h: string; f: string; ntok: string; avgdl: string }): string {
  return `greatest(ln((${q.n} - ${q.h} + 0.5) / (${q.h} + 0.5)), 1e-6) * ${q.f} * ${BM25_K1 + 1} / (${q.f} + ${BM25_K1} * (${1 - BM25_B} + ${BM25_B} * ${q.ntok}::float8 / nullif(${q.avgdl}, 0)))`;
}

/**
 * The top k (p_k) of the chunks in `postings` (lexeme, rowid, f, ntok), each scored in full: each term of the
 * query (p_lex, in order, with its hits p_hits) adds its bm25 weight, summed in query order; the query's
 * narrowing applied.
 */
function ranked(postings: string): string {
  return `WITH q AS (SELECT u.l, u.h, u.i FROM unnest(p_lex, p_hits) WITH ORDINALITY AS u (l, h, i)),
    s AS (SELECT t.rowid, ${termScore({ n: "p_n", h: "q.h", f: "t.f", ntok: "t.ntok", avgdl: "p_avgdl" })} AS x
          FROM (${postings}) AS t
          JOIN q ON q.l = t.lexeme
          ORDER BY t.rowid, q.i),
    m AS (SELECT s.rowid, sum(s.x) AS raw FROM s GROUP BY s.rowid)
    SELECT m.rowid, m.raw FROM m
    WHERE NOT p_narrow OR EXISTS (SELECT 1 FROM ferret.chunks AS c WHERE c.rowid = m.rowid
      AND (p_sources IS NULL OR c.source = ANY (p_sources)) AND (p_doc_id IS NULL OR c.doc_id = p_doc_id)
      AND (p_doc_ids IS NULL OR c.doc_id = ANY (p_doc_ids)) AND (p_since IS NULL OR c.updated_at >= p_since))
    ORDER BY m.raw DESC, m.rowid
    LIMIT p_k`;
}

/** The ACL test of a row (acl jsonb) or a source for roles `r`, as filters.ts's `aclAllows`. */
const allows = (acl: string, r: string) => `(${acl} = '[]'::jsonb OR ${acl} ?| ${r})`;

/** Rows of bm25_stats or term_groups (alias `g`) the principal may read: its tenant, the row's and its source's ACL. */
const readable = (g: string) => `${g}.tenant = p_tenant AND (p_owner OR (${allows(`${g}.acl`, "p_roles")}
  AND NOT EXISTS (SELECT 1 FROM ferret.sources AS s WHERE s.tenant = ${g}.tenant AND s.name = ${g}.source
    AND NOT ${allows("s.acl", "p_roles")})))`;

/** Postings (alias `a`) of readable groups. */
const postingOk = (a: string) => `${a}.tenant = p_tenant AND (p_owner OR ${a}.grp = ANY (p_groups))`;

/** The postings of `full` terms and the high postings (postings.ts's `HIGH_F`) of `high` terms. */
const partPostings = (full: string, high: string) => `SELECT a.lexeme, a.rowid, a.f, a.ntok FROM ferret.chunk_terms AS a
        WHERE a.lexeme = ANY (${full}) AND ${postingOk("a")}
        UNION ALL
        SELECT b.lexeme, b.rowid, b.f, b.ntok FROM ferret.chunk_terms AS b
        WHERE b.lexeme = ANY (${high}) AND b.f > ${HIGH_F} AND ${postingOk("b")}`;

/** A term's weight bound with frequency `f` (times its repeats `times`), from its stats row `h`. */
const bound = (f: string) => `d.times * (greatest(ln((v_n - h.hits + 0.5) / (h.hits + 0.5)), 1e-6) * ${f}
            * ${BM25_K1 + 1} / (${f} + ${BM25_K1} * (${1 - BM25_B} + ${BM25_B} * h.minntok
            / (CASE WHEN v_avgdl = 0 THEN 1 ELSE v_avgdl END))))`;

/** Schema step 7 -> 8 (and its renewals): the functions. `config` is the text search configuration of the tsvectors. */
export function keywordTopMigration(config: string): string {
  return `
-- The top k of the chunks holding a posting of the given parts (all postings of p_full, the high ones of
-- p_high), scored in full (see ranked). With a floor p_theta of the k-th score, only the chunks whose weights
-- from those parts plus the bound of the other parts (p_rest_bound) reach it are candidates. The candidates'
-- other postings (of the terms not in p_full, but for the high ones of p_high) are read, term by term, by an
-- index probe per (candidate, term) not already read, or by one range scan of the term when the probes would
-- cost more (p_hits: each term's postings). Without other terms, every posting is scored in one pass.
CREATE FUNCTION ferret.keyword_rank(p_tenant text, p_owner boolean, p_groups integer[], p_lex text[],
  p_hits float8[], p_n float8, p_avgdl float8, p_k integer, p_full text[], p_high text[], p_theta float8,
  p_rest_bound float8, p_skip bigint[],
  p_narrow boolean, p_sources text[], p_doc_id text, p_doc_ids text[], p_since text)
RETURNS TABLE (rowid bigint, raw float8) LANGUAGE plpgsql STABLE AS $fn$
#variable_conflict use_column
DECLARE
  v_others text[] := ARRAY(SELECT DISTINCT x FROM unnest(p_lex) AS x WHERE x <> ALL (p_full));
BEGIN
  IF cardinality(v_others) = 0 THEN
    RETURN QUERY ${ranked(`SELECT e.lexeme, e.rowid, e.f, e.ntok FROM ferret.chunk_terms AS e
        WHERE e.lexeme = ANY (p_full) AND ${postingOk("e")} AND e.rowid NOT IN (SELECT x FROM unnest(p_skip) AS x)`)};
    RETURN;
  END IF;
  RETURN QUERY ${ranked(`WITH e AS MATERIALIZED (${partPostings("p_full", "p_high")}),
      c AS MATERIALIZED (SELECT e.rowid FROM e JOIN unnest(p_lex, p_hits) AS q (l, h) ON q.l = e.lexeme
        WHERE e.rowid NOT IN (SELECT x FROM unnest(p_skip) AS x)
        GROUP BY e.rowid
        HAVING p_theta <= 0 OR (sum(${termScore({ n: "p_n", h: "q.h", f: "e.f", ntok: "e.ntok", avgdl: "p_avgdl" })})
          + p_rest_bound) * ${BOUND_SLACK} >= p_theta),
      pairs AS MATERIALIZED (SELECT c.rowid, t.l FROM c CROSS JOIN unnest(v_others) AS t (l)
        WHERE NOT EXISTS (SELECT 1 FROM e WHERE e.rowid = c.rowid AND e.lexeme = t.l)),
      per AS MATERIALIZED (SELECT pairs.l, count(*) * ${PROBE_COST} <= min(q.h) AS probe FROM pairs
        JOIN unnest(p_lex, p_hits) AS q (l, h) ON q.l = pairs.l GROUP BY pairs.l)
      SELECT e.lexeme, e.rowid, e.f, e.ntok FROM e WHERE e.rowid IN (SELECT c.rowid FROM c)
      UNION ALL
      SELECT o.lexeme, o.rowid, o.f, o.ntok FROM pairs JOIN per ON per.l = pairs.l AND per.probe
      CROSS JOIN LATERAL (SELECT ct.lexeme, ct.rowid, ct.f, ct.ntok FROM ferret.chunk_terms AS ct
        WHERE ct.lexeme = pairs.l AND ct.rowid = pairs.rowid AND ${postingOk("ct")} OFFSET 0) AS o
      UNION ALL
      SELECT o.lexeme, o.rowid, o.f, o.ntok FROM per
      CROSS JOIN LATERAL (SELECT ct.lexeme, ct.rowid, ct.f, ct.ntok FROM ferret.chunk_terms AS ct
        WHERE ct.lexeme = per.l AND ${postingOk("ct")} AND NOT (ct.f > ${HIGH_F} AND ct.lexeme = ANY (p_high))
        OFFSET 0) AS o
      WHERE NOT per.probe AND o.rowid IN (SELECT c.rowid FROM c)`)};
END
$fn$;

-- A keyword search (see keyword-top.ts). p_tsq and p_words: each term's tsquery text and words (bm25.ts's
-- rankTerms). One row of nulls when a term is not one lexeme.
CREATE FUNCTION ferret.keyword_top(p_tenant text, p_roles text[], p_tsq text[], p_words text[], p_k integer,
  p_sources text[], p_doc_id text, p_doc_ids text[], p_since text)
RETURNS TABLE (rowid bigint, id text, doc_id text, source text, text text, section text, start integer,
  "end" integer, updated_at text, title text, raw float8)
LANGUAGE plpgsql SECURITY INVOKER AS $fn$
#variable_conflict use_column
DECLARE
  p_owner boolean := '*' = ANY (p_roles);
  v_narrow boolean := p_sources IS NOT NULL OR p_doc_id IS NOT NULL OR p_doc_ids IS NOT NULL OR p_since IS NOT NULL;
  v_single boolean;
  v_lex text[];
  p_groups integer[] := '{}';
  v_n float8;
  v_avgdl float8;
  v_hits float8[];
  v_terms text[];
  v_counts float8[];
  v_lows float8[];
  v_bounds float8[];
  v_low_bounds float8[];
  v_part_terms integer[];
  v_part_levels integer[];
  v_part_counts float8[];
  v_m integer;
  v_np integer;
  v_all float8;
  v_held float8 := 0;
  v_s integer := 0;
  v_seed integer[];
  v_level integer[];
  v_js integer[];
  v_opts integer[];
  v_final boolean := true;
  v_seen bigint[];
  v_seen_raws float8[];
  v_ids bigint[];
  v_raws float8[];
  v_theta float8 := 0;
  v_rest_bound float8 := 0;
BEGIN
  PERFORM set_config('ferret.tenant', p_tenant, true), set_config('ferret.roles', p_roles::text, true),
    set_config('ferret.all_tenants', 'off', true), set_config('jit', 'off', true),
    set_config('plan_cache_mode', 'force_generic_plan', true);
  SELECT array_agg(q.lexemes[1] ORDER BY q.i), coalesce(bool_and(q.nodes = 1 AND cardinality(q.lexemes) = 1), false)
  INTO v_lex, v_single
  FROM (SELECT t.i, ARRAY(SELECT l.lexeme FROM unnest(to_tsvector('${config}', t.words)) AS l) AS lexemes,
          numnode(to_tsquery('${config}', t.tsq)) AS nodes
        FROM unnest(p_tsq, p_words) WITH ORDINALITY AS t (tsq, words, i)) AS q;
  IF NOT v_single THEN
    RETURN NEXT;
    RETURN;
  END IF;
  IF NOT p_owner THEN
    SELECT coalesce(array_agg(g.id), '{}') INTO p_groups FROM ferret.term_groups AS g WHERE ${readable("g")};
  END IF;
  SELECT coalesce(sum(g.n), 0)::float8, coalesce((sum(g.ntok)::numeric / nullif(sum(g.n), 0))::float8, 1)
  INTO v_n, v_avgdl FROM ferret.bm25_stats AS g WHERE g.tbl = 'chunks' AND ${readable("g")};
  -- Each term's hits in query order; the distinct terms with postings, with their low postings (when the term
  -- also has high ones) and the bounds of all and of the low postings. A term adds less than its bound (once
  -- per repeat in the query) to any score.
  WITH h AS (SELECT s.lexeme, sum(s.n)::float8 AS hits, sum(s.nlow)::float8 AS nlow, max(s.maxf) AS maxf,
               min(s.minntok)::float8 AS minntok
             FROM ferret.term_stats AS s WHERE s.lexeme = ANY (v_lex) AND ${postingOk("s")}
             GROUP BY s.lexeme HAVING sum(s.n) > 0),
    d AS (SELECT u.l, min(u.i) AS first, count(*) AS times FROM unnest(v_lex) WITH ORDINALITY AS u (l, i) GROUP BY u.l),
    b AS (SELECT d.l, d.first, h.hits, CASE WHEN h.maxf > ${HIGH_F} AND h.nlow < h.hits THEN h.nlow ELSE 0 END AS nlow,
            ${bound("h.maxf")} AS bound, ${bound(`least(h.maxf, ${HIGH_F})`)} AS low_bound
          FROM d JOIN h ON h.lexeme = d.l)
  SELECT (SELECT array_agg(coalesce(x.hits, 0) ORDER BY u.i) FROM unnest(v_lex) WITH ORDINALITY AS u (l, i)
            LEFT JOIN h AS x ON x.lexeme = u.l),
    (SELECT array_agg(b.l ORDER BY b.first) FROM b), (SELECT array_agg(b.hits ORDER BY b.first) FROM b),
    (SELECT array_agg(b.nlow ORDER BY b.first) FROM b), (SELECT array_agg(b.bound ORDER BY b.first) FROM b),
    (SELECT array_agg(b.low_bound ORDER BY b.first) FROM b)
  INTO v_hits, v_terms, v_counts, v_lows, v_bounds, v_low_bounds;
  v_m := coalesce(cardinality(v_terms), 0);
  IF v_m = 0 THEN
    RETURN;
  END IF;
  v_all := (SELECT sum(x) FROM unnest(v_counts) AS x);
  v_level := array_fill(2, ARRAY[v_m]);
  -- The parts, by bound: a term's low postings (when it has high ones too) and the rest of its postings (all of
  -- them, or its high ones: level 2 or 1 of the term).
  SELECT array_agg(p.j ORDER BY p.bound, p.level DESC, p.j), array_agg(p.level ORDER BY p.bound, p.level DESC, p.j),
    array_agg(p.n ORDER BY p.bound, p.level DESC, p.j)
  INTO v_part_terms, v_part_levels, v_part_counts
  FROM (SELECT j, 2 AS level, v_low_bounds[j] AS bound, v_lows[j] AS n FROM generate_subscripts(v_terms, 1) AS j
          WHERE v_lows[j] > 0
        UNION ALL
        SELECT j, CASE WHEN v_lows[j] > 0 THEN 1 ELSE 2 END, v_bounds[j], v_counts[j] - v_lows[j]
          FROM generate_subscripts(v_terms, 1) AS j) AS p;
  v_np := cardinality(v_part_terms);
  IF v_np >= 2 THEN
    -- The seed: the parts of largest bound, until their chunks could fill the top k.
    v_seed := array_fill(0, ARRAY[v_m]);
    WHILE v_s < v_np - 1 AND v_held < p_k LOOP
      v_held := v_held + v_part_counts[v_np - v_s];
      v_seed[v_part_terms[v_np - v_s]] := greatest(v_seed[v_part_terms[v_np - v_s]], v_part_levels[v_np - v_s]);
      v_s := v_s + 1;
    END LOOP;
    IF v_held <= ${ESSENTIAL_SHARE} * v_all THEN
      -- Every chunk of the seed's parts, scored and ranked: the essential pass leaves them out.
      SELECT array_agg(r.rowid ORDER BY r.o), array_agg(r.raw ORDER BY r.o) INTO v_seen, v_seen_raws
      FROM ferret.keyword_rank(p_tenant, p_owner, p_groups, v_lex, v_hits, v_n, v_avgdl, ${ALL_ROWS},
        ARRAY(SELECT v_terms[j] FROM generate_subscripts(v_terms, 1) AS j WHERE v_seed[j] = 2),
        ARRAY(SELECT v_terms[j] FROM generate_subscripts(v_terms, 1) AS j WHERE v_seed[j] = 1), 0, 0,
        '{}',
        v_narrow, p_sources, p_doc_id, p_doc_ids, p_since) WITH ORDINALITY AS r (rowid, raw, o);
      v_ids := v_seen[1 : p_k];
      v_raws := v_seen_raws[1 : p_k];
      v_theta := CASE WHEN coalesce(cardinality(v_seen), 0) >= p_k THEN v_seen_raws[p_k] ELSE 0 END;
    END IF;
  END IF;
  IF v_theta > 0 THEN
    -- The rest: of the terms with the most postings, the choice (per term: none, its low postings, all its
    -- postings) that leaves the fewest postings essential while the rest's bounds sum below θ, so that a
    -- chunk holding only rest postings cannot enter the top k.
    WITH RECURSIVE t AS (
        SELECT row_number() OVER (ORDER BY v_counts[j] DESC, j) AS r, j FROM generate_subscripts(v_terms, 1) AS j
        ORDER BY v_counts[j] DESC, j LIMIT ${REST_TERMS}),
      o AS (SELECT t.r, t.j, x.opt, x.b, x.n FROM t CROSS JOIN LATERAL (VALUES (0, 0::float8, 0::float8),
              (1, v_low_bounds[t.j], v_lows[t.j]), (2, v_bounds[t.j], v_counts[t.j])) AS x (opt, b, n)
            WHERE x.opt = 0 OR x.n > 0),
      c (r, b, n, js, opts) AS (SELECT 0::bigint, 0::float8, 0::float8, '{}'::integer[], '{}'::integer[]
        UNION ALL
        SELECT o.r, c.b + o.b, c.n + o.n, c.js || o.j, c.opts || o.opt FROM c JOIN o ON o.r = c.r + 1
        WHERE (c.b + o.b) * ${BOUND_SLACK} < v_theta)
    SELECT c.js, c.opts, c.b INTO v_js, v_opts, v_rest_bound FROM c WHERE c.r = (SELECT count(*) FROM t)
    ORDER BY c.n DESC, c.b, c.opts LIMIT 1;
    FOR i IN 1 .. coalesce(cardinality(v_js), 0) LOOP
      v_level[v_js[i]] := 2 - v_opts[i];
    END LOOP;
    -- When the seed's parts hold every essential part, the seed's top k is the answer.
    FOR j IN 1 .. v_m LOOP
      v_final := v_final AND v_level[j] <= v_seed[j];
    END LOOP;
  ELSE
    v_final := false;
  END IF;
  IF NOT v_final THEN
    -- The essential pass ranks the chunks the seed did not score; the top k of both is the answer.
    SELECT array_agg(r.rowid ORDER BY r.raw DESC, r.rowid), array_agg(r.raw ORDER BY r.raw DESC, r.rowid)
    INTO v_ids, v_raws
    FROM (SELECT x.rowid, x.raw FROM unnest(v_ids, v_raws) AS x (rowid, raw)
          UNION ALL
          SELECT y.rowid, y.raw FROM ferret.keyword_rank(p_tenant, p_owner, p_groups, v_lex, v_hits, v_n, v_avgdl, p_k,
            ARRAY(SELECT v_terms[j] FROM generate_subscripts(v_terms, 1) AS j WHERE v_level[j] = 2),
            ARRAY(SELECT v_terms[j] FROM generate_subscripts(v_terms, 1) AS j WHERE v_level[j] = 1),
            v_theta, v_rest_bound, coalesce(v_seen, '{}'), v_narrow, p_sources, p_doc_id, p_doc_ids, p_since) AS y
          ORDER BY 2 DESC, 1 LIMIT p_k) AS r;
  END IF;
  -- How the answer was found, for a session that asks (SET client_min_messages = debug1): each term's seed and
  -- essential part (0 none, 1 its high postings, 2 all), θ, and the pass that gave the answer.
  RAISE DEBUG 'ferret.keyword_top terms=% seed=% essential=% theta=% answer=%', v_terms, v_seed, v_level, v_theta,
    CASE WHEN v_final THEN 'seed' WHEN v_theta > 0 THEN 'pruned' ELSE 'one pass' END;
  RETURN QUERY SELECT c.rowid, c.id, c.doc_id, c.source, c.text, c.section, c.start, c."end", c.updated_at, d.title, h.raw
    FROM unnest(v_ids, v_raws) WITH ORDINALITY AS h (rowid, raw, o)
    JOIN ferret.chunks AS c ON c.rowid = h.rowid
    JOIN ferret.documents AS d ON d.tenant = c.tenant AND d.id = c.doc_id AND d.source = c.source
    ORDER BY h.o;
END
$fn$;
`;
}

/**
 * A later schema step: the keyword functions again, at this version's definition (the ones of an older
 * version are dropped by name, whatever their arguments were).
 */
export function keywordTopRenewal(config: string): string {
  return `
DO $drop$
DECLARE
  f regprocedure;
BEGIN
  FOR f IN SELECT p.oid::regprocedure FROM pg_proc AS p JOIN pg_namespace AS n ON n.oid = p.pronamespace
    WHERE n.nspname = 'ferret' AND p.proname IN ('keyword_top', 'keyword_rank', 'keyword_postings') LOOP
    EXECUTE format('DROP FUNCTION %s', f);
  END LOOP;
END
$drop$;
${keywordTopMigration(config)}`;
}

/** Pruning is tried when the seed's parts hold at most this share of the postings. */
const ESSENTIAL_SHARE = 0.5;
/** Bounds are summed with this slack, so rounding never prunes a chunk that could reach the top k. */
const BOUND_SLACK = 1 + 1e-9;
/**
 * What an index probe for one (chunk, term) costs against reading one posting in a range scan: a descent of the
 * btree against a step along its leaf. (OFFSET 0 keeps the planner from turning the probes into a scan of every
 * posting of a frequent term, which it chose from a far too high guess of the candidates.)
 */
const PROBE_COST = 4;
/**
 * The rest is chosen among this many terms (those with the most postings): 3^6 choices at most, and a query's
 * frequent terms are where the postings are.
 */
const REST_TERMS = 6;
/** A k that keeps every ranked chunk (int4's largest). */
const ALL_ROWS = 2 ** 31 - 1;

/**
 * The keyword search of `query` in one call of `ferret.keyword_top`, outside any transaction block (the
 * call's own transaction carries the scope); undefined when a term is not one lexeme (see above).
 */
export async function keywordTop(client: pg.ClientBase, query: KeywordQuery): Promise<ScoredChunk[] | undefined> {
  const terms = rankTerms(query.terms);
  const k = Math.min(Math.floor(query.k), 2 ** 31 - 1);
  if (terms.length === 0 || !(k > 0)) return [];
  const rows = (
    await client.query<ScoredRow & { raw: number; rowid: number | null }>(
      "SELECT * FROM ferret.keyword_top($1, $2, $3, $4, $5, $6, $7, $8, $9)",
      [
        query.principal.tenant,
        [...query.principal.roles],
        terms.map((t) => t.tsquery),
        terms.map((t) => t.words),
        k,
        query.sources && query.sources.length > 0 ? query.sources : null,
        query.docId ?? null,
        query.docIds ?? null,
        query.since ?? null,
      ],
    )
  ).rows;
  if (rows.length === 1 && rows[0]?.rowid === null) return undefined;
  return rows.map((row) => toScoredChunk(row, row.raw));
}
