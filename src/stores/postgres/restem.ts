/**
 * Schema step 5 -> 6: the store's stemmer becomes Snowball's `porter`, the algorithm SQLite's FTS5 `porter`
 * tokenizer implements, in place of Snowball `english` (Porter2), which stems some words differently
 * ("generalization": Porter "gener", Porter2 "general"). Both stores then read a word as the same term and count
 * its matches alike.
 *
 * The tsvectors hold stems, not words, so the step rebuilds them from the texts the rows keep, as
 * `writeDocuments` builds them (documents.ts); the generated columns (`ntok`, `tf`) and the postings follow.
 */
import type pg from "pg";
import { searchText } from "../../text/tokenize.js";
import { docIndexEntry } from "../sqlite/doc-index-text.js";
import { indexWords } from "./bm25.js";

/** The documents rebuilt per round trip. */
const BATCH = 200;

const weighted = (config: string, param: string, weight: "A" | "B" | "D") =>
  `setweight(to_tsvector('${config}', ${param}), '${weight}')`;

interface DocRow {
  tenant: string;
  id: string;
  source: string;
  title: string;
  text: string;
}

/** Switches the dictionary and rebuilds every document's and chunk's tsvector (under the migration's all-tenant scope). */
export async function restemToPorter(client: pg.ClientBase, config: string): Promise<void> {
  await client.query("ALTER TEXT SEARCH DICTIONARY ferret.ferret_stem (Language = porter)");
  let after: [string, string, string] | undefined;
  for (;;) {
    const docs = (
      await client.query<DocRow>(
        `SELECT tenant, id, source, title, text FROM ferret.documents
         ${after ? 'WHERE (tenant COLLATE "C", id COLLATE "C", source COLLATE "C") > ($1, $2, $3)' : ""}
         ORDER BY tenant COLLATE "C", id COLLATE "C", source COLLATE "C" LIMIT ${BATCH}`,
        after ?? [],
      )
    ).rows;
    if (docs.length === 0) break;
    const last = docs[docs.length - 1] as DocRow;
    after = [last.tenant, last.id, last.source];
    const chunks = (
      await client.query<{
        rowid: string;
        tenant: string;
        doc_id: string;
        source: string;
        section: string;
        body: string;
      }>(
        `SELECT c.rowid, c.tenant, c.doc_id, c.source, c.section, c.body
         FROM ferret.chunks AS c
         JOIN unnest($1::text[], $2::text[], $3::text[]) AS d (tenant, id, source)
           ON c.tenant = d.tenant AND c.doc_id = d.id AND c.source = d.source
         ORDER BY c.ordinal`,
        [docs.map((d) => d.tenant), docs.map((d) => d.id), docs.map((d) => d.source)],
      )
    ).rows;
    const byDoc = new Map<string, typeof chunks>();
    for (const chunk of chunks) {
      const key = JSON.stringify([chunk.tenant, chunk.doc_id, chunk.source]);
      byDoc.set(key, [...(byDoc.get(key) ?? []), chunk]);
    }
    const docCols: string[][] = [[], [], [], [], [], []];
    const chunkCols: string[][] = [[], [], [], []];
    for (const doc of docs) {
      const own = byDoc.get(JSON.stringify([doc.tenant, doc.id, doc.source])) ?? [];
      const sections = own.map((c) => JSON.parse(c.section) as string[]);
      const entry = docIndexEntry({ title: doc.title, text: doc.text, sections });
      [
        doc.tenant,
        doc.id,
        doc.source,
        indexWords(entry.title),
        indexWords(entry.headings),
        indexWords(entry.opening),
      ].forEach((v, i) => {
        docCols[i]?.push(v);
      });
      const titleText = indexWords(searchText(doc.title));
      own.forEach((chunk, i) => {
        const words = indexWords(searchText((sections[i] ?? []).join(" ")));
        [chunk.rowid, titleText, words, indexWords(chunk.body)].forEach((v, j) => {
          chunkCols[j]?.push(v);
        });
      });
    }
    await client.query(
      `UPDATE ferret.documents AS d
       SET doc_tsv = ${weighted(config, "u.t", "A")} || ${weighted(config, "u.h", "B")} || ${weighted(config, "u.o", "D")}
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS u (tenant, id, source, t, h, o)
       WHERE d.tenant = u.tenant AND d.id = u.id AND d.source = u.source`,
      docCols,
    );
    if (chunkCols[0]?.length) {
      await client.query(
        `UPDATE ferret.chunks AS c
         SET tsv = ${weighted(config, "u.t", "A")} || ${weighted(config, "u.s", "B")} || ${weighted(config, "u.b", "D")}
         FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) AS u (rowid, t, s, b)
         WHERE c.rowid = u.rowid`,
        chunkCols,
      );
    }
  }
  await client.query(
    "SELECT ferret.compact_bm25_stats(t.tenant) FROM (SELECT DISTINCT tenant FROM ferret.bm25_stats) AS t",
  );
  // pg_textsearch's index (where built) tokenizes with the same configuration.
  const index = await client.query("SELECT 1 FROM pg_class WHERE oid = to_regclass('ferret.chunks_bm25')");
  if (index.rowCount) await client.query("REINDEX INDEX ferret.chunks_bm25");
}
