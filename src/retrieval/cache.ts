import type { Principal } from "../spec/principal.js";
import type { ToolResult } from "../spec/tool-result.js";
import { stableJson } from "../util/stable-json.js";

/** What identifies one cached sub-query: the tool, its (parsed) arguments and who asked. */
export interface SubQueryKey {
  tool: string;
  /** Parsed arguments (defaults filled in); a `query` string is normalised before keying. */
  args: Record<string, unknown>;
  /** Only tenant and roles matter: two principals share an entry only when both are equal. */
  principal: Principal;
  /** Names of the sources the principal may read at the time of the call. */
  readable: readonly string[];
  /**
   * The store's data version for the tenant, read when the call began (`StoreV1.dataVersion`): any ingest,
   * delete or ACL change, in this process or another, gives every later call new keys, so nothing cached
   * before it is served after it.
   */
  dataVersion: number;
}

export interface SubQueryCache {
  get(key: SubQueryKey): ToolResult | undefined;
  /** Stores a result, remembering which sources it was drawn from (for `invalidateSource`). */
  set(key: SubQueryKey, result: ToolResult, sources: readonly string[]): void;
  /** Drops every entry of the tenant that searched `source`; returns how many. Call it when the source is ingested. */
  invalidateSource(tenant: string, source: string): number;
  clear(): void;
  readonly size: number;
}

export interface CreateSubQueryCacheOptions {
  /** Most entries kept; the least recently used goes first. Default 500. */
  maxEntries?: number;
  /** How long an entry lives, in ms. Default 10 minutes. */
  ttlMs?: number;
  /** Clock, for tests. */
  now?: () => number;
}

interface Entry {
  tenant: string;
  sources: Set<string>;
  expiresAt: number;
  result: ToolResult;
}

/** Lower case, NFKC, whitespace collapsed: `  Refund  Policy ` and `refund policy` are one query. */
export function normaliseQuery(query: string): string {
  return query.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();
}

/**
 * The cache key: tool, normalised query, the other arguments (source, docId, since, k, ...), the access
 * scope (tenant, sorted roles and the sorted readable sources) and the store's data version. Entries are never
 * shared across scopes, nor served after the data changed.
 */
export function subQueryKey(key: SubQueryKey): string {
  const args = { ...key.args };
  if (typeof args.query === "string") args.query = normaliseQuery(args.query);
  const roles = [...new Set(key.principal.roles)].sort();
  const readable = [...new Set(key.readable)].sort();
  return stableJson({
    tool: key.tool,
    args,
    tenant: key.principal.tenant,
    roles,
    readable,
    dataVersion: key.dataVersion,
  });
}

/** A bounded (entries and time) LRU cache of tool results, keyed by sub-query and access scope. */
export function createSubQueryCache(options: CreateSubQueryCacheOptions = {}): SubQueryCache {
  const maxEntries = Math.max(1, options.maxEntries ?? 500);
  const ttlMs = options.ttlMs ?? 10 * 60_000;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();

  return {
    get(key) {
      const id = subQueryKey(key);
      const entry = entries.get(id);
      if (entry === undefined) return undefined;
      if (entry.expiresAt <= now()) {
        entries.delete(id);
        return undefined;
      }
      // Re-insert: Map order is recency order.
      entries.delete(id);
      entries.set(id, entry);
      return structuredClone(entry.result);
    },
    set(key, result, sources) {
      const id = subQueryKey(key);
      entries.delete(id);
      entries.set(id, {
        tenant: key.principal.tenant,
        sources: new Set(sources),
        expiresAt: now() + ttlMs,
        result: structuredClone(result),
      });
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next();
        if (oldest.done) break;
        entries.delete(oldest.value);
      }
    },
    invalidateSource(tenant, source) {
      let dropped = 0;
      for (const [id, entry] of entries) {
        if (entry.tenant === tenant && entry.sources.has(source)) {
          entries.delete(id);
          dropped++;
        }
      }
      return dropped;
    },
    clear() {
      entries.clear();
    },
    get size() {
      return entries.size;
    },
  };
}
