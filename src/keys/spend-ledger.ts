import { StoreError } from "../spec/errors.js";
import type { SpendStoreV1 } from "../spec/keys.js";

/** The UTC day of a time, `YYYY-MM-DD`: spend totals start again at 00:00 UTC. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Daily spend, kept in the store so it survives a restart and is shared by every process on the store. */
export interface SpendLedger {
  /** USD spent today (UTC, or on the day of `at`) by the tenant: every key, or one. */
  spent(query: { tenant: string; keyId?: string; at?: number }): Promise<number>;
  /** Adds a run's cost to today's totals of the tenant and key. */
  add(entry: { tenant: string; keyId?: string; usd: number; at?: number }): Promise<void>;
}

export function createSpendLedger(options: {
  store: SpendStoreV1 | undefined;
  provider: string;
  now?: () => number;
}): SpendLedger {
  const now = options.now ?? Date.now;
  const spend = (): SpendStoreV1 => {
    if (!options.store) throw new StoreError(`The ${options.provider} store keeps no spend records.`);
    return options.store;
  };
  return {
    spent: async (q) => spend().spent({ tenant: q.tenant, day: utcDay(q.at ?? now()), keyId: q.keyId }),
    add: async (e) =>
      spend().addSpend({ tenant: e.tenant, day: utcDay(e.at ?? now()), keyId: e.keyId ?? "", usd: e.usd }),
  };
}
