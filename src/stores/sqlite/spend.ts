import type { SpendEntry, SpendStoreV1 } from "../../spec/keys.js";
import { checkSpendEntry } from "../spend-entry.js";
import type { RunOnStore } from "./graph.js";

/** Daily spend per (tenant, UTC day, key) in the `spend` table (schema v3). */
export class SqliteSpend implements SpendStoreV1 {
  readonly specificationVersion = "v1" as const;
  readonly #run: RunOnStore;

  constructor(run: RunOnStore) {
    this.#run = run;
  }

  addSpend(entry: SpendEntry): Promise<void> {
    return this.#run("record spend", (ctx) => {
      ctx.assertWritable("record spend");
      checkSpendEntry(entry);
      // One statement that adds: two processes recording at once both count.
      ctx
        .stmt(
          `INSERT INTO spend (tenant, day, key_id, usd, runs) VALUES (?, ?, ?, ?, 1)
           ON CONFLICT (tenant, day, key_id) DO UPDATE SET usd = usd + excluded.usd, runs = runs + 1`,
        )
        .run(entry.tenant, entry.day, entry.keyId, entry.usd);
    });
  }

  spent(query: { tenant: string; day: string; keyId?: string }): Promise<number> {
    return this.#run("read spend", (ctx) => {
      const row =
        query.keyId === undefined
          ? ctx.stmt("SELECT total(usd) AS usd FROM spend WHERE tenant = ? AND day = ?").get(query.tenant, query.day)
          : ctx
              .stmt("SELECT total(usd) AS usd FROM spend WHERE tenant = ? AND day = ? AND key_id = ?")
              .get(query.tenant, query.day, query.keyId);
      return (row as { usd: number }).usd;
    });
  }
}
