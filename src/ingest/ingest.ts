import { join, relative, sep } from "node:path";
import type { ChunkRecord, DocumentWrite } from "../spec/document.js";
import { InvalidInputError } from "../spec/errors.js";
import { DEFAULT_TENANT } from "../spec/principal.js";
import { type StoreV1, tableStoreOf } from "../spec/store.js";
import { type IngestLimits, resolveLimits } from "./limits.js";
import type { LoaderRegistry } from "./loader-registry.js";
import { inOrder } from "./pool/in-order.js";
import { createParsePool, type ParsePool } from "./pool/parse-pool.js";
import { planSources, type SourcePlan } from "./sources.js";
import { tableName } from "./table-name.js";
import type { LoadedTable } from "./types.js";
import { listFiles } from "./walk.js";

export interface IngestProgress {
  /** `load` (per file), `write` (per document written), `prune`. */
  phase: string;
  done: number;
  total: number;
  file?: string;
}

export interface IngestOptions {
  store: StoreV1;
  /** An evaluation-set folder (with sources.json), a plain folder, or one file. */
  path: string;
  tenant?: string;
  /** Source name for a plain folder or file (default: its name in lower_snake_case); for a set, only that source. */
  source?: string;
  description?: string;
  /** Source ACL for a plain folder or file (sets give theirs in sources.json). */
  acl?: string[];
  /** Remove documents of the source that are no longer present. */
  prune?: boolean;
  /** Shorthand for `limits.maxFileBytes`. */
  maxFileBytes?: number;
  /** Fills `chunk.embedding` for the chunks about to be written. */
  embed?: (chunks: ChunkRecord[]) => Promise<void>;
  onProgress?: (event: IngestProgress) => void;
  /** Documents per store transaction; default 64 (fewer when they are large, see `batchChars`). */
  batchSize?: number;
  /** Characters of chunk text per store transaction, at most (a larger document goes alone); default 8 M. */
  batchChars?: number;
  /** Parse worker threads (load, chunk, entities); default one per core, at most 4; 0 parses in process. */
  workers?: number;
  /** Decoding and parsing caps (file size, zip, front matter, HTML, PDF pages, CSV, parse time and heap); defaults for any not given. */
  limits?: Partial<IngestLimits>;
  /** Loaders by extension (`createFerret({ loaders })`); the process-wide registry when absent. */
  loaders?: LoaderRegistry;
}

/** Chunk text per store transaction, at most, so memory stays flat however large the files. */
export const DEFAULT_BATCH_CHARS = 8_000_000;

/** Files parsed ahead of the one being written, per worker: enough to keep the workers busy, no more. */
const AHEAD_PER_WORKER = 2;

export interface IngestSummary {
  sources: string[];
  added: number;
  updated: number;
  unchanged: number;
  removed: number;
  /** Files that should have loaded and did not (malformed, corrupt, encrypted). Their stored documents are kept. */
  failed: { file: string; reason: string }[];
  /** Files left out on purpose (unsupported type, binary, empty, over the size limit). */
  skipped: { file: string; reason: string }[];
  warnings: { file: string; message: string }[];
  /** Chunks written in this run. */
  chunks: number;
  ms: number;
}

/** A summary with nothing counted yet, for the given sources (file, web and in-memory ingest all start here). */
export function emptyIngestSummary(sources: string[] = []): IngestSummary {
  return {
    sources,
    added: 0,
    updated: 0,
    unchanged: 0,
    removed: 0,
    failed: [],
    skipped: [],
    warnings: [],
    chunks: 0,
    ms: 0,
  };
}

/** Stored hashes grouped by the file part of the id (`<path>` or `<path>#<key>`), for handing each file its own. */
function byFile(hashes: Map<string, string>): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const [id, hash] of hashes) {
    const hashAt = id.indexOf("#");
    const key = hashAt < 0 ? id : id.slice(0, hashAt);
    const group = out.get(key) ?? new Map<string, string>();
    group.set(id, hash);
    out.set(key, group);
  }
  return out;
}

function knownFor(groups: Map<string, Map<string, string>>, relPath: string): Map<string, string> {
  const hashAt = relPath.indexOf("#");
  const group = groups.get(hashAt < 0 ? relPath : relPath.slice(0, hashAt));
  const out = new Map<string, string>();
  for (const [id, hash] of group ?? []) if (id === relPath || id.startsWith(`${relPath}#`)) out.set(id, hash);
  return out;
}

