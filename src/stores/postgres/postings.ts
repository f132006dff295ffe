/**
 * Postings of the chunks' terms, so a keyword search of one-word terms reads index entries, not chunk rows.
 *
 * `chunk_terms` holds one row per (chunk, lexeme): the lexeme's weighted frequency in the chunk (its `tf` entry),
 * the chunk's token count, and the columns the chunks' policy reads (tenant, source, acl). Its index is keyed by
 * (tenant, lexeme, rowid) and carries the rest, so a term's postings are one index range. Its policy is the
 * chunks' (`readableRows`), over the same column values, so the postings a principal may read are exactly those
 * of the chunks it may read.
 *
 * Statement triggers on chunks keep it: an insert adds the new rows' postings, a delete removes the old rows'
 * (found by their `tf` keys in the index), an update does both. Each posting belongs to one chunk row, so
 * concurrent writers touch no common row.
 */

import { BM25_B, BM25_K1 } from "./bm25.js";
import type { Params } from "./db.js";
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
 * The SQL of the chunks' bm25 ranking (see bm25.ts) from their postings, for terms of one lexeme each (`lexemes`,
 * in query order, duplicates kept as FTS5 scores each phrase): the rowid and score (`raw`) of the top k, best
 * first, ties broken by rowid.
 *
 * One pass reads the postings of the query's lexemes the principal may read (`readable`, over `ct`): each term's
 * hit count n(q) is its postings' count, and each chunk's frequencies are its postings' f, pivoted per term in
 * query order, so the sum is the one bm25.ts computes, term by term. Only when the query narrows the readable
 * chunks (`narrow`, over `c`) are the scored chunks' rows read, to apply it.
 */
export function postingsRanking(options: {
  p: Params;
  lexemes: string[];
  readable: (alias: string) => string;
  narrow: string;
  k: number;
}): string {
  const { p, lexemes } = options;
  const distinct = [...new Set(lexemes)];
  const params = lexemes.map((l) => p.add(l));
  const hits = params.map((l, i) => `(count(*) FILTER (WHERE t.lexeme = ${l}::text))::float8 AS h${i}`);
  const freqs = params.map((l, i) => `max(t.f) FILTER (WHERE t.lexeme = ${l}::text) AS f${i}`);
  const idf = lexemes.map((_, i) => `greatest(ln((st.n - h.h${i} + 0.5) / (h.h${i} + 0.5)), 1e-6) AS idf${i}`);
  const score = lexemes
    .map(
      (_, i) =>
        `idf.idf${i} * coalesce(m.f${i}, 0) * ${BM25_K1 + 1} / (coalesce(m.f${i}, 0) + ${BM25_K1} * (${1 - BM25_B} + ${BM25_B} * m.ntok / nullif(idf.avgdl, 0)))`,
    )
    .join(" + ");
  const narrowed = options.narrow === "true" ? "" : `JOIN chunks AS c ON c.rowid = m.rowid AND ${options.narrow}`;
  return `WITH t AS MATERIALIZED (
      SELECT ct.lexeme, ct.rowid, ct.f, ct.ntok FROM chunk_terms AS ct
      WHERE ct.lexeme = ANY (${p.add(distinct)}::text[]) AND ${options.readable("ct")}),
    idf AS (
      SELECT st.avgdl, ${idf.join(", ")}
      FROM (SELECT coalesce(sum(g.n), 0)::float8 AS n,
              coalesce((sum(g.ntok)::numeric / nullif(sum(g.n), 0))::float8, 1) AS avgdl
            FROM bm25_stats AS g WHERE g.tbl = 'chunks' AND ${options.readable("g")}) AS st,
        (SELECT ${hits.join(", ")} FROM t) AS h),
    m AS (SELECT t.rowid, max(t.ntok) AS ntok, ${freqs.join(", ")} FROM t GROUP BY t.rowid)
    SELECT m.rowid, ${score} AS raw
    FROM m ${narrowed} CROSS JOIN idf
    ORDER BY raw DESC, m.rowid
    LIMIT ${p.add(Math.floor(options.k))}`;
}
