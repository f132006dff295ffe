import type pg from "pg";
import { StoreError } from "../../spec/errors.js";
import { BM25_MIGRATION } from "./bm25.js";
import { BM25_STATS_MIGRATION } from "./bm25-stats.js";
import { quoteIdent, redactUrl, setScope } from "./db.js";
import { keywordTopMigration, keywordTopRenewal } from "./keyword-top.js";
import { READABLE_POLICY_MIGRATION, TENANT_POLICY_MIGRATION } from "./policies.js";
import {
  LOW_POSTINGS_MIGRATION,
  POSTINGS_MIGRATION,
  TERM_GROUPS_MIGRATION,
  TERM_STATS_DELTA_MIGRATION,
} from "./postings.js";
import { restemToPorter } from "./restem.js";

/** Bump when the DDL changes, and add a step to `MIGRATIONS`. */
export const PG_SCHEMA_VERSION = 10;

/** The role that owns ferret's tables when the login role may create roles (FORCE RLS binds it). */
export const APP_ROLE = "ferret_app";
/** The role `querySql` runs under: no privileges but SELECT on the views of one query. */
export const SQL_ROLE = "ferret_sql";

/**
 * Text search configuration: Snowball's `porter` stemming (from schema 6; the algorithm of SQLite's FTS5 porter
 * tokenizer) with no stop words.
 */
export const TS_CONFIG = "ferret.ferret_text";

/**
 * Functions the row-level-security policies call. They read per-transaction settings that every store
 * transaction sets (`setScope`): `ferret.tenant`, `ferret.roles` (JSON in version 1, a text[] literal from
 * version 2) and `ferret.all_tenants`.
 */
const POLICY_FUNCTIONS = `
CREATE OR REPLACE FUNCTION ferret.tenant_ok(t text) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT t = current_setting('ferret.tenant', true) OR current_setting('ferret.all_tenants', true) = 'on'
$$;
CREATE OR REPLACE FUNCTION ferret.scope_roles() RETURNS text[] LANGUAGE sql STABLE AS $$
  SELECT coalesce(ARRAY(SELECT jsonb_array_elements_text(
    coalesce(nullif(current_setting('ferret.roles', true), ''), '[]')::jsonb)), '{}')
$$;
CREATE OR REPLACE FUNCTION ferret.acl_ok(acl jsonb) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT acl = '[]'::jsonb OR '*' = ANY (ferret.scope_roles()) OR acl ?| ferret.scope_roles()
$$;
-- Exact cosine distance without pgvector (NULL for a zero vector, which sorts last).
CREATE OR REPLACE FUNCTION ferret.cosine_distance(a real[], b real[]) RETURNS double precision
LANGUAGE sql IMMUTABLE AS $$
  SELECT 1 - sum(x::float8 * y) / nullif(sqrt(sum(x::float8 * x)) * sqrt(sum(y::float8 * y)), 0)
  FROM unnest(a, b) AS t (x, y)
$$;
`;

/** Tables with a tenant column: each gets a policy on the tenant setting, and FORCE so the owner is bound. */
const TENANT_TABLES = [
  "sources",
  "documents",
  "chunks",
  "table_sources",
  "runs",
  "turns",
  "spend",
  "graph_entities",
  "graph_mentions",
];

