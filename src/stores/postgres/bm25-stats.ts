/**
 * What bm25 needs from the rows, kept as they are written, so a keyword search reads no row it does not score.
 *
 * - `tf` on chunks and documents: the row's weighted term frequencies, lexeme -> sum of its positions' class
 *   weights (a generated jsonb column). A search looks its terms up in it instead of unnesting the tsvector.
 * - `bm25_stats`: the row count N and token total (for avgdl) of the indexed tables, per (table, tenant, source,
 *   acl), so a search sums a few rows instead of counting the tenant's rows. Its policy is the chunks' (tenant,
 *   the row's ACL, its source's ACL), which depend on exactly those columns: the rows of bm25_stats a principal
 *   may read sum to the N and tokens of the rows it may read, and no other.
 *
 * Writers never update a shared row: statement triggers on chunks and documents append one delta row per
 * (tenant, source, acl) a statement inserts or deletes, and `compactStats` folds a tenant's deltas into one
 * row per group after a write, in the writer's transaction, when no other writer of that tenant is folding
 * them (a try-lock, so no writer waits). Each delta row is deleted by the one transaction that folds it, so the
 * sums stay exact under concurrent writers.
 */
import type pg from "pg";
import { CHUNK_BM25, type ClassWeights, DOC_BM25 } from "./bm25.js";
import { readableRows } from "./policies.js";

const tf = (tsv: string, w: ClassWeights) => `ferret.tsv_freqs(${tsv}, ${w.a}, ${w.b}, ${w.d})`;

/** Schema step 3 -> 4. */
export const BM25_STATS_MIGRATION = `
CREATE OR REPLACE FUNCTION ferret.tsv_freqs(tsv tsvector, wa float8, wb float8, wd float8) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(jsonb_object_agg(u.lexeme, wa * x.a + wb * x.b + wd * (cardinality(u.weights) - x.a - x.b)), '{}'::jsonb)
  FROM unnest(tsv) AS u,
    LATERAL (SELECT cardinality(array_positions(u.weights, 'A')) AS a, cardinality(array_positions(u.weights, 'B')) AS b) AS x
$$;
-- tf is kept in the row, uncompressed, where the row fits once the texts went to TOAST (STORAGE MAIN): a
-- search reads it for every match, and a compressed value is decompressed at each term's lookup.
ALTER TABLE ferret.chunks ADD COLUMN tf jsonb GENERATED ALWAYS AS (${tf("tsv", CHUNK_BM25)}) STORED,
  ALTER COLUMN tf SET STORAGE MAIN;
ALTER TABLE ferret.documents ADD COLUMN tf jsonb GENERATED ALWAYS AS (${tf("doc_tsv", DOC_BM25)}) STORED,
  ALTER COLUMN tf SET STORAGE MAIN;
DROP FUNCTION ferret.term_freq(tsvector, text[], float8, float8, float8);

CREATE TABLE ferret.bm25_stats (
  tbl text NOT NULL, tenant text NOT NULL, source text NOT NULL, acl jsonb NOT NULL,
  n bigint NOT NULL, ntok bigint NOT NULL
);
CREATE INDEX bm25_stats_by_tenant ON ferret.bm25_stats (tenant, tbl);
ALTER TABLE ferret.bm25_stats ENABLE ROW LEVEL SECURITY;
ALTER TABLE ferret.bm25_stats FORCE ROW LEVEL SECURITY;
CREATE POLICY readable_rows ON ferret.bm25_stats USING (${readableRows("bm25_stats")}) WITH CHECK (ferret.tenant_ok(tenant));

CREATE FUNCTION ferret.bm25_stats_delta() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO ferret.bm25_stats (tbl, tenant, source, acl, n, ntok)
    SELECT TG_TABLE_NAME, r.tenant, r.source, r.acl, count(*), sum(r.ntok) FROM new_rows AS r
    GROUP BY r.tenant, r.source, r.acl;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO ferret.bm25_stats (tbl, tenant, source, acl, n, ntok)
    SELECT TG_TABLE_NAME, r.tenant, r.source, r.acl, -count(*), -sum(r.ntok) FROM old_rows AS r
    GROUP BY r.tenant, r.source, r.acl;
  END IF;
  RETURN NULL;
END
$$;
${["chunks", "documents"]
  .map(
    (table) => `CREATE TRIGGER bm25_stats_insert AFTER INSERT ON ferret.${table} REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ferret.bm25_stats_delta();
CREATE TRIGGER bm25_stats_delete AFTER DELETE ON ferret.${table} REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ferret.bm25_stats_delta();
CREATE TRIGGER bm25_stats_update AFTER UPDATE ON ferret.${table} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION ferret.bm25_stats_delta();
INSERT INTO ferret.bm25_stats (tbl, tenant, source, acl, n, ntok)
  SELECT '${table}', tenant, source, acl, count(*), sum(ntok) FROM ferret.${table} GROUP BY tenant, source, acl;`,
  )
  .join("\n")}

CREATE FUNCTION ferret.compact_bm25_stats(t text) RETURNS void LANGUAGE sql AS $$
  WITH gone AS (DELETE FROM ferret.bm25_stats AS s WHERE s.tenant = t RETURNING s.tbl, s.source, s.acl, s.n, s.ntok)
  INSERT INTO ferret.bm25_stats (tbl, tenant, source, acl, n, ntok)
  SELECT g.tbl, t, g.source, g.acl, sum(g.n), sum(g.ntok) FROM gone AS g
  GROUP BY g.tbl, g.source, g.acl HAVING sum(g.n) <> 0
$$;
`;

/**
 * Folds the tenant's deltas of both statistics tables, bm25_stats and term_stats (postings.ts), each into one
 * row per group (and term), unless another transaction is folding that table (then a later write does). Each
 * table has its own try-lock and `ferret.compact_<table>` function. Runs in the writer's transaction, under its
 * tenant scope, after its rows are written.
 */
export async function compactStats(client: pg.ClientBase, tenant: string): Promise<void> {
  for (const table of ["bm25_stats", "term_stats"]) {
    const lock = await client.query<{ got: boolean }>(
      "SELECT pg_try_advisory_xact_lock(hashtext($1), hashtext($2)) AS got",
      [`ferret.${table}`, tenant],
    );
    if (lock.rows[0]?.got) await client.query(`SELECT ferret.compact_${table}($1)`, [tenant]);
  }
}
