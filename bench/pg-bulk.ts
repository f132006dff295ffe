/**
 * Bulk load of the stores bench's chunk vectors into a PostgreSQL store, for measuring kNN where ingest through
 * the store would take hours (PGlite writes one statement at a time in WebAssembly: about 10 to 80 chunks/s).
 * Documents and chunks go in by multi-row inserts with the tables' triggers off (`session_replication_role`,
 * so no postings, bm25 statistics or text vectors: such a store is measured for kNN only), and the HNSW index is
 * built once after the load, as `ensureHnswIndex` builds it on a first write. Needs a superuser (PGlite's
 * `postgres`); the store's migrations must have run.
 */
import pg from "pg";
import { ensureHnswIndex } from "../src/stores/postgres/schema.js";
import type { Workload } from "./stores.js";

/** Loads every chunk of `w` (with its vector) and builds the HNSW index; returns the seconds each part took. */
export async function bulkLoadVectors(url: string, w: Workload): Promise<{ load: number; index: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const t0 = performance.now();
  let at = 0;
  try {
    for (const batch of w.batches) {
      const docs: string[][] = [[], [], []];
      const chunks: unknown[][] = Array.from({ length: 6 }, () => []);
      for (const { doc, chunks: written } of batch) {
        docs[0]?.push(doc.id);
        docs[1]?.push(doc.title);
        docs[2]?.push(doc.contentHash);
        for (const chunk of written) {
          const v = w.matrix.subarray(at * w.dims, (at + 1) * w.dims);
          at++;
          const row = [chunk.id, doc.id, chunk.ordinal, chunk.text, JSON.stringify(chunk.section), `{${v.join(",")}}`];
          row.forEach((value, i) => {
            chunks[i]?.push(value);
          });
        }
      }
      await client.query("BEGIN");
      // The session's own (super)user for this transaction: on PGlite every connection shares one session,
      // whose role the store's pool has set.
      await client.query("SET LOCAL ROLE NONE");
      await client.query("SET LOCAL session_replication_role = replica");
      await client.query(
        `INSERT INTO ferret.documents (tenant, id, source, title, acl, content_hash, text, metadata, doc_tsv)
         SELECT $1, u.id, $2, u.title, '[]', u.hash, '', '{}', ''::tsvector
         FROM unnest($3::text[], $4::text[], $5::text[]) AS u (id, title, hash)`,
        [w.corpus.tenant, w.corpus.source, ...docs],
      );
      await client.query(
        `INSERT INTO ferret.chunks (tenant, id, doc_id, source, ordinal, text, section, start, "end", tokens, acl,
           body, tsv, bm25, dims, embedding)
         SELECT $1, u.id, u.doc, $2, u.ordinal, u.text, u.section, 0, 0, 0, '[]', '', ''::tsvector, '', $3,
           u.embedding::real[]
         FROM unnest($4::text[], $5::text[], $6::int[], $7::text[], $8::text[], $9::text[])
           AS u (id, doc, ordinal, text, section, embedding)`,
        [w.corpus.tenant, w.corpus.source, w.dims, ...chunks],
      );
      await client.query("COMMIT");
    }
    const load = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    await client.query("BEGIN");
    await client.query("SET LOCAL ROLE NONE");
    // The graph of 100k 128-d vectors is built in memory (the default 64 MB spills to disk and is far slower).
    await client.query("SET LOCAL maintenance_work_mem = '1GB'");
    await ensureHnswIndex(client, w.dims);
    // Both tables, as the store's writeDocuments does: without statistics on documents the planner joined each
    // of a search's k chunks to its document through documents_by_source, reading every document of the source.
    await client.query("ANALYZE ferret.documents");
    await client.query("ANALYZE ferret.chunks");
    await client.query("COMMIT");
    return { load, index: (performance.now() - t1) / 1000 };
  } finally {
    await client.end();
  }
}