const DDL_V1 = `
CREATE TABLE ferret.meta (key text PRIMARY KEY, value text NOT NULL);

CREATE TABLE ferret.sources (
  tenant text NOT NULL, name text NOT NULL, kind text NOT NULL, description text NOT NULL,
  acl jsonb NOT NULL, path text,
  PRIMARY KEY (tenant, name)
);

-- doc_tsv: title (A), headings (B) and opening (D) of the document index, as segmented text.
CREATE TABLE ferret.documents (
  tenant text NOT NULL, id text NOT NULL, source text NOT NULL, title text NOT NULL, updated_at text,
  acl jsonb NOT NULL, content_hash text NOT NULL, text text NOT NULL, metadata jsonb NOT NULL,
  doc_tsv tsvector NOT NULL,
  PRIMARY KEY (tenant, id, source)
);
CREATE INDEX documents_by_source ON ferret.documents (tenant, source);
CREATE INDEX documents_tsv ON ferret.documents USING gin (doc_tsv);

-- acl and updated_at are copied from the document so every filter runs on this table alone. body is the
-- segmented text (ChunkRecord.searchText); tsv holds title (A), section (B) and body (D), diacritics folded;
-- bm25 is the text pg_textsearch ranks (title twice, section, body: its one column weighs the title up).
-- embedding is real[] so the table exists without pgvector; HNSW indexes cast it per dimension.
CREATE TABLE ferret.chunks (
  rowid bigserial PRIMARY KEY, tenant text NOT NULL, id text NOT NULL, doc_id text NOT NULL, source text NOT NULL,
  ordinal integer NOT NULL, text text NOT NULL, section text NOT NULL, start integer NOT NULL, "end" integer NOT NULL,
  tokens integer NOT NULL, updated_at text, acl jsonb NOT NULL, body text NOT NULL, tsv tsvector NOT NULL,
  bm25 text NOT NULL,
  dims integer, embedding real[],
  UNIQUE (tenant, id, source),
  FOREIGN KEY (tenant, doc_id, source) REFERENCES ferret.documents (tenant, id, source) ON DELETE CASCADE
);
CREATE INDEX chunks_by_doc ON ferret.chunks (tenant, doc_id, source);
CREATE INDEX chunks_by_source ON ferret.chunks (tenant, source);
CREATE INDEX chunks_tsv ON ferret.chunks USING gin (tsv);
CREATE INDEX chunks_with_vectors ON ferret.chunks (tenant, dims) WHERE dims IS NOT NULL;

-- One row per (tenant, source, file); sql_name is the real table in the tenant's schema (schema_name).
CREATE TABLE ferret.table_sources (
  tenant text NOT NULL, name text NOT NULL, source text NOT NULL, file text NOT NULL,
  schema_name text NOT NULL, sql_name text NOT NULL, schema jsonb NOT NULL,
  PRIMARY KEY (tenant, name), UNIQUE (tenant, source, file)
);

CREATE TABLE ferret.embedding_cache (
  model text NOT NULL, hash text NOT NULL, vector real[] NOT NULL, PRIMARY KEY (model, hash)
);

CREATE TABLE ferret.runs (
  run_id text PRIMARY KEY, tenant text NOT NULL, "user" text NOT NULL, question text NOT NULL,
  started_at text NOT NULL, events text NOT NULL, answer text, sources text
);
CREATE INDEX runs_by_tenant ON ferret.runs (tenant, started_at);

CREATE TABLE ferret.turns (
  tenant text NOT NULL, "user" text NOT NULL, session_id text NOT NULL, seq integer NOT NULL,
  role text NOT NULL, content text NOT NULL, at text NOT NULL,
  PRIMARY KEY (tenant, "user", session_id, seq)
);

CREATE TABLE ferret.api_keys (
  id text PRIMARY KEY, hash text NOT NULL UNIQUE, tenant text NOT NULL, "user" text NOT NULL,
  roles jsonb NOT NULL, label text, rate_requests integer, rate_per_ms integer, daily_usd double precision,
  created_at text NOT NULL, revoked_at text
);
CREATE INDEX api_keys_by_tenant ON ferret.api_keys (tenant, created_at);

CREATE TABLE ferret.spend (
  tenant text NOT NULL, day text NOT NULL, key_id text NOT NULL, usd double precision NOT NULL,
  runs integer NOT NULL,
  PRIMARY KEY (tenant, day, key_id)
);

CREATE TABLE ferret.graph_entities (
  id bigserial PRIMARY KEY, tenant text NOT NULL, key text NOT NULL, type text NOT NULL, text text NOT NULL,
  UNIQUE (tenant, key)
);
-- role: 0 mention, 1 defines. Mentions go with their chunk (ON DELETE CASCADE).
CREATE TABLE ferret.graph_mentions (
  chunk_rowid bigint NOT NULL REFERENCES ferret.chunks (rowid) ON DELETE CASCADE,
  entity_id bigint NOT NULL REFERENCES ferret.graph_entities (id) ON DELETE CASCADE,
  tenant text NOT NULL, type text NOT NULL, role integer NOT NULL, count integer NOT NULL,
  PRIMARY KEY (chunk_rowid, entity_id)
);
CREATE INDEX graph_mentions_by_entity ON ferret.graph_mentions (entity_id, chunk_rowid);

CREATE TEXT SEARCH DICTIONARY ferret.ferret_stem (TEMPLATE = snowball, Language = english);
CREATE TEXT SEARCH CONFIGURATION ferret.ferret_text (COPY = pg_catalog.simple);
ALTER TEXT SEARCH CONFIGURATION ferret.ferret_text
  ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part WITH ferret.ferret_stem;

${POLICY_FUNCTIONS}

${TENANT_TABLES.map(
  (table) => `ALTER TABLE ferret.${table} ENABLE ROW LEVEL SECURITY;
