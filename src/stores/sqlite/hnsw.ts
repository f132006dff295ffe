import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { Index, MetricKind, ScalarKind } from "usearch";
import { blobVector, type StoreContext } from "./context.js";
import { type VectorChanges, vectorTable, vectorTableExists, vectorVersionKey } from "./vectors.js";

/** Graph degree of the HNSW side index. */
export const HNSW_CONNECTIVITY = 16;

function newIndex(dims: number): Index {
  return new Index(dims, MetricKind.Cos, ScalarKind.F32, HNSW_CONNECTIVITY);
}

interface Loaded {
  index: Index;
  /** The vector version (meta counter) the index reflects. */
  version: number;
  dirty: boolean;
}

export interface HnswMatch {
  rowid: number;
  /** Cosine distance (1 - similarity). */
  distance: number;
}

/**
 * HNSW side indexes (usearch), one per vector dimension, keyed by chunk rowid and covering every tenant.
 * Saved next to the database as `<db>.<dims>.hnsw` with a `.json` note of the vector version it reflects;
 * an index whose version differs from the store's counter is stale and rebuilt from the vec0 table.
 */
export class HnswIndexes {
  readonly #ctx: StoreContext;
  readonly #loaded = new Map<number, Loaded>();

  constructor(ctx: StoreContext) {
    this.#ctx = ctx;
  }

  filePath(dims: number): string | undefined {
    return this.#ctx.path === ":memory:" ? undefined : `${this.#ctx.path}.${dims}.hnsw`;
  }

  #currentVersion(dims: number): number {
    return Number(this.#ctx.getMeta(vectorVersionKey(dims)) ?? "0");
  }

  /** The up-to-date index for `dims`: in memory, else from its file, else rebuilt (and saved). */
  index(dims: number): Index {
    const version = this.#currentVersion(dims);
    const loaded = this.#loaded.get(dims);
    if (loaded && loaded.version === version) return loaded.index;
    const fromFile = this.#load(dims, version);
    if (fromFile) {
      this.#loaded.set(dims, { index: fromFile, version, dirty: false });
      return fromFile;
    }
    const index = this.#build(dims);
    const entry = { index, version, dirty: true };
    this.#loaded.set(dims, entry);
    this.#save(dims, entry);
    return index;
  }

  search(dims: number, vector: Float32Array, k: number): HnswMatch[] {
    const index = this.index(dims);
    const size = index.size();
    if (size === 0) return [];
    const matches = index.search(vector, Math.min(k, size), 0);
    const out: HnswMatch[] = [];
    for (let i = 0; i < matches.keys.length; i++) {
      out.push({ rowid: Number(matches.keys[i]), distance: matches.distances[i] ?? 2 });
    }
    return out;
  }

  size(dims: number): number {
    return this.index(dims).size();
  }

  /** Applies a committed write to indexes that were current just before it; drops the others. */
  apply(changes: VectorChanges, versions: Map<number, number>): void {
    for (const [dims, change] of changes.byDims) {
      const loaded = this.#loaded.get(dims);
      const version = versions.get(dims);
      if (!loaded || version === undefined) continue;
      if (loaded.version !== version - 1) {
        this.#loaded.delete(dims);
        continue;
      }
      for (const rowid of change.removed) loaded.index.remove(BigInt(rowid));
      for (const { rowid, vector } of change.added) {
        if (loaded.index.contains(BigInt(rowid))) loaded.index.remove(BigInt(rowid));
        loaded.index.add(BigInt(rowid), vector);
      }
      loaded.version = version;
      loaded.dirty = true;
    }
  }

  /** Writes indexes changed in memory to their files (on close; a crash only costs a rebuild). */
  flush(): void {
    for (const [dims, loaded] of this.#loaded) if (loaded.dirty) this.#save(dims, loaded);
  }

  #build(dims: number): Index {
    const index = newIndex(dims);
    if (!vectorTableExists(this.#ctx, dims)) return index;
    const rows = this.#ctx.db.prepare(`SELECT rowid, embedding FROM ${vectorTable(dims)}`).iterate() as Iterable<{
      rowid: number;
      embedding: Buffer;
    }>;
    const batch = 1024;
    let keys: bigint[] = [];
    let vectors = new Float32Array(batch * dims);
    for (const row of rows) {
      vectors.set(blobVector(row.embedding), keys.length * dims);
      keys.push(BigInt(row.rowid));
      if (keys.length === batch) {
        index.add(BigUint64Array.from(keys), vectors);
        keys = [];
        vectors = new Float32Array(batch * dims);
      }
    }
    if (keys.length > 0) index.add(BigUint64Array.from(keys), vectors.subarray(0, keys.length * dims));
    return index;
  }

  #load(dims: number, version: number): Index | undefined {
    const file = this.filePath(dims);
    if (!file || !existsSync(file) || !existsSync(`${file}.json`)) return undefined;
    try {
      const note = JSON.parse(readFileSync(`${file}.json`, "utf8")) as { version?: number };
      if (note.version !== version) return undefined;
      const index = newIndex(dims);
      index.load(file);
      return index;
    } catch {
      return undefined; // unreadable or from another usearch version: rebuilt by the caller
    }
  }

  #save(dims: number, loaded: Loaded): void {
    const file = this.filePath(dims);
    if (!file || this.#ctx.readonly) return;
    loaded.index.save(`${file}.tmp`);
    renameSync(`${file}.tmp`, file);
    writeFileSync(`${file}.json.tmp`, JSON.stringify({ version: loaded.version, dimensions: dims }));
    renameSync(`${file}.json.tmp`, `${file}.json`);
    loaded.dirty = false;
  }
}
