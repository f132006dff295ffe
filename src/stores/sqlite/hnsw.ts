import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import type { Index } from "usearch";
import { MissingDependencyError } from "../../spec/errors.js";
import { requireUsearch, USEARCH, type Usearch } from "../../util/optional-import.js";
import { blobVector, type StoreContext } from "./context.js";
import { type VectorChanges, vectorTable, vectorTableExists, vectorVersionKey } from "./vectors.js";

/** Graph degree of the HNSW side index. */
export const HNSW_CONNECTIVITY = 16;
/** Candidate list size while inserting: graph quality against build time. */
export const HNSW_EXPANSION_ADD = 64;
/** Candidate list size while searching (at least the number of results asked for). */
export const HNSW_EXPANSION_SEARCH = 128;
/** Writes keep an index in step (building it if needed) once a dimension holds this many vectors. */
export const DEFAULT_HNSW_BUILD_AT = 20_000;

/** What a user without usearch can do instead. */
export const EXACT_INSTEAD = 'or search with strategy "exact" or "auto", which need no index';

function newIndex(usearch: Usearch, dims: number): Index {
  const { Index, MetricKind, ScalarKind } = usearch;
  return new Index({
    dimensions: dims,
    metric: MetricKind.Cos,
    quantization: ScalarKind.F32,
    connectivity: HNSW_CONNECTIVITY,
    expansion_add: HNSW_EXPANSION_ADD,
    expansion_search: HNSW_EXPANSION_SEARCH,
    multi: false,
  });
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

export interface HnswOptions {
  /** Writes build or update the index once the dimension holds this many vectors. Default 20,000. */
  buildAt?: number;
  /** Loads usearch, undefined when it is not installed (tests inject one). Default: `requireUsearch()`. */
  loadUsearch?: () => Usearch | undefined;
}

/**
 * HNSW side indexes (usearch), one per vector dimension, keyed by chunk rowid and covering every tenant.
 * Saved next to the database as `<db>.<dims>.hnsw` with a `.json` note of the vector version it reflects;
 * an index whose version differs from the store's counter is stale and rebuilt from the vec0 table.
 * Once a dimension is large (`buildAt`), every write updates the index, so no query waits for a build.
 * usearch is an optional peer dependency, loaded on first use: without it `available` is false, writes
 * leave no index (one saved earlier goes stale and is rebuilt once usearch is back) and search is exact.
 */
export class HnswIndexes {
  readonly #ctx: StoreContext;
  readonly #buildAt: number;
  readonly #loaded = new Map<number, Loaded>();
  readonly #loadUsearch: () => Usearch | undefined;
  #usearch: Usearch | undefined | null = null;

  constructor(ctx: StoreContext, options: HnswOptions = {}) {
    this.#ctx = ctx;
    this.#buildAt = options.buildAt ?? DEFAULT_HNSW_BUILD_AT;
    this.#loadUsearch = options.loadUsearch ?? (() => requireUsearch());
  }

  /** usearch, loaded on first use so keyword-only users never load the native module. */
  #module(): Usearch | undefined {
    if (this.#usearch === null) this.#usearch = this.#loadUsearch();
    return this.#usearch;
  }

  /** False when usearch is not installed: callers search exactly instead. */
  get available(): boolean {
    return this.#module() !== undefined;
  }

  #newIndex(dims: number): Index {
    const usearch = this.#module();
    if (!usearch) throw new MissingDependencyError(USEARCH, "approximate vector search", undefined, EXACT_INSTEAD);
    return newIndex(usearch, dims);
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

  /** Up to k nearest rowids, nearest first (one search thread: a single query gains nothing from more). */
  search(dims: number, vector: Float32Array, k: number): HnswMatch[] {
    const index = this.index(dims);
    const size = index.size();
    if (size === 0 || k <= 0) return [];
    const matches = index.search(vector, Math.min(k, size), 1);
    const out: HnswMatch[] = [];
    for (let i = 0; i < matches.keys.length; i++) {
      out.push({ rowid: Number(matches.keys[i]), distance: matches.distances[i] ?? 2 });
    }
    return out;
  }

  size(dims: number): number {
    return this.index(dims).size();
  }

  /**
   * Applies a committed write to the index that was current just before it (loaded, or from its file); a
   * dimension without one is built now when it is large, else left to the first query that needs it.
   */
  apply(changes: VectorChanges, versions: Map<number, number>): void {
    for (const [dims, change] of changes.byDims) {
      const version = versions.get(dims);
      if (version === undefined) continue;
      let loaded = this.#loaded.get(dims);
      if (!loaded || loaded.version !== version - 1) {
        this.#loaded.delete(dims);
        const fromFile = this.#load(dims, version - 1);
        if (fromFile) {
          loaded = { index: fromFile, version: version - 1, dirty: false };
          this.#loaded.set(dims, loaded);
        } else {
          if (this.#large(dims) && this.available) this.index(dims);
          continue;
        }
      }
      const index = loaded.index;
      const removed = change.removed.concat(change.added.map((a) => a.rowid));
      if (removed.length > 0) index.remove(BigUint64Array.from(removed, BigInt));
      if (change.added.length > 0) {
        const matrix = new Float32Array(change.added.length * dims);
        change.added.forEach((a, i) => {
          matrix.set(a.vector, i * dims);
        });
        index.add(
          BigUint64Array.from(change.added, (a) => BigInt(a.rowid)),
          matrix,
          0,
        );
      }
      loaded.version = version;
      loaded.dirty = true;
    }
  }

  /** Writes indexes changed in memory to their files (on close; a crash only costs a rebuild). */
  flush(): void {
    for (const [dims, loaded] of this.#loaded) if (loaded.dirty) this.#save(dims, loaded);
  }

  #large(dims: number): boolean {
    const row = this.#ctx.stmt("SELECT count(*) AS n FROM chunks WHERE dims = ?").get(dims) as { n: number };
    return row.n >= this.#buildAt;
  }

  /** A new index of every stored vector of `dims`, inserted in batches on all cores. */
  #build(dims: number): Index {
    const index = this.#newIndex(dims);
    if (!vectorTableExists(this.#ctx, dims)) return index;
    const rows = this.#ctx.db.prepare(`SELECT rowid, embedding FROM ${vectorTable(dims)}`).iterate() as Iterable<{
      rowid: number;
      embedding: Buffer;
    }>;
    const batch = 4096;
    let keys: bigint[] = [];
    let vectors = new Float32Array(batch * dims);
    for (const row of rows) {
      vectors.set(blobVector(row.embedding), keys.length * dims);
      keys.push(BigInt(row.rowid));
      if (keys.length === batch) {
        index.add(BigUint64Array.from(keys), vectors, 0);
        keys = [];
        vectors = new Float32Array(batch * dims);
      }
    }
    if (keys.length > 0) index.add(BigUint64Array.from(keys), vectors.subarray(0, keys.length * dims), 0);
    return index;
  }

  #load(dims: number, version: number): Index | undefined {
    const file = this.filePath(dims);
    if (!file || !existsSync(file) || !existsSync(`${file}.json`) || !this.available) return undefined;
    try {
      const note = JSON.parse(readFileSync(`${file}.json`, "utf8")) as { version?: number };
      if (note.version !== version) return undefined;
      const index = this.#newIndex(dims);
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
