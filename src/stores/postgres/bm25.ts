/**
 * The SQLite store's keyword ranking, computed in PostgreSQL: FTS5's bm25() with its column weights, from the
 * term statistics the tsvectors hold. Both stores then rank a query's matches alike (the eval gate's
 * recall@5 is equal within 0.01 on either), where pg_textsearch (one column) or ts_rank_cd (cover density)
 * would not.
 *
 * FTS5's bm25 (k1 = 1.2, b = 0.75), for a row D and the query's phrases q_i:
 *   score(D) = sum_i idf(q_i) * f(q_i, D) * (k1 + 1) / (f(q_i, D) + k1 * (1 - b + b * |D| / avgdl))
 *   idf(q) = ln((N - n(q) + 0.5) / (n(q) + 0.5)), at least 1e-6
 * where f is the phrase's count in each column times the column's weight, |D| the row's tokens in all
 * columns, avgdl their mean over the index's N rows and n(q) the rows matching q. Here a row's columns are the
 * tsvector's weight classes (A, B, D), |D| is `ntok` (the tsvector's positions, a generated column), and N,
 * avgdl and n(q) are taken over the tenant's rows the principal may read (SQLite's cover its whole file).
 */
import type { TextMatch } from "./schema.js";
/** Latin letters lose their diacritics (as SQLite's remove_diacritics), other scripts keep their marks. */
export function foldText(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/(\p{Script=Latin})\p{M}+/gu, "$1")
    .normalize("NFC");
}

/** FTS5's bm25 constants. */
export const BM25_K1 = 1.2;
export const BM25_B = 0.75;

/** Weights of the tsvector classes A, B and D; the SQLite store's bm25() column weights. */
export interface ClassWeights {
  a: number;
  b: number;
  d: number;
}

/** Chunks: title (A), section (B), body (D), as chunks_fts's bm25 weights 2, 1.5, 1. */
export const CHUNK_BM25: ClassWeights = { a: 2, b: 1.5, d: 1 };
/** Documents: title (A), headings (B), opening (D), as docs_fts's bm25 weights 3, 1.5, 1. */
export const DOC_BM25: ClassWeights = { a: 3, b: 1.5, d: 1 };

/**
 * Schema step 1 -> 2: each row's token count (what bm25 calls |D|) as a generated column, and the weighted
 * frequency of a term in a tsvector. A term of several lexemes (a phrase, as FTS5 reads "v2.1") counts its
 * rarest lexeme.
 */
export const BM25_MIGRATION = `
CREATE OR REPLACE FUNCTION ferret.tsv_tokens(tsv tsvector) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(sum(coalesce(array_length(u.positions, 1), 0)), 0)::integer FROM unnest(tsv) AS u
$$;
CREATE OR REPLACE FUNCTION ferret.term_freq(tsv tsvector, lexemes text[], wa float8, wb float8, wd float8)
RETURNS float8 LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN count(*) = cardinality(lexemes) THEN coalesce(min(x.f), 0) ELSE 0 END
  FROM (SELECT sum(CASE w WHEN 'A' THEN wa WHEN 'B' THEN wb ELSE wd END) AS f
        FROM unnest(tsv) AS u, unnest(u.weights) AS w
        WHERE u.lexeme = ANY (lexemes) GROUP BY u.lexeme) AS x
$$;
ALTER TABLE ferret.chunks ADD COLUMN ntok integer GENERATED ALWAYS AS (ferret.tsv_tokens(tsv)) STORED;
ALTER TABLE ferret.documents ADD COLUMN ntok integer GENERATED ALWAYS AS (ferret.tsv_tokens(doc_tsv)) STORED;
`;

/** FTS5's unicode61 token characters: letters, digits, marks and private-use characters. */
const TOKEN_RUN = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;

/**
 * Text as FTS5's unicode61 tokenizer splits it (runs of letters, digits and marks), diacritics folded and
 * space-joined, so PostgreSQL's text parser sees the same words: it would read "v2.1" as a version,
 * "ops@host.io" as an e-mail and "api_docs" as one word, where FTS5 reads two or three.
 */
export function indexWords(text: string): string {
  return (foldText(text).match(TOKEN_RUN) ?? []).join(" ");
}

/** One query term for the ranking: its tsquery text (a phrase of its words), and its words. */
export interface RankTerm {
  tsquery: string;
  words: string;
}

/**
 * The query's terms as FTS5 reads its `"t1" OR "t2"` expression: each term split into its words (a phrase
 * when several), terms with no word left dropped. Duplicates stay, as FTS5 scores each phrase.
 */
export function rankTerms(terms: string[]): RankTerm[] {
  const out: RankTerm[] = [];
  for (const term of terms) {
    const words = indexWords(term);
    if (words === "") continue;
    out.push({ tsquery: `'${words.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`, words });
  }
  return out;
}

/**
 * SQL pieces ranking the rows of `table` (alias `alias`, tsvector `tsv`) by bm25 for the terms in `$terms`
 * and `$words` (parallel text arrays), over the tenant `$tenant`: a WITH list defining `bm25_idf` (one row
 * per term: lexemes, idf) and `bm25_stats` (avgdl), and the score expression of a row.
 */
export function bm25Sql(options: {
  table: string;
  alias: string;
  tsv: string;
  config: string;
  weights: ClassWeights;
  tenant: string;
  tsqueries: string;
  words: string;
  /** The match operator: the leakproof one where the schema has it, so term counts use the GIN index under RLS. */
  match?: TextMatch;
}): { with: string; score: string } {
  const { table, alias, tsv, config, weights, tenant } = options;
  const match = options.match ?? "@@";
  const withList = `bm25_terms AS MATERIALIZED (
      SELECT t.i, to_tsquery('${config}', t.tsq) AS tq,
        ARRAY(SELECT l.lexeme FROM unnest(to_tsvector('${config}', t.words)) AS l) AS lexemes
      FROM unnest(${options.tsqueries}::text[], ${options.words}::text[]) WITH ORDINALITY AS t (tsq, words, i)),
    bm25_stats AS MATERIALIZED (
      SELECT count(*)::float8 AS n, coalesce(avg(s.ntok), 1)::float8 AS avgdl FROM ${table} AS s WHERE s.tenant = ${tenant}),
    bm25_idf AS MATERIALIZED (
      SELECT t.i, t.lexemes, greatest(ln((st.n - h.hits + 0.5) / (h.hits + 0.5)), 1e-6) AS idf, st.avgdl
      FROM bm25_terms AS t CROSS JOIN bm25_stats AS st
      CROSS JOIN LATERAL (SELECT count(*)::float8 AS hits FROM ${table} AS s
        WHERE s.tenant = ${tenant} AND s.${tsv} ${match} t.tq) AS h)`;
  const score = `(SELECT sum(x.idf * x.f * ${BM25_K1 + 1} / (x.f + ${BM25_K1} * (${1 - BM25_B} + ${BM25_B} * ${alias}.ntok / nullif(x.avgdl, 0))))
      FROM (SELECT b.i, b.idf, b.avgdl,
              ferret.term_freq(${alias}.${tsv}, b.lexemes, ${weights.a}, ${weights.b}, ${weights.d}) AS f
            FROM bm25_idf AS b ORDER BY b.i) AS x)`;
  return { with: withList, score };
}
