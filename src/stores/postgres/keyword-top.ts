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
 * top-k pruning (MaxScore), as the SQLite store prunes:
 *
 * 1. The terms' readable postings (n(q), term_stats), N and avgdl (bm25_stats) are summed over the groups the
 *    principal may read.
 * 2. A term adds less than its bound to any score: its weight with its largest frequency and the shortest
 *    chunk holding it. The chunks holding the rarest terms (until they could fill the top k) are scored in
 *    full; their k-th score is a floor θ of the final k-th. The most frequent terms whose bounds sum below θ
 *    are "rest": a chunk holding only rest terms cannot enter the top k.
 * 3. The chunks holding any other ("essential") term are scored in full; their top k is the answer. Their
 *    frequencies of the rest terms are read by an index probe per chunk, or by one range scan of those terms
 *    when the probes would cost more, so a frequent term's postings are counted, never gathered.
 *
 * When the seed's terms hold most postings, every posting is scored in one pass instead. Once some terms are
 * rest, the essential pass is run however many postings the essential terms hold: it reads no more postings
 * than the one pass and scores fewer (scoring and grouping cost more than reading: at 100k chunks, a server
 * time p50 of 8.7 and 7.1 ms against 11.4 and 11.7 when the one pass was taken above half of the postings). A term
 * that is not one lexeme (a phrase, or a word the configuration drops) makes the function return one row of
 * nulls: the caller ranks such a query by the tsvectors (search.ts).
 */
import type pg from "pg";
import type { KeywordQuery, ScoredChunk } from "../../spec/store.js";
import { type ScoredRow, toScoredChunk } from "../scored-row.js";
import { BM25_B, BM25_K1, rankTerms } from "./bm25.js";

/** bm25's weight of term `q` (hits `h`, weighted frequency `f`) in a chunk of `ntok` tokens, as bm25.ts writes it. */
function termScore(q: { n: string; h: string; f: string; ntok: string; avgdl: string }): string {
  return `greatest(ln((${q.n} - ${q.h} + 0.5) / (${q.h} + 0.5)), 1e-6) * ${q.f} * ${BM25_K1 + 1} / (${q.f} + ${BM25_K1} * (${1 - BM25_B} + ${BM25_B} * ${q.ntok} / nullif(${q.avgdl}, 0)))`;
}

/** The ACL test of a row (acl jsonb) or a source for roles `r`, as filters.ts's `aclAllows`. */
const allows = (acl: string, r: string) => `(${acl} = '[]'::jsonb OR ${acl} ?| ${r})`;

/** Rows of bm25_stats or term_groups (alias `g`) the principal may read: its tenant, the row's and its source's ACL. */
const readable = (g: string) => `${g}.tenant = p_tenant AND (p_owner OR (${allows(`${g}.acl`, "p_roles")}
  AND NOT EXISTS (SELECT 1 FROM ferret.sources AS s WHERE s.tenant = ${g}.tenant AND s.name = ${g}.source
    AND NOT ${allows("s.acl", "p_roles")})))`;

/** Postings (alias `a`) of readable groups. */
const postingOk = (a: string) => `${a}.tenant = p_tenant AND (p_owner OR ${a}.grp = ANY (p_groups))`;