/**
 * Writes a loaded CSV's rows as the file's SQL table. A `table` source holds one table, so a table it had from
 * another file goes. A table the store refuses (bad input) fails that file only.
 */
async function writeFileTable(options: {
  store: StoreV1;
  tenant: string;
  plan: SourcePlan;
  relPath: string;
  table: LoadedTable;
}): Promise<{ name: string } | { failed: string }> {
  const { tenant, plan, table } = options;
  const relPath = table.file ?? options.relPath;
  const store = tableStoreOf(options.store);
  if (store === undefined) return { failed: `the ${options.store.provider} store keeps no SQL tables` };
  try {
    if (plan.kind === "table" && table.file === undefined) await store.removeTables(tenant, plan.name, [relPath]);
    return await store.writeTable({ tenant, source: plan.name, file: relPath, schema: table.schema, rows: table.rows });
  } catch (error) {
    if (error instanceof InvalidInputError) return { failed: error.message };
    throw error;
  }
}

/**
 * A reason without the file name it may start with (errors name their file for callers that see them alone;
 * the summary already pairs each reason with its file): `a.csv, line 3: ...` becomes `line 3: ...`.
 */
function withoutFile(file: string, reason: string): string {
  if (reason.startsWith(`${file}: `)) return reason.slice(file.length + 2);
  if (reason.startsWith(`${file}, `)) return reason.slice(file.length + 2);
  return reason;
}

interface PlannedFile {
  /** What to read. */
  absPath: string;
  /** The document id base. */
  relPath: string;
}

/** The files of a source (symbolic links resolved inside its root), and the entries left out with why. */
async function filesOf(plan: SourcePlan): Promise<{ files: PlannedFile[]; skipped: IngestSummary["skipped"] }> {
  const idOf = (path: string) => relative(plan.idRoot, path).split(sep).join("/");
  const single = { files: [{ absPath: plan.absPath, relPath: idOf(plan.absPath) }], skipped: [] };
  if (plan.kind !== "documents") return single;
  const listed = await listFiles({ root: plan.absPath }).catch(() => undefined);
  if (listed === undefined) return single;
  const under = (rel: string) => idOf(join(plan.absPath, ...rel.split("/")));
  return {
    files: listed.files.map((f) => ({ absPath: f.absPath, relPath: under(f.relPath) })),
    skipped: listed.skipped.map((s) => ({ file: under(s.relPath), reason: s.reason })),
  };
}

/**
 * Ingests a path into a store, incrementally: documents whose content hash is unchanged are skipped,
 * changed ones are replaced (document, chunks and hash in one transaction), and with `prune` documents
 * no longer present are removed. Safe to re-run after a crash at any point: it converges to a clean run.
 * Files are parsed (loaded, chunked, entities found) in a pool of worker threads, a few files ahead of the
 * main thread, which embeds and writes them in file order.
 */
export async function ingestPath(options: IngestOptions): Promise<IngestSummary> {
  const limits = resolveLimits({
    ...options.limits,
    maxFileBytes: options.maxFileBytes ?? options.limits?.maxFileBytes,
  });
  let pool: ParsePool | undefined;
  const parsePool = () => {
    pool ??= createParsePool({ workers: options.workers, limits });
    return pool;
  };
  try {
    return await ingestWith(options, limits, parsePool);
  } finally {
    await pool?.close();
  }
}

