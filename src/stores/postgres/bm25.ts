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
 * A search reads N and avgdl from bm25_stats and each row's f from its `tf` column (bm25-stats.ts, kept on
 * write), and counts n(q) over the matches it scores, so it reads no row that does not match.
 */
import type pg from "pg";
import type { Params } from "./db.js";
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

/** A term's lexemes as the tsvectors hold them, and whether its tsquery is that one lexeme alone. */
export interface TermLexemes {
  lexemes: string[];
  single: boolean;
}

/**
 * Each term's lexemes (the store's text configuration stems them as it stemmed the rows). In the same round
 * trip, JIT compilation is turned off for the rest of the transaction: a ranking over many matches is costed
 * past jit_above_cost, and compiling its expressions took longer than running them (8.8 of 12.8 s for one
 * search at 100k chunks, PostgreSQL 15 with LLVM).
 */
export async function termLexemes(client: pg.ClientBase, terms: RankTerm[], config: string): Promise<TermLexemes[]> {
  const rows = await client.query<{ lexemes: string[]; nodes: number }>(
    `SELECT set_config('jit', 'off', true) AS jit, ARRAY(SELECT l.lexeme FROM unnest(to_tsvector('${config}', t.words)) AS l) AS lexemes,
       numnode(to_tsquery('${config}', t.tsq)) AS nodes
     FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS t (tsq, words, i) ORDER BY t.i`,
    [terms.map((t) => t.tsquery), terms.map((t) => t.words)],
  );
  return rows.rows.map((row) => ({ lexemes: row.lexemes, single: row.nodes === 1 && row.lexemes.length === 1 }));
}

/**
 * The SQL of a bm25 ranking of `table`'s rows (alias `alias`, tsvector `tsv`, weighted frequencies `tf`) for
 * `terms`, best first, ties broken by `tieBreak` (over `m`, the carried columns): the columns of `select` (name ->
 * expression over the alias) and the score, `raw`.
 *
 * One pass reads the rows the principal may read (`readable`) that match any term (the GIN index): per row its
 * token count, each term's weighted frequency (from `tf`: a phrase counts its rarest lexeme, 0 when one is
 * absent) and whether it matches each term (a one-lexeme term matches where `tf` has the lexeme; a phrase by
 * its tsquery). The hits of each term (n(q)) are counted over that pass, N and avgdl come from bm25_stats,
 * and the rows `narrow` keeps are scored.
 */
export function bm25Ranking(options: {
  p: Params;
  table: "chunks" | "documents";
  alias: string;
  tsv: string;
  config: string;
  terms: RankTerm[];
  lexemes: TermLexemes[];
  /** Tenant and ACL filter over `alias` (called again for bm25_stats, as `g`). */
  readable: (alias: string) => string;
  narrow: string;
  select: Record<string, string>;
  tieBreak: string;
  k: number;
  match?: TextMatch;
}): string {
  const { p, table, alias: a, tsv, config, terms } = options;
  const match = options.match ?? "@@";
  const lookup = (lexeme: string) => `(${a}.tf -> ${p.add(lexeme)}::text)::float8`;
  const columns: string[] = [];
  const hits: string[] = [];
  options.lexemes.forEach((term, i) => {
    if (term.single) {
      columns.push(`${lookup(term.lexemes[0] as string)} AS f${i}`);
      hits.push(`count(m.f${i})::float8 AS h${i}`);
    } else {
      const f =
        term.lexemes.length === 0
          ? "0::float8"
          : `least(${term.lexemes.map((l) => `coalesce(${lookup(l)}, 0)`).join(", ")})`;
      columns.push(`${f} AS f${i}`);
      columns.push(`(${a}.${tsv} ${match} to_tsquery('${config}', ${p.add(terms[i]?.tsquery)}::text)) AS m${i}`);
      hits.push(`(count(*) FILTER (WHERE m.m${i}))::float8 AS h${i}`);
    }
  });
  const idf = options.lexemes.map((_, i) => `greatest(ln((st.n - h.h${i} + 0.5) / (h.h${i} + 0.5)), 1e-6) AS idf${i}`);
  const score = options.lexemes
    .map(
      (_, i) =>
        `idf.idf${i} * coalesce(m.f${i}, 0) * ${BM25_K1 + 1} / (coalesce(m.f${i}, 0) + ${BM25_K1} * (${1 - BM25_B} + ${BM25_B} * m.ntok::float8 / nullif(idf.avgdl, 0)))`,
    )
    .join(" + ");
  const any = `to_tsquery('${config}', ${p.add(terms.map((t) => t.tsquery).join(" | "))}::text)`;
  const names = Object.keys(options.select);
  const carried = names.map((name) => `${options.select[name]} AS ${name}`);
  return `WITH m AS MATERIALIZED (
      SELECT ${[...carried, `${a}.ntok`, `(${options.narrow}) AS pass`, ...columns].join(", ")}
      FROM ${table} AS ${a} WHERE ${a}.${tsv} ${match} ${any} AND ${options.readable(a)}),
    idf AS (
      SELECT st.avgdl, ${idf.join(", ")}
      FROM (SELECT coalesce(sum(g.n), 0)::float8 AS n,
              coalesce((sum(g.ntok)::numeric / nullif(sum(g.n), 0))::float8, 1) AS avgdl
            FROM bm25_stats AS g WHERE g.tbl = '${table}' AND ${options.readable("g")}) AS st,
        (SELECT ${hits.join(", ")} FROM m) AS h)
    SELECT ${names.map((name) => `m.${name}`).join(", ")}, ${score} AS raw
    FROM m, idf WHERE m.pass
    ORDER BY raw DESC, ${options.tieBreak}
    LIMIT ${p.add(Math.floor(options.k))}`;
}
