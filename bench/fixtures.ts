/** Builds bench stores from the synthetic corpus. */

import type { DocumentWrite } from "../src/spec/document.js";
import { createSqliteStore, type SqliteStore } from "../src/stores/sqlite/index.js";
import type { Corpus } from "./corpus.js";

export const BATCH_DOCUMENTS = 200;

/** Registers the corpus's source in a new SQLite store at `path` and writes every document into it. */
export async function buildStore(options: {
  corpus: Corpus;
  path: string;
  progress: (message: string) => void;
  /** Adds vectors to each batch before it is written. */
  embed?: (batch: DocumentWrite[]) => Promise<void> | void;
}): Promise<SqliteStore> {
  const { corpus, path, progress } = options;
  const store = await createSqliteStore({ path });
  await registerSource(store, corpus);
  let written = 0;
  let nextReport = 0;
  for (const batch of corpus.batches(BATCH_DOCUMENTS)) {
    if (options.embed) await options.embed(batch);
    await store.writeDocuments(batch);
    written += batch.reduce((n, w) => n + w.chunks.length, 0);
    if (written >= nextReport) {
      progress(
        `  building ${corpus.chunkCount.toLocaleString("en-US")}-chunk store: ${written.toLocaleString("en-US")}`,
      );
      nextReport += 25_000;
    }
  }
  return store;
}

export async function registerSource(store: SqliteStore, corpus: Corpus): Promise<void> {
  await store.putSource({
    name: corpus.source,
    tenant: corpus.tenant,
    kind: "documents",
    description: "Synthetic engineering reports: projects, their codenames, engineers, suppliers and sites.",
    acl: [],
  });
}

export function scaleLabel(chunks: number): string {
  return chunks >= 1000 ? `${Math.round(chunks / 1000)}k` : String(chunks);
}