ALTER TABLE ferret.${table} FORCE ROW LEVEL SECURITY;`,
).join("\n")}

CREATE POLICY tenant_rows ON ferret.sources USING (ferret.tenant_ok(tenant));
CREATE POLICY tenant_rows ON ferret.table_sources USING (ferret.tenant_ok(tenant));
CREATE POLICY tenant_rows ON ferret.runs USING (ferret.tenant_ok(tenant));
CREATE POLICY tenant_rows ON ferret.turns USING (ferret.tenant_ok(tenant));
CREATE POLICY tenant_rows ON ferret.spend USING (ferret.tenant_ok(tenant));
CREATE POLICY tenant_rows ON ferret.graph_entities USING (ferret.tenant_ok(tenant));
CREATE POLICY tenant_rows ON ferret.graph_mentions USING (ferret.tenant_ok(tenant));
-- Documents and chunks: tenant, the row's ACL and its source's ACL, as the store's own predicates check.
CREATE POLICY readable_rows ON ferret.documents
  USING (ferret.tenant_ok(tenant) AND ferret.acl_ok(acl) AND NOT EXISTS (
    SELECT 1 FROM ferret.sources AS s WHERE s.tenant = documents.tenant AND s.name = documents.source
      AND NOT ferret.acl_ok(s.acl)))
  WITH CHECK (ferret.tenant_ok(tenant));
CREATE POLICY readable_rows ON ferret.chunks
  USING (ferret.tenant_ok(tenant) AND ferret.acl_ok(acl) AND NOT EXISTS (
    SELECT 1 FROM ferret.sources AS s WHERE s.tenant = chunks.tenant AND s.name = chunks.source
      AND NOT ferret.acl_ok(s.acl)))
  WITH CHECK (ferret.tenant_ok(tenant));
`;

/**
 * Version 2: `ferret.roles` holds a text[] literal and scope_roles() is a plain expression the planner inlines.
 * The JSON version was a sub-select that ran for every row a policy checked, several times per row (the
 * chunk's and its source's ACL, then the document's): about 7 times the cost of the cast (PGlite, 20k calls).
 */
const DDL_V2 = `
CREATE OR REPLACE FUNCTION ferret.scope_roles() RETURNS text[] LANGUAGE sql STABLE AS $$
  SELECT coalesce(nullif(current_setting('ferret.roles', true), ''), '{}')::text[]
$$;
`;

/** Step n upgrades a database at version n to n + 1, in the transaction that records it. */
const MIGRATIONS: (string | ((client: pg.ClientBase) => Promise<void>))[] = [
  DDL_V2,
  BM25_MIGRATION,
  `${BM25_STATS_MIGRATION}\n${READABLE_POLICY_MIGRATION}`,
  `${POSTINGS_MIGRATION}\n${TENANT_POLICY_MIGRATION}`,
  (client) => restemToPorter(client, TS_CONFIG),
  TERM_GROUPS_MIGRATION,
  keywordTopMigration(TS_CONFIG),
  TERM_STATS_DELTA_MIGRATION,
  `${LOW_POSTINGS_MIGRATION}\n${keywordTopRenewal(TS_CONFIG)}`,
];

/** How to get pg_textsearch's index, which the warnings about it end with. */
const TEXTSEARCH_HOW =
  "To build it, install pg_textsearch on the server, add it to shared_preload_libraries (a restart), run CREATE EXTENSION pg_textsearch as a role allowed to, and restart ferret.";

/** A feature that is off because the server lacks what it needs, with how to turn it on. */
export interface MissingFeature {
  feature: string;
  message: string;
}

export interface SetupResult {
  /** Role the pooled connections switch to, when one was set up. */
  appRole?: string;
  /** Role `querySql` switches to, when the server allows one. */
  sqlRole?: string;
  vector: boolean;
  /** What the installed pgvector can do (see `vectorFeatures`); all off without pgvector. */
  vectorFeatures: VectorFeatures;
  textsearch: boolean;
  /** The text-match operator keyword search uses (see `ensureLeakproofMatch`). */
  match: TextMatch;
  missing: MissingFeature[];
}