/** Schema step 7 -> 8: the functions. `config` is the text search configuration of the tsvectors. */
export function keywordTopMigration(config: string): string {
  return `
-- The postings a ranking scores: of the essential lexemes in full and, in those chunks, of the other lexemes
-- (by an index probe per chunk, or one range scan when that reads fewer entries).
CREATE FUNCTION ferret.keyword_postings(p_tenant text, p_owner boolean, p_groups integer[], p_ess text[],
  p_others text[], p_probe boolean)
RETURNS TABLE (lexeme text, rowid bigint, f float8, ntok integer) LANGUAGE plpgsql STABLE AS $fn$
#variable_conflict use_column
BEGIN
  IF cardinality(p_others) = 0 THEN
    RETURN QUERY SELECT e.lexeme, e.rowid, e.f, e.ntok FROM ferret.chunk_terms AS e
      WHERE e.lexeme = ANY (p_ess) AND ${postingOk("e")};
  ELSIF p_probe THEN
    RETURN QUERY WITH ess AS MATERIALIZED (
        SELECT e.lexeme, e.rowid, e.f, e.ntok FROM ferret.chunk_terms AS e WHERE e.lexeme = ANY (p_ess) AND ${postingOk("e")})
      SELECT ess.lexeme, ess.rowid, ess.f, ess.ntok FROM ess
      UNION ALL
      SELECT o.lexeme, o.rowid, o.f, o.ntok FROM (SELECT DISTINCT ess.rowid FROM ess) AS r
      CROSS JOIN LATERAL (SELECT ct.lexeme, ct.rowid, ct.f, ct.ntok FROM ferret.chunk_terms AS ct
        WHERE ct.lexeme = ANY (p_others) AND ct.rowid = r.rowid AND ${postingOk("ct")} OFFSET 0) AS o;
  ELSE
    RETURN QUERY WITH ess AS MATERIALIZED (
        SELECT e.lexeme, e.rowid, e.f, e.ntok FROM ferret.chunk_terms AS e WHERE e.lexeme = ANY (p_ess) AND ${postingOk("e")})
      SELECT ess.lexeme, ess.rowid, ess.f, ess.ntok FROM ess
      UNION ALL
      SELECT ct.lexeme, ct.rowid, ct.f, ct.ntok FROM ferret.chunk_terms AS ct
      WHERE ct.lexeme = ANY (p_others) AND ${postingOk("ct")} AND ct.rowid IN (SELECT ess.rowid FROM ess);
  END IF;
END
$fn$;

-- The top k of the chunks holding any essential lexeme, scored in full: each term (p_lex, query order, with
-- its hits p_hits) adds its bm25 weight, summed in query order; the query's narrowing applied.
CREATE FUNCTION ferret.keyword_rank(p_tenant text, p_owner boolean, p_groups integer[], p_lex text[],
  p_hits float8[], p_n float8, p_avgdl float8, p_k integer, p_ess text[], p_others text[], p_probe boolean,
  p_narrow boolean, p_sources text[], p_doc_id text, p_doc_ids text[], p_since text)
RETURNS TABLE (rowid bigint, raw float8) LANGUAGE plpgsql STABLE AS $fn$
#variable_conflict use_column
BEGIN
  RETURN QUERY WITH q AS (SELECT u.l, u.h, u.i FROM unnest(p_lex, p_hits) WITH ORDINALITY AS u (l, h, i)),
    s AS (SELECT t.rowid, ${termScore({ n: "p_n", h: "q.h", f: "t.f", ntok: "t.ntok", avgdl: "p_avgdl" })} AS x
          FROM ferret.keyword_postings(p_tenant, p_owner, p_groups, p_ess, p_others, p_probe) AS t
          JOIN q ON q.l = t.lexeme
          ORDER BY t.rowid, q.i),
    m AS (SELECT s.rowid, sum(s.x) AS raw FROM s GROUP BY s.rowid)
    SELECT m.rowid, m.raw FROM m
    WHERE NOT p_narrow OR EXISTS (SELECT 1 FROM ferret.chunks AS c WHERE c.rowid = m.rowid
      AND (p_sources IS NULL OR c.source = ANY (p_sources)) AND (p_doc_id IS NULL OR c.doc_id = p_doc_id)
      AND (p_doc_ids IS NULL OR c.doc_id = ANY (p_doc_ids)) AND (p_since IS NULL OR c.updated_at >= p_since))
    ORDER BY m.raw DESC, m.rowid
    LIMIT p_k;
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
  v_bounds float8[];
  v_m integer;
  v_all float8;
  v_held float8 := 0;
  v_seeds integer := 0;
  v_ess text[];
  v_ids bigint[];
  v_raws float8[];
  v_theta float8;
  v_rest_bound float8 := 0;
  v_rest integer := 0;
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
  -- Each term's hits in query order, and the distinct terms with postings by bound, smallest first: a term
  -- adds less than its bound (once per repeat in the query) to any score.
  WITH h AS (SELECT s.lexeme, sum(s.n)::float8 AS hits, max(s.maxf) AS maxf, min(s.minntok)::float8 AS minntok
             FROM ferret.term_stats AS s WHERE s.lexeme = ANY (v_lex) AND ${postingOk("s")}
             GROUP BY s.lexeme HAVING sum(s.n) > 0),
    d AS (SELECT u.l, min(u.i) AS first, count(*) AS times FROM unnest(v_lex) WITH ORDINALITY AS u (l, i) GROUP BY u.l),
    b AS (SELECT d.l, d.first, h.hits, d.times * (greatest(ln((v_n - h.hits + 0.5) / (h.hits + 0.5)), 1e-6) * h.maxf
            * ${BM25_K1 + 1} / (h.maxf + ${BM25_K1} * (${1 - BM25_B} + ${BM25_B} * h.minntok
            / (CASE WHEN v_avgdl = 0 THEN 1 ELSE v_avgdl END)))) AS bound
          FROM d JOIN h ON h.lexeme = d.l)
  SELECT (SELECT array_agg(coalesce(x.hits, 0) ORDER BY u.i) FROM unnest(v_lex) WITH ORDINALITY AS u (l, i)
            LEFT JOIN h AS x ON x.lexeme = u.l),
    (SELECT array_agg(b.l ORDER BY b.bound, b.first) FROM b), (SELECT array_agg(b.hits ORDER BY b.bound, b.first) FROM b),
    (SELECT array_agg(b.bound ORDER BY b.bound, b.first) FROM b)
  INTO v_hits, v_terms, v_counts, v_bounds;
  v_m := coalesce(cardinality(v_terms), 0);
  IF v_m = 0 THEN
    RETURN;
  END IF;
  v_all := (SELECT sum(x) FROM unnest(v_hits) AS x);
  v_ess := v_terms;
  IF v_m >= 2 THEN
    -- The seed: the rarest terms, until their chunks could fill the top k.
    WHILE v_seeds < v_m - 1 AND v_held < p_k LOOP
      v_held := v_held + v_counts[v_m - v_seeds];
      v_seeds := v_seeds + 1;
    END LOOP;
    IF (SELECT sum(x) FROM unnest(v_counts[v_m - v_seeds + 1 : v_m]) AS x) <= ${ESSENTIAL_SHARE} * v_all THEN
      SELECT array_agg(r.rowid ORDER BY r.o), array_agg(r.raw ORDER BY r.o) INTO v_ids, v_raws
      FROM ferret.keyword_rank(p_tenant, p_owner, p_groups, v_lex, v_hits, v_n, v_avgdl, p_k,
        v_terms[v_m - v_seeds + 1 : v_m], v_terms[1 : v_m - v_seeds], ${probe("v_terms[v_m - v_seeds + 1 : v_m]")},
        v_narrow, p_sources, p_doc_id, p_doc_ids, p_since) WITH ORDINALITY AS r (rowid, raw, o);
      v_theta := CASE WHEN coalesce(cardinality(v_ids), 0) = p_k THEN v_raws[p_k] ELSE 0 END;
      -- The most frequent terms whose bounds sum below the seed's k-th score cannot lift a chunk into the top k.
      WHILE v_rest < v_m AND (v_rest_bound + v_bounds[v_rest + 1]) * ${BOUND_SLACK} < v_theta LOOP
        v_rest_bound := v_rest_bound + v_bounds[v_rest + 1];
        v_rest := v_rest + 1;
      END LOOP;
      v_ess := v_terms[v_rest + 1 : v_m];
      IF coalesce(cardinality(v_ess), 0) <= v_seeds THEN
        v_ess := NULL;
      END IF;
    END IF;
  END IF;
  IF v_ess IS NOT NULL THEN
    SELECT array_agg(r.rowid ORDER BY r.o), array_agg(r.raw ORDER BY r.o) INTO v_ids, v_raws
    FROM ferret.keyword_rank(p_tenant, p_owner, p_groups, v_lex, v_hits, v_n, v_avgdl, p_k, v_ess,
      ARRAY(SELECT x FROM unnest(v_terms) AS x WHERE x <> ALL (v_ess)), ${probe("v_ess")},
      v_narrow, p_sources, p_doc_id, p_doc_ids, p_since) WITH ORDINALITY AS r (rowid, raw, o);
  END IF;
  RETURN QUERY SELECT c.rowid, c.id, c.doc_id, c.source, c.text, c.section, c.start, c."end", c.updated_at, d.title, h.raw
    FROM unnest(v_ids, v_raws) WITH ORDINALITY AS h (rowid, raw, o)
    JOIN ferret.chunks AS c ON c.rowid = h.rowid
    JOIN ferret.documents AS d ON d.tenant = c.tenant AND d.id = c.doc_id AND d.source = c.source
    ORDER BY h.o;
END
$fn$;
`;
}

/** Pruning is tried when the seed's terms hold at most this share of the postings. */
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
 * Whether the other terms' frequencies in the chunks of `ess` are read by probes: when the candidates (their
 * postings) times the other terms, at PROBE_COST each, are at most the other terms' postings.
 */
function probe(ess: string): string {
  return `coalesce((SELECT sum(v_counts[j]) FROM generate_subscripts(v_terms, 1) AS j WHERE v_terms[j] = ANY (${ess})), 0)
        * (SELECT count(DISTINCT u.l) FROM unnest(v_lex) AS u (l) WHERE u.l <> ALL (${ess})) * ${PROBE_COST}
        <= coalesce((SELECT sum(v_counts[j]) FROM generate_subscripts(v_terms, 1) AS j WHERE v_terms[j] <> ALL (${ess})), 0)`;
}

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