async function ingestWith(
  options: IngestOptions,
  limits: IngestLimits,
  parsePool: () => ParsePool,
): Promise<IngestSummary> {
  const started = performance.now();
  const { store } = options;
  const tenant = options.tenant ?? DEFAULT_TENANT;
  const batchSize = Math.max(1, options.batchSize ?? 64);
  const batchChars = Math.max(1, options.batchChars ?? DEFAULT_BATCH_CHARS);
  const progress = options.onProgress ?? (() => undefined);
  const summary = emptyIngestSummary();
  const plans = await planSources(options);

  for (const plan of plans) {
    summary.sources.push(plan.name);
    await store.putSource({
      name: plan.name,
      tenant,
      kind: plan.kind,
      description: plan.description,
      acl: plan.acl,
      path: plan.path,
    });
    const existing = await store.documentHashes(tenant, plan.name);
    const known = byFile(existing);
    const { files, skipped } = await filesOf(plan);
    summary.skipped.push(...skipped);
    const seen = new Set<string>();
    const keep: string[] = [];
    /** Files whose SQL table this run wrote. */
    const tableFiles: string[] = [];
    let pending: { write: DocumentWrite; isNew: boolean }[] = [];
    let pendingChars = 0;
    let written = 0;

    const flush = async () => {
      if (pending.length === 0) return;
      const chunks = pending.flatMap((p) => p.write.chunks);
      if (options.embed && chunks.length > 0) await options.embed(chunks);
      await store.writeDocuments(pending.map((p) => p.write));
      for (const p of pending) {
        if (p.isNew) summary.added++;
        else summary.updated++;
        written++;
        progress({ phase: "write", done: written, total: seen.size, file: p.write.doc.id });
      }
      summary.chunks += chunks.length;
      pending = [];
      pendingChars = 0;
    };

    const pool = files.length > 0 ? parsePool() : undefined;
    const tasks = files.map(({ absPath, relPath }) => {
      return {
        absPath,
        relPath,
        // A `table` source's one CSV is named after the source (`tickets`); a folder's CSVs after their files.
        tableName: plan.kind === "table" ? plan.name : tableName(relPath),
        limits,
        source: plan.name,
        tenant,
        sourceAcl: plan.acl,
        known: knownFor(known, relPath),
        loaders: options.loaders,
      };
    });
    let index = 0;
    for await (const [{ relPath, tableName: wanted }, parsed] of inOrder({
      items: tasks,
      work: (task) => (pool as ParsePool).parse(task),
      concurrency: pool?.concurrency ?? 1,
      ahead: (pool?.concurrency ?? 1) * AHEAD_PER_WORKER,
    })) {
      progress({ phase: "load", done: index++, total: files.length, file: relPath });
      if (parsed.kind === "skipped") {
        summary.skipped.push({ file: relPath, reason: withoutFile(relPath, parsed.reason) });
        continue;
      }
      if (parsed.kind === "failed") {
        summary.failed.push({ file: relPath, reason: withoutFile(relPath, parsed.reason) });
        keep.push(relPath);
        continue;
      }
      const tables = [...(parsed.table ? [parsed.table] : []), ...(parsed.tables ?? [])];
      let tableFailed = false;
      for (const table of tables) {
        const written = await writeFileTable({ store, tenant, plan, relPath, table });
        if ("failed" in written) {
          summary.failed.push({ file: relPath, reason: withoutFile(relPath, written.failed) });
          keep.push(relPath);
          tableFailed = true;
          break;
        }
        tableFiles.push(table.file ?? relPath);
        const wantedName = table.file === undefined ? wanted : table.schema.name;
        if (written.name !== wantedName) {
          summary.warnings.push({
            file: relPath,
            message: `table name "${wantedName}" is taken in this tenant; the table is "${written.name}"`,
          });
          for (const doc of parsed.docs)
            if (doc.kind === "changed" && doc.write.doc.metadata.table === wantedName)
              doc.write.doc.metadata.table = written.name;
        }
      }
      if (tableFailed) continue;
      for (const message of parsed.warnings) summary.warnings.push({ file: relPath, message });
      for (const doc of parsed.docs) {
        if (doc.kind === "empty") {
          summary.skipped.push({ file: doc.id, reason: "no text to index" });
          continue;
        }
        seen.add(doc.id);
        if (doc.kind === "unchanged") {
          summary.unchanged++;
          continue;
        }
        pending.push({ write: doc.write, isNew: !existing.has(doc.id) });
        for (const chunk of doc.write.chunks) pendingChars += chunk.text.length;
        if (pending.length >= batchSize || pendingChars >= batchChars) await flush();
      }
    }
    progress({ phase: "load", done: files.length, total: files.length });
    await flush();

    if (options.prune) {
      const gone = [...existing.keys()].filter(
        (id) => !seen.has(id) && !keep.some((file) => id === file || id.startsWith(`${file}#`)),
      );
      progress({ phase: "prune", done: 0, total: gone.length });
      for (let i = 0; i < gone.length; i += batchSize)
        await store.removeDocuments(tenant, gone.slice(i, i + batchSize), { source: plan.name });
      // Tables go with their files too; a file that failed this time keeps its table, as it keeps its documents.
      await store.removeTables(tenant, plan.name, [...tableFiles, ...keep]);
      summary.removed += gone.length;
      progress({ phase: "prune", done: gone.length, total: gone.length });
    }
  }
  summary.ms = Math.round(performance.now() - started);
  return summary;
}