/** What an installed pgvector can do, by its version. */
export interface VectorFeatures {
  /** `pg_extension.extversion`, when pgvector is installed. */
  version?: string;
  /** HNSW indexes (pgvector 0.5.0 and later). */
  hnsw: boolean;
  /**
   * Iterative index scans (`hnsw.iterative_scan`, pgvector 0.8.0 and later): a filtered HNSW scan goes on past
   * candidates the filter drops. Before 0.8 the setting does not exist and setting it is an error.
   */
  iterativeScan: boolean;
}

/**
 * The features of the pgvector whose version (`extversion`) is `version`; none when it is undefined (not
 * installed) or not a version number.
 */
export function vectorFeatures(version: string | undefined): VectorFeatures {
  const parts = /^(\d+)\.(\d+)/.exec(version ?? "");
  if (!parts) return { ...(version !== undefined ? { version } : {}), hnsw: false, iterativeScan: false };
  const atLeast = (major: number, minor: number) => {
    const [a, b] = [Number(parts[1]), Number(parts[2])];
    return a > major || (a === major && b >= minor);
  };
  return { version: version as string, hnsw: atLeast(0, 5), iterativeScan: atLeast(0, 8) };
}

async function extensionVersion(client: pg.ClientBase, name: string): Promise<string | undefined> {
  const row = await client.query<{ v: string }>("SELECT extversion AS v FROM pg_extension WHERE extname = $1", [name]);
  return row.rows[0]?.v;
}

async function hasExtension(client: pg.ClientBase, name: string): Promise<boolean> {
  const row = await client.query("SELECT 1 FROM pg_extension WHERE extname = $1", [name]);
  return row.rowCount !== null && row.rowCount > 0;
}

/** Creates the extension when the server has it and the login role may; true when it is installed after. */
async function ensureExtension(client: pg.ClientBase, name: string): Promise<boolean> {
  if (await hasExtension(client, name)) return true;
  const available = await client.query("SELECT 1 FROM pg_available_extensions WHERE name = $1", [name]);
  if (!available.rowCount) return false;
  try {
    await asLogin(client, [`CREATE EXTENSION IF NOT EXISTS ${quoteIdent(name)}`]);
  } catch {
    return false;
  }
  return hasExtension(client, name);
}

/**
 * Prepares the database: extensions (detected, created where allowed), roles, the `ferret` schema and its
 * versioned migrations (under an advisory lock, so processes starting together migrate once).
 */
