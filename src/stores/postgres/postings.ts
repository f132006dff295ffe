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

/**
 * A posting's weighted frequency above which it is "high": more than one occurrence in the body text, or one
 * in a title or heading (bm25.ts's column weights). Most postings are one occurrence in the body, and their
 * weight is bounded well below the term's largest one, so a keyword search may leave a frequent term's low
 * postings out of the postings it gathers and read them only for its candidates (keyword-top.ts). Written into
 * the index below and the counts: changing it needs a migration that rebuilds both.
 */
export const HIGH_F = 1;

/**
 * The chunks trigger's function and the fold of term_stats, which append and fold delta rows (steps 9 and 10).
 * With `low` (step 10 on), they also count each term's low postings (`nlow`).
 */
function termStatsFunctions(low: boolean): string {
  const nlow = (f: string, sign = "") => (low ? `, ${sign}count(*) FILTER (WHERE ${f} <= ${HIGH_F})` : "");
  return `
CREATE OR REPLACE FUNCTION ferret.chunk_terms_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    WITH gone AS (
      DELETE FROM ferret.chunk_terms AS ct USING old_rows AS r CROSS JOIN LATERAL jsonb_object_keys(r.tf) AS l (lexeme)
      WHERE ct.tenant = r.tenant AND ct.lexeme = l.lexeme AND ct.rowid = r.rowid
      RETURNING ct.tenant, ct.lexeme, ct.grp, ct.f)
    INSERT INTO ferret.term_stats (tenant, lexeme, grp, n${low ? ", nlow" : ""}, delta)
    SELECT g.tenant, g.lexeme, g.grp, -count(*)${nlow("g.f", "-")}, true FROM gone AS g
    GROUP BY g.tenant, g.lexeme, g.grp;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO ferret.term_groups (tenant, source, acl) SELECT DISTINCT r.tenant, r.source, r.acl FROM new_rows AS r
      ON CONFLICT DO NOTHING;
    WITH added AS (
      INSERT INTO ferret.chunk_terms (tenant, lexeme, rowid, f, ntok, grp)
      SELECT r.tenant, e.key, r.rowid, e.value::float8, r.ntok, g.id
      FROM new_rows AS r JOIN ferret.term_groups AS g ON g.tenant = r.tenant AND g.source = r.source AND g.acl = r.acl
      CROSS JOIN LATERAL jsonb_each(r.tf) AS e
      RETURNING tenant, lexeme, grp, f, ntok)
    INSERT INTO ferret.term_stats (tenant, lexeme, grp, n, maxf, minntok${low ? ", nlow" : ""}, delta)
    SELECT a.tenant, a.lexeme, a.grp, count(*), max(a.f), min(a.ntok)${nlow("a.f")}, true FROM added AS a
    GROUP BY a.tenant, a.lexeme, a.grp;
  END IF;
  RETURN NULL;
END
$$;

-- Folds every row of each lexeme that has deltas into one row per group (dropping a group's row once its
-- postings are all gone). Rows a concurrent writer has not committed are not seen and stay for the next fold.
CREATE OR REPLACE FUNCTION ferret.compact_term_stats(t text) RETURNS void LANGUAGE sql AS $$
  WITH touched AS (SELECT DISTINCT d.lexeme FROM ferret.term_stats AS d WHERE d.tenant = t AND d.delta),
  gone AS (
    DELETE FROM ferret.term_stats AS s USING touched AS x WHERE s.tenant = t AND s.lexeme = x.lexeme
    RETURNING s.lexeme, s.grp, s.n, s.maxf, s.minntok${low ? ", s.nlow" : ""})
  INSERT INTO ferret.term_stats (tenant, lexeme, grp, n, maxf, minntok${low ? ", nlow" : ""})
  SELECT t, g.lexeme, g.grp, sum(g.n), max(g.maxf), min(g.minntok)${low ? ", sum(g.nlow)" : ""} FROM gone AS g
  GROUP BY g.lexeme, g.grp HAVING sum(g.n) <> 0
$$;
`;
}

/**
 * Schema step 8 -> 9: writers no longer fold term_stats in the chunks trigger (once per inserted document, which
 * rewrote the rows of each of its ~200 lexemes: a third of a one-writer ingest, and most of term_stats' size as
 * dead rows), but once per write (`compactStats`, after the batch, with bm25_stats). The trigger only appends
 * delta rows, marked `delta`; a partial index finds the lexemes they touch. Readers sum a term's rows per group,
 * so folded or not, the counts are the same.
 */
export const TERM_STATS_DELTA_MIGRATION = `
ALTER TABLE ferret.term_stats ADD COLUMN delta boolean NOT NULL DEFAULT false;
CREATE INDEX term_stats_deltas ON ferret.term_stats (tenant, lexeme) WHERE delta;
${termStatsFunctions(false)}`;

/**
 * Schema step 9 -> 10: each term's low postings are counted (term_stats.nlow, kept by the trigger and the fold
 * as `n`), and a partial index holds the high postings, so a search reads a term's high postings alone.
 */
export const LOW_POSTINGS_MIGRATION = `
ALTER TABLE ferret.term_stats ADD COLUMN nlow bigint NOT NULL DEFAULT 0;
DELETE FROM ferret.term_stats;
INSERT INTO ferret.term_stats (tenant, lexeme, grp, n, maxf, minntok, nlow)
  SELECT tenant, lexeme, grp, count(*), max(f), min(ntok), count(*) FILTER (WHERE f <= ${HIGH_F})
  FROM ferret.chunk_terms GROUP BY tenant, lexeme, grp;
DROP INDEX ferret.term_stats_by_term;
CREATE INDEX term_stats_by_term ON ferret.term_stats (tenant, lexeme) INCLUDE (grp, n, maxf, minntok, nlow);
CREATE INDEX chunk_terms_high ON ferret.chunk_terms (tenant, lexeme, rowid) INCLUDE (f, ntok, grp) WHERE f > ${HIGH_F};
ANALYZE ferret.term_stats;

${termStatsFunctions(true)}`;