export async function setupDatabase(
  client: pg.ClientBase,
  url: string,
  options: { /** Migrate up to this version (tests of an upgrade); default the current one. */ version?: number } = {},
): Promise<SetupResult> {
  const missing: MissingFeature[] = [];
  const vector = await ensureExtension(client, "vector");
  const features = vectorFeatures(vector ? await extensionVersion(client, "vector") : undefined);
  if (!vector) {
    missing.push({
      feature: "vector index",
      message:
        "pgvector is not installed: vector search scans every vector exactly (no HNSW index). Install pgvector on the server and run CREATE EXTENSION vector (as a role allowed to).",
    });
  } else if (!features.hnsw) {
    missing.push({
      feature: "vector index",
      message: `pgvector ${features.version ?? "(unknown version)"} has no HNSW index (0.5.0 and later): vector search scans every vector exactly. Update pgvector on the server and run ALTER EXTENSION vector UPDATE.`,
    });
  } else if (!features.iterativeScan) {
    missing.push({
      feature: "iterative vector index scans",
      message: `pgvector ${features.version} has no iterative index scans (0.8.0 and later): an HNSW search returns at most its search width of candidates before the tenant and ACL filters, so a search in a tenant that shares the index with others may return fewer than k chunks. Update pgvector on the server and run ALTER EXTENSION vector UPDATE.`,
    });
  }
  let textsearch = await ensureExtension(client, "pg_textsearch");
  if (!textsearch) {
    missing.push({
      feature: "pg_textsearch index",
      message: `pg_textsearch is not installed, so its BM25 index on chunks is not built. Keyword search is not affected: it ranks with bm25 (the SQLite store's ranking) from ferret's own postings. ${TEXTSEARCH_HOW}`,
    });
  }
  // PGlite serves every connection from one backend, so a role set by another connection may still be in
  // force: the setup works as the login (session) user.
  await client.query("RESET ROLE");
  const me = (
    await client.query<{ super: boolean; createrole: boolean; bypass: boolean; user: string }>(
      `SELECT rolsuper AS super, rolcreaterole AS createrole, rolbypassrls AS bypass, session_user AS user
       FROM pg_roles WHERE rolname = session_user`,
    )
  ).rows[0];
  if (!me) throw new StoreError(`Cannot read the login role at ${redactUrl(url)}.`);
  let appRole: string | undefined;
  let sqlRole: string | undefined;
  let match: TextMatch = "@@";
  await client.query("SELECT pg_advisory_lock(hashtext('ferret.setup'))");
  try {
    if (me.super || me.createrole) {
      try {
        await createRole(client, SQL_ROLE);
        sqlRole = SQL_ROLE;
        if (me.super) {
          await createRole(client, APP_ROLE);
          await client.query(`GRANT CREATE, TEMPORARY ON DATABASE ${quoteIdent(await dbName(client))} TO ${APP_ROLE}`);
          appRole = APP_ROLE;
        } else {
          await client.query(`GRANT ${SQL_ROLE} TO ${quoteIdent(me.user)}`);
        }
      } catch (cause) {
        missing.push({
          feature: "restricted SQL role",
          message: `Cannot create the roles ferret uses (${(cause as Error).message}): run_sql runs as the login role.`,
        });
      }
    } else {
      missing.push({
        feature: "restricted SQL role",
        message: `The login role ${me.user} cannot create roles: run_sql runs as ${me.user} (read-only, time-limited). Create a role ${SQL_ROLE} (NOLOGIN) and GRANT it to ${me.user} to restrict it further.`,
      });
    }
    if (me.super ? appRole === undefined : me.bypass) {
      missing.push({
        feature: "row-level security",
        message: `The login role ${me.user} bypasses row-level security; tenant isolation rests on the store's own filters. Connect as a role without SUPERUSER and BYPASSRLS.`,
      });
    }
    if (appRole !== undefined) {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ferret AUTHORIZATION ${APP_ROLE}`);
      await client.query(`SET ROLE ${APP_ROLE}`);
    } else {
      await client.query("CREATE SCHEMA IF NOT EXISTS ferret");
    }
    await client.query("SET search_path = ferret, public");
    await migrate(client, url, options.version ?? PG_SCHEMA_VERSION, appRole);
    if (textsearch && !(await ensureBm25Index(client))) {
      textsearch = false;
      missing.push({
        feature: "pg_textsearch index",
        message: `pg_textsearch is installed but its BM25 index on chunks cannot be created. Keyword search is not affected: it ranks with bm25 (the SQLite store's ranking) from ferret's own postings. ${TEXTSEARCH_HOW}`,
      });
    }
    if (appRole !== undefined) await client.query("RESET ROLE");
    match = await ensureLeakproofMatch(client, me.super);
    if (match === "@@") {
      missing.push({
        feature: "indexed keyword matching",
        message: `The login role ${me.user} is not a superuser, so ferret cannot create its leakproof text-match operator: under row-level security the GIN index cannot serve @@, and every keyword search reads all of the tenant's chunks (slow past ~10k chunks). Start ferret once as a superuser (it creates ferret.tsvector_leakproof_ops and the indexes over it), then connect as ${me.user}.`,
      });
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock(hashtext('ferret.setup'))");
  }
  return { appRole, sqlRole, vector, vectorFeatures: features, textsearch, match, missing };
}

async function dbName(client: pg.ClientBase): Promise<string> {
  return (await client.query<{ db: string }>("SELECT current_database() AS db")).rows[0]?.db ?? "postgres";
}

async function createRole(client: pg.ClientBase, role: string): Promise<void> {
  const exists = await client.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [role]);
  if (exists.rowCount) return;
  try {
    await client.query(`CREATE ROLE ${role} NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE`);
  } catch (error) {
    // Another process created it between the check and the create.
    if ((error as { code?: string }).code !== "42710") throw error;
  }
}

async function migrate(client: pg.ClientBase, url: string, target: number, role: string | undefined): Promise<void> {
  // One transaction under a transaction-level lock: processes starting together migrate once. (PGlite serves
  // every connection from one session, where advisory locks do not exclude; its transactions do not interleave.)
  await client.query("BEGIN");
  try {
    // The role is set inside the transaction: on PGlite another process's connection may have set its own on
    // the shared session since this one set it.
    await client.query(`SET LOCAL ROLE ${role === undefined ? "NONE" : quoteIdent(role)}`);
    await client.query("SELECT pg_advisory_xact_lock(hashtext('ferret.migrate'))");
    await client.query(
      "CREATE TABLE IF NOT EXISTS ferret.schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
    );
    const row = (await client.query<{ v: number | null }>("SELECT max(version) AS v FROM ferret.schema_migrations"))
      .rows[0];
    const current = row?.v ?? 0;
    if (current > PG_SCHEMA_VERSION) {
      throw new StoreError(
        `The store at ${redactUrl(url)} has schema version ${current}, newer than this ferret understands (${PG_SCHEMA_VERSION}); upgrade ferret.`,
        undefined,
        { version: current },
      );
    }
    await setScope(client, { allTenants: true, roles: ["*"] });
    for (let v = current; v < target; v++) {
      const step = v === 0 ? DDL_V1 : MIGRATIONS[v - 1];
      if (step === undefined) throw new StoreError(`No migration from schema version ${v}.`);
      if (typeof step === "string") await client.query(step);
      else await step(client);
      await client.query("INSERT INTO ferret.schema_migrations (version) VALUES ($1)", [v + 1]);
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}

/** Whether a dimension's HNSW index exists; created on the first write of vectors of that dimension. */
export function hnswIndexName(dims: number): string {
  if (!Number.isInteger(dims) || dims <= 0 || dims > 16_000) throw new RangeError(`invalid vector dimension ${dims}`);
  return `chunks_hnsw_${dims}`;
}

/**
 * Build parameters of a new HNSW index: links per node (`m`) and candidates kept while inserting
 * (`ef_construction`), above pgvector's defaults of 16 and 64. On vectors without low-dimensional structure
 * (the bench's feature-hashed 128-d chunks, queried with the vectors of short keyword queries) a graph built
 * with the defaults found 0.79 of the exact top 10 at ef_search 200 and 0.89 at 400; this one finds 0.90 at 200
 * and 0.97 at 400 (10k chunks). An index is built once: one made before this keeps its parameters.
 */
export const HNSW_BUILD = { m: 24, efConstruction: 100 } as const;

/** Creates the cosine HNSW index over vectors of one dimension (a partial expression index). */
export async function ensureHnswIndex(client: pg.ClientBase, dims: number): Promise<void> {
  // pgvector's HNSW takes at most 2,000 dimensions; larger vectors are searched exactly.
  if (dims > 2000) return;
  // Concurrent CREATE INDEX IF NOT EXISTS of the same name can still collide: writers take turns.
  await client.query("SELECT pg_advisory_xact_lock(hashtext('ferret.hnsw'))");
  await client.query(
    `CREATE INDEX IF NOT EXISTS ${hnswIndexName(dims)} ON ferret.chunks
     USING hnsw ((embedding::vector(${dims})) vector_cosine_ops)
     WITH (m = ${HNSW_BUILD.m}, ef_construction = ${HNSW_BUILD.efConstruction}) WHERE dims = ${dims}`,
  );
}

/** The BM25 index name `to_bm25query` is given. */
export const BM25_INDEX = "ferret.chunks_bm25";

/** Creates pg_textsearch's BM25 index over `chunks.bm25`; false when the server refuses it. */
async function ensureBm25Index(client: pg.ClientBase): Promise<boolean> {
  try {
    await client.query(
      `CREATE INDEX IF NOT EXISTS chunks_bm25 ON ferret.chunks USING bm25 (bm25) WITH (text_config = '${TS_CONFIG}')`,
    );
    return true;
  } catch {
    return false;
  }
}

/**
 * How a tsvector is matched against a tsquery: the built-in `@@`, or ferret's leakproof copy of it.
 *
 * Row-level security makes the planner run the policies' checks before any condition of the query whose
 * function is not LEAKPROOF (such a function could reveal a row the policy hides, through an error or a side
 * effect). `@@` (ts_match_vq) is not marked leakproof, so under FORCEd RLS the GIN index cannot serve it: every
 * keyword search read all of the tenant's chunks (about 500 ms at 10k chunks on PostgreSQL 15). ts_match_vq
 * returns a boolean computed from its arguments and raises no error that depends on a row's text, so ferret
 * declares a LEAKPROOF function over the same C function, an operator `ferret.@@` on it and a GIN operator
 * class with that operator (the built-in tsvector_ops support functions), and indexes the tsvector columns with
 * it. The policies still run on every row the index returns. Declaring a function LEAKPROOF takes a superuser.
 */
export type TextMatch = "@@" | "OPERATOR(ferret.@@)";

const LEAKPROOF_OPCLASS = "tsvector_leakproof_ops";

const LEAKPROOF_DDL = `
CREATE FUNCTION ferret.ts_match_leakproof(tsvector, tsquery) RETURNS boolean
  LANGUAGE internal IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF AS 'ts_match_vq';
CREATE OPERATOR ferret.@@ (LEFTARG = tsvector, RIGHTARG = tsquery, FUNCTION = ferret.ts_match_leakproof,
  RESTRICT = tsmatchsel, JOIN = tsmatchjoinsel);
CREATE OPERATOR CLASS ferret.${LEAKPROOF_OPCLASS} FOR TYPE tsvector USING gin AS
  OPERATOR 1 ferret.@@ (tsvector, tsquery),
  FUNCTION 1 gin_cmp_tslexeme(text, text),
  FUNCTION 2 gin_extract_tsvector(tsvector, internal, internal),
  FUNCTION 3 gin_extract_tsquery(tsvector, internal, int2, internal, internal, internal, internal),
  FUNCTION 4 gin_tsquery_consistent(internal, int2, tsvector, int4, internal, internal, internal, internal),
  FUNCTION 5 gin_cmp_prefix(text, text, int2, internal),
  FUNCTION 6 gin_tsquery_triconsistent(internal, int2, tsvector, int4, internal, internal, internal),
  STORAGE text;
`;

/**
 * Runs `statements` in one transaction as the login (session) user. On PGlite every connection shares one
 * session, so a role another process's connection set (its pool sets the app role) may be in force; a
 * role set inside a transaction holds for it alone (PGlite's transactions do not interleave).
 */
async function asLogin(client: pg.ClientBase, statements: readonly string[]): Promise<void> {
  await client.query("BEGIN");
  try {
    await client.query("SET LOCAL ROLE NONE");
    for (const sql of statements) await client.query(sql);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}

/**
 * Makes the leakproof text match (see `TextMatch`) where a superuser runs the setup, and indexes chunks and
 * documents with it in place of the built-in GIN indexes. A database where a superuser once did so keeps it
 * for every later login. Returns the operator keyword search is to use.
 */
async function ensureLeakproofMatch(client: pg.ClientBase, superuser: boolean): Promise<TextMatch> {
  const has = async () =>
    Boolean(
      (
        await client.query(
          `SELECT 1 FROM pg_opclass AS o JOIN pg_namespace AS n ON n.oid = o.opcnamespace
           WHERE n.nspname = 'ferret' AND o.opcname = $1`,
          [LEAKPROOF_OPCLASS],
        )
      ).rowCount,
    );
  if (!(await has())) {
    if (!superuser) return "@@";
    try {
      await asLogin(client, [LEAKPROOF_DDL]);
    } catch (error) {
      // Another process made it first (PGlite's advisory locks do not exclude its connections).
      if (!(await has())) throw error;
    }
  }
  if (superuser) {
    await asLogin(client, [
      `CREATE INDEX IF NOT EXISTS chunks_tsv_leakproof ON ferret.chunks USING gin (tsv ferret.${LEAKPROOF_OPCLASS})`,
      `CREATE INDEX IF NOT EXISTS documents_tsv_leakproof ON ferret.documents USING gin (doc_tsv ferret.${LEAKPROOF_OPCLASS})`,
      // The built-in indexes serve only the built-in @@, which keyword search no longer uses: each would cost every write.
      "DROP INDEX IF EXISTS ferret.chunks_tsv, ferret.documents_tsv",
    ]);
  }
  const indexed = await client.query(
    "SELECT 1 FROM pg_indexes WHERE schemaname = 'ferret' AND indexname IN ('chunks_tsv_leakproof', 'documents_tsv_leakproof')",
  );
  return indexed.rowCount === 2 ? "OPERATOR(ferret.@@)" : "@@";
}
